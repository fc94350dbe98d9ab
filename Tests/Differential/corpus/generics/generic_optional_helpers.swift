extension Optional {
    func or(_ fallback: Wrapped) -> Wrapped {
        self ?? fallback
    }

    var isNone: Bool { self == nil }
}

extension Optional where Wrapped == String {
    var orEmpty: String { self ?? "" }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}

func main() {
    let a: Int? = nil
    let b: Int? = 4
    print(a.or(1), b.or(1))
    print(a.isNone, b.isNone)
    let s: String? = nil
    print("[\(s.orEmpty)]", "[\(Optional("x").orEmpty)]")
    let list = [10, 20]
    print(list[safe: 1] as Any, list[safe: 2] as Any, list[safe: -1] as Any)
    print(list[safe: 5].or(0))
}
