protocol Rule {
    var name: String { get }
    func validate(_ s: String) -> Bool
}

struct MinLength: Rule {
    let n: Int
    var name: String { "min\(n)" }
    func validate(_ s: String) -> Bool { s.count >= n }
}

struct Contains: Rule {
    let c: Character
    var name: String { "has\(c)" }
    func validate(_ s: String) -> Bool { s.contains(c) }
}

struct Not: Rule {
    let inner: Rule
    var name: String { "not(\(inner.name))" }
    func validate(_ s: String) -> Bool { !inner.validate(s) }
}

func failures(_ s: String, _ rules: [Rule]) -> [String] {
    rules.filter { !$0.validate(s) }.map(\.name)
}

func main() {
    let rules: [Rule] = [MinLength(n: 5), Contains(c: "@"), Not(inner: Contains(c: " "))]
    for input in ["a@b", "hello world", "me@site", ""] {
        print("[\(input)]", failures(input, rules))
    }
    print(rules.map(\.name))
}
