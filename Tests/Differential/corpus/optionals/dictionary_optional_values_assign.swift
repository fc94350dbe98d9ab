func describe(_ d: [String: Int?]) -> String {
    d.keys.sorted().map { "\($0)=\(String(describing: d[$0]!))" }.joined(separator: " ")
}

func main() {
    var d: [String: Int?] = ["a": 1, "b": 2]
    print(describe(d), d.count)
    d["a"] = nil
    print(describe(d), d.count)
    d["b"] = .some(nil)
    print(describe(d), d.count)
    d["c"] = Optional<Int>.none
    print(describe(d), d.count)
    d.updateValue(nil, forKey: "e")
    print(describe(d), d.count)
    print(d["b"] as Any, d["zzz"] as Any)
    print(d.keys.sorted())
}
