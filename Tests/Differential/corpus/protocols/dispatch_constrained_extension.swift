protocol Labeled {
    var label: String { get }
}

extension Labeled {
    func tag() -> String { "plain:\(label)" }
}

extension Labeled where Self: Equatable {
    func tag() -> String { "equatable:\(label)" }
}

struct A: Labeled {
    let label = "a"
}

struct B: Labeled, Equatable {
    let label = "b"
}

func viaGeneric<T: Labeled>(_ t: T) -> String { t.tag() }
func viaEquatableGeneric<T: Labeled & Equatable>(_ t: T) -> String { t.tag() }

func main() {
    print(A().tag())
    print(B().tag())
    print(viaGeneric(A()))
    print(viaGeneric(B()))
    print(viaEquatableGeneric(B()))
    let items: [Labeled] = [A(), B()]
    print(items.map { $0.tag() })
}
