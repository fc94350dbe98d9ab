struct Validator {
    let name: String
    let check: (String) -> Bool
    var message: String = "invalid"
}

func main() {
    let rules = [
        Validator(name: "nonEmpty", check: { !$0.isEmpty }),
        Validator(name: "short", check: { $0.count <= 5 }, message: "too long"),
        Validator(name: "lower") { $0 == $0.lowercased() },
    ]
    for input in ["", "hello", "Hello World"] {
        let failed = rules.filter { !$0.check(input) }
        print("[\(input)]", failed.map(\.name), failed.map(\.message))
    }
    let r = rules[1]
    print(r.check("abc"), r.check("abcdef"))
}
