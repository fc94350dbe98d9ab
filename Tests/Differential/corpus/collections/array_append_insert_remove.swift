func main() {
    var todos = ["buy milk", "walk dog"]
    todos.append("code")
    print(todos)
    todos.insert("wake up", at: 0)
    print(todos)
    todos.insert("coffee", at: 2)
    print(todos)
    let removed = todos.remove(at: 1)
    print(removed, todos)
    let last = todos.removeLast()
    print(last, todos)
    let first = todos.removeFirst()
    print(first, todos)
    todos.append(contentsOf: ["read", "sleep"])
    print(todos, todos.count)
    todos.removeAll { $0.hasPrefix("s") }
    print(todos)
    todos.removeAll()
    print(todos.isEmpty)
    print(todos.popLast() as Any)
}
