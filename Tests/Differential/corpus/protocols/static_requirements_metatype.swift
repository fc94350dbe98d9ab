protocol PreferenceKey {
    associatedtype Value
    static var defaultValue: Value { get }
    static func reduce(value: inout Value, nextValue: () -> Value)
}

struct MaxHeightKey: PreferenceKey {
    static var defaultValue: Double = 0
    static func reduce(value: inout Double, nextValue: () -> Double) {
        value = max(value, nextValue())
    }
}

struct NamesKey: PreferenceKey {
    static var defaultValue: [String] = []
    static func reduce(value: inout [String], nextValue: () -> [String]) {
        value += nextValue()
    }
}

func fold<K: PreferenceKey>(_ key: K.Type, _ values: [K.Value]) -> K.Value {
    var result = key.defaultValue
    for v in values {
        K.reduce(value: &result) { v }
    }
    return result
}

func main() {
    print(MaxHeightKey.defaultValue, NamesKey.defaultValue)
    print(fold(MaxHeightKey.self, [3, 12.5, 7]))
    print(fold(MaxHeightKey.self, []))
    print(fold(NamesKey.self, [["a"], [], ["b", "c"]]))
    let t = MaxHeightKey.self
    print(t.defaultValue)
}
