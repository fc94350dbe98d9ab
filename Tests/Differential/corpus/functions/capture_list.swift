struct Binding {
    let get: () -> Int
    let set: (Int) -> Void
}

class Box {
    var value: Int
    init(_ v: Int) { value = v }
}

func main() {
    var count = 1
    let snapshot = { [count] in "snapshot \(count)" }
    let current = { "current \(count)" }
    count = 9
    print(snapshot(), current())
    let box = Box(1)
    let byRef = { [box] in box.value }
    box.value = 50
    print(byRef())
    var store = 0
    let binding = Binding(get: { store }, set: { store = $0 })
    binding.set(12)
    print(binding.get(), store)
    let doubled = { [value = count * 2] in value }
    count = 0
    print(doubled())
}
