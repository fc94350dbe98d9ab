struct Tag: Equatable {
    var name: String
}

func main() {
    let a: Int? = 3
    let b: Int? = nil
    print(a == 3, a == nil, b == nil, a != nil)
    print(a == b)
    let c: Int? = 3
    print(a == c)
    print(b == Optional<Int>.none)
    let t: Tag? = Tag(name: "x")
    print(t == Tag(name: "x"))
    print(t == nil)
    let s: String? = "hi"
    print(s == "hi", s != "ho")
    let arr: [Int]? = [1, 2]
    print(arr == [1, 2])
    let n: Int? = nil
    print(n == 0)
    print(Optional(1) == Optional(1))
}
