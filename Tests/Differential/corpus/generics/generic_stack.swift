struct Stack<Element> {
    private var storage: [Element] = []

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }
    var top: Element? { storage.last }

    mutating func push(_ e: Element) {
        storage.append(e)
    }

    @discardableResult
    mutating func pop() -> Element? {
        storage.popLast()
    }
}

func main() {
    var s = Stack<Int>()
    s.push(1)
    s.push(2)
    s.push(3)
    print(s.count, s.top as Any)
    print(s.pop() as Any, s.pop() as Any)
    print(s.count, s.isEmpty)
    s.pop()
    print(s.pop() as Any, s.isEmpty)
    var words = Stack<String>()
    for w in "to be or not".split(separator: " ") {
        words.push(String(w))
    }
    var out: [String] = []
    while let w = words.pop() { out.append(w) }
    print(out)
}
