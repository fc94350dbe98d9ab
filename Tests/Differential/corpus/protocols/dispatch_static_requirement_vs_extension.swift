protocol Kind {
    static var kindName: String { get }
}

extension Kind {
    static var kindName: String { "default kind" }
    static var extraName: String { "default extra" }
    static func describe() -> String { "\(kindName) / \(extraName)" }
}

struct Circle: Kind {
    static var kindName: String { "circle" }
    static var extraName: String { "circle extra" }
}

struct Blob: Kind {}

func name<T: Kind>(_ t: T.Type) -> String {
    "\(t.kindName) | \(t.extraName)"
}

func main() {
    print(Circle.kindName, Circle.extraName)
    print(Circle.describe())
    print(name(Circle.self))
    print(Blob.kindName, Blob.describe())
    let types: [Kind.Type] = [Circle.self, Blob.self]
    print(types.map { $0.kindName })
    print(types.map { $0.extraName })
}
