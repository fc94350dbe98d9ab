protocol Defaultable {
    static var defaultValue: Self { get }
    static var typeName: String { get }
}

extension Int: Defaultable {
    static var defaultValue: Int { 0 }
    static var typeName: String { "Int" }
}

extension String: Defaultable {
    static var defaultValue: String { "<empty>" }
    static var typeName: String { "String" }
}

struct Flag: Defaultable {
    var on: Bool
    static let defaultValue = Flag(on: true)
    static var typeName: String { "Flag" }
}

func f<T: Defaultable>(_ t: T.Type) {
    print(t.typeName, t.defaultValue)
}

func orDefault<T: Defaultable>(_ v: T?) -> T {
    v ?? T.defaultValue
}

func main() {
    f(Int.self)
    f(String.self)
    f(Flag.self)
    print(orDefault(Optional<Int>.none), orDefault(Optional(5)))
    print(orDefault(nil as String?))
    print(orDefault(nil as Flag?).on)
}
