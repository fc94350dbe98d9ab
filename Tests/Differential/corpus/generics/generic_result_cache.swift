struct Cache<Key: Hashable & Comparable, Value> {
    private var storage: [Key: Value] = [:]
    private(set) var order: [Key] = []
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    mutating func set(_ key: Key, _ value: Value) {
        if storage[key] == nil {
            order.append(key)
            if order.count > capacity {
                let evicted = order.removeFirst()
                storage[evicted] = nil
            }
        }
        storage[key] = value
    }

    subscript(key: Key) -> Value? { storage[key] }

    var keys: [Key] { storage.keys.sorted() }
}

func main() {
    var c = Cache<String, Int>(capacity: 2)
    c.set("a", 1)
    c.set("b", 2)
    c.set("a", 10)
    print(c.keys, c["a"] as Any)
    c.set("c", 3)
    print(c.keys, c.order, c["a"] as Any)
    var d = Cache<Int, [String]>(capacity: 1)
    d.set(1, ["x"])
    d.set(2, ["y"])
    print(d.keys, d[2] as Any)
}
