func lookup(_ key: String, in table: [String: Int?]) -> Int?? {
    return table[key]
}

func main() {
    let table: [String: Int?] = ["a": 1, "b": nil]
    let a = lookup("a", in: table)
    let b = lookup("b", in: table)
    let c = lookup("c", in: table)
    print(String(describing: a))
    print(String(describing: b))
    print(String(describing: c))
    print("\(a as Any) | \(b as Any) | \(c as Any)")
    let x: String?? = .some(nil)
    let y: String?? = nil
    let z: String?? = "hi"
    print(x as Any, y as Any, z as Any)
    print([a, b, c])
}
