struct P {
    var name: String?
    var tags: [String]?
    var score: Double?
}

func main() {
    let p = P(name: "x", tags: nil, score: 2)
    print(p)
    let q = P(name: nil, tags: ["a"], score: nil)
    print(q)
    let s: String? = "quoted"
    print(s as Any)
    print("\(s ?? "")")
    print([s, nil])
    let ch: Character? = "c"
    print(ch as Any)
    let nestedArr: [[Int]?] = [[1], nil]
    print(nestedArr)
    let t: (Int, String?) = (1, nil)
    print(t)
    let b: Bool? = false
    print(b as Any, b == false)
}
