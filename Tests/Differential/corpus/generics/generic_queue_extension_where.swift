struct Queue<T> {
    var items: [T] = []
    mutating func enqueue(_ x: T) { items.append(x) }
    mutating func dequeue() -> T? { items.isEmpty ? nil : items.removeFirst() }
}

extension Queue where T: Numeric {
    var total: T { items.reduce(0, +) }
}

extension Queue where T: Comparable {
    var smallest: T? { items.min() }
}

extension Queue where T == String {
    func joined() -> String { items.joined(separator: ",") }
}

func main() {
    var q = Queue<Int>()
    q.enqueue(5)
    q.enqueue(2)
    q.enqueue(9)
    print(q.total, q.smallest as Any)
    print(q.dequeue() as Any, q.total)
    var s = Queue<String>(items: ["b", "a"])
    s.enqueue("c")
    print(s.joined(), s.smallest as Any)
    var d = Queue<Double>()
    d.enqueue(1.5)
    print(d.total)
}
