func parse(_ s: String) -> Int? {
    return Int(s)
}

func main() {
    let text: String? = "42"
    let none: String? = nil
    print(text.map { $0.count } as Any)
    print(none.map { $0.count } as Any)
    let nested = text.map(parse)
    print(nested as Any)
    let flat = text.flatMap(parse)
    print(flat as Any)
    let bad: String? = "x"
    print(bad.map(parse) as Any)
    print(bad.flatMap(parse) as Any)
    let n: Int? = 5
    print(n.map { $0 * 2 } ?? 0)
    print(n.map { "value \($0)" } ?? "none")
    let label = none.map { "name: \($0)" } ?? "no name"
    print(label)
    print(n.flatMap { $0 > 3 ? $0 : nil } as Any)
}
