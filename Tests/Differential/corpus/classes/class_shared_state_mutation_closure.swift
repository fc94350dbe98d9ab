class Store {
    var items: [String] = []
    var onChange: [() -> Void] = []

    func add(_ item: String) {
        items.append(item)
        onChange.forEach { $0() }
    }
}

func main() {
    let store = Store()
    var renderCount = 0
    var snapshots: [Int] = []
    store.onChange.append { renderCount += 1 }
    store.onChange.append { [store] in snapshots.append(store.items.count) }
    store.add("a")
    store.add("b")
    print(renderCount, snapshots)
    let alias = store
    alias.add("c")
    print(store.items, renderCount, snapshots)
}
