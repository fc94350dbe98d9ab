struct Priority {
    let level: Int
    let label: String
}

extension Priority: Equatable {
    static func == (lhs: Priority, rhs: Priority) -> Bool {
        lhs.level == rhs.level
    }
}

extension Priority: Comparable {
    static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.level < rhs.level
    }
}

func main() {
    let a = Priority(level: 1, label: "low")
    let b = Priority(level: 1, label: "minor")
    let c = Priority(level: 5, label: "high")
    print(a == b, a == c, a != c)
    print(a < c, c > b, a <= b, a >= b)
    let list = [c, a, Priority(level: 3, label: "mid")]
    print(list.sorted().map(\.label))
    print(list.max()!.label, list.min()!.label)
    print(list.contains(Priority(level: 3, label: "other")))
    print(list.firstIndex(of: b)!)
}
