class Observable<Value> {
    private(set) var value: Value
    private var observers: [(Value) -> Void] = []

    init(_ value: Value) { self.value = value }

    func observe(_ f: @escaping (Value) -> Void) {
        observers.append(f)
        f(value)
    }

    func set(_ v: Value) {
        value = v
        observers.forEach { $0(v) }
    }
}

func main() {
    let name = Observable("ann")
    var seen: [String] = []
    name.observe { seen.append("a:\($0)") }
    name.set("bob")
    name.observe { seen.append("b:\($0)") }
    name.set("cy")
    print(seen)
    let count = Observable(0)
    var total = 0
    count.observe { total += $0 }
    for i in 1...4 { count.set(i) }
    print(total, count.value)
}
