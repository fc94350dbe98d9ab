struct Profile {
    var nickname: String?
    var age: Int?
}

func main() {
    let name: String? = "Ada"
    let missing: String? = nil
    print("name: \(String(describing: name))")
    print("missing: \(String(describing: missing))")
    let count: Int? = 3
    print("count \(count as Any)")
    print("count or zero \(count ?? 0)")
    let p = Profile(nickname: "ace", age: nil)
    print("nick \(p.nickname ?? "-") age \(p.age.map { String($0) } ?? "unknown")")
    print(name as Any)
    print(String(describing: p.age))
    let d: Double? = 2.0
    print(String(describing: d))
    print("\(String(describing: Optional(Optional(1))))")
}
