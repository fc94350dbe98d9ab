class Item {
    let name: String
    init(_ name: String) { self.name = name }
}

func main() {
    let a = Item("a")
    let b = Item("b")
    let a2 = Item("a")
    let list = [a, b, a]
    print(list.filter { $0 === a }.count)
    print(list.contains { $0 === a2 })
    print(list.contains { $0.name == a2.name })
    var byId: [ObjectIdentifier: Int] = [:]
    for item in list {
        byId[ObjectIdentifier(item), default: 0] += 1
    }
    print(byId[ObjectIdentifier(a)]!, byId[ObjectIdentifier(b)]!, byId[ObjectIdentifier(a2)] as Any)
    print(byId.count)
    let copy = list
    copy[1] === list[1] ? print("same object") : print("different")
}
