protocol PreferenceKey {
    associatedtype Value
    static var defaultValue: Value { get }
    static func reduce(value: inout Value, nextValue: () -> Value)
}

struct HeightKey: PreferenceKey {
    static var defaultValue = 0.0
    static func reduce(value: inout Double, nextValue: () -> Double) {
        value = max(value, nextValue())
    }
}

struct Message: Equatable {
    let text: String
    let priority: Int
}

struct MessageKey: PreferenceKey {
    static var defaultValue: Message?
    static func reduce(value: inout Message?, nextValue: () -> Message?) {
        guard let next = nextValue() else { return }
        if let current = value, current.priority >= next.priority { return }
        value = next
    }
}

func combine<K: PreferenceKey>(_ k: K.Type, _ children: [K.Value]) -> K.Value {
    var v = k.defaultValue
    for c in children { K.reduce(value: &v) { c } }
    return v
}

func main() {
    print(HeightKey.defaultValue, MessageKey.defaultValue as Any)
    print(combine(HeightKey.self, [10, 44.5, 12]))
    let m = combine(MessageKey.self, [nil, Message(text: "low", priority: 1), Message(text: "high", priority: 5), Message(text: "mid", priority: 3)])
    print(m?.text ?? "none", m?.priority ?? -1)
    print(combine(MessageKey.self, []) == nil)
}
