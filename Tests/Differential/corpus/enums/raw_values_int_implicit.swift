enum Priority: Int {
    case low, medium, high
}

enum Step: Int {
    case start = 10, middle, end
    case done = 100, archived
}

func main() {
    print(Priority.low.rawValue, Priority.medium.rawValue, Priority.high.rawValue)
    print(Step.start.rawValue, Step.middle.rawValue, Step.end.rawValue)
    print(Step.done.rawValue, Step.archived.rawValue)
    print(Priority.high)
    let p = Priority.medium
    print("priority \(p) = \(p.rawValue)")
    print(Priority.high.rawValue > Priority.low.rawValue)
    let sorted = [Priority.high, .low, .medium].sorted { $0.rawValue < $1.rawValue }
    print(sorted.map(\.rawValue))
}
