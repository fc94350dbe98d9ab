struct Counter {
    private(set) var count = 0
    var history: [Int] = []

    mutating func increment(by amount: Int = 1) {
        count += amount
        history.append(count)
    }

    mutating func reset() {
        self = Counter()
    }

    func peek() -> Int {
        count
    }
}

func main() {
    var c = Counter()
    c.increment()
    c.increment(by: 5)
    print(c.count, c.history)
    let snapshot = c
    c.increment(by: -2)
    print(snapshot.count, c.count)
    c.reset()
    print(c.count, c.history, c.peek())
    var list = [Counter(), Counter()]
    list[1].increment(by: 3)
    print(list.map(\.count))
}
