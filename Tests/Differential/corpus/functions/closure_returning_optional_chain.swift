struct Store {
    var items: [String: Int] = ["apple": 3]
    var onChange: ((String) -> Void)?

    mutating func set(_ key: String, _ value: Int) {
        items[key] = value
        onChange?(key)
    }
}

func main() {
    var store = Store()
    store.set("pear", 1)
    print(store.items.keys.sorted())
    var changed: [String] = []
    store.onChange = { changed.append($0) }
    store.set("kiwi", 2)
    store.set("apple", 0)
    print(changed)
    let transform: ((Int) -> Int)? = nil
    print(transform?(5) as Any)
    let t2: ((Int) -> Int)? = { $0 + 1 }
    print(t2?(5) as Any, t2!(1))
}
