struct Task {
    let title: String
    let done: Bool
    let points: Int
}

func main() {
    let tasks = [Task(title: "a", done: true, points: 3), Task(title: "b", done: false, points: 5), Task(title: "c", done: false, points: 1)]
    for t in tasks where !t.done {
        print("todo", t.title)
    }
    for t in tasks where t.points > 2 && !t.done {
        print("important", t.title)
    }
    var evens: [Int] = []
    for n in 1...10 where n % 2 == 0 {
        evens.append(n)
    }
    print(evens)
    for (i, t) in tasks.enumerated() where i > 0 {
        print(i, t.title)
    }
    for _ in 0..<0 {
        print("never")
    }
    for c in "a1b2" where c.isNumber {
        print("digit", c)
    }
}
