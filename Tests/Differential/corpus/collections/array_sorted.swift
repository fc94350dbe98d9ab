struct Task {
    let title: String
    let priority: Int
}

func main() {
    let nums = [5, 3, 9, 1, 3]
    print(nums.sorted())
    print(nums.sorted(by: >))
    print(nums.sorted { $0 > $1 })
    print(nums)
    var mutable = nums
    mutable.sort()
    print(mutable)
    mutable.sort(by: >)
    print(mutable)
    let tasks = [Task(title: "b", priority: 2), Task(title: "a", priority: 2), Task(title: "c", priority: 1)]
    let byPriority = tasks.sorted { $0.priority < $1.priority }
    print(byPriority.map(\.title))
    let byBoth = tasks.sorted { ($0.priority, $0.title) < ($1.priority, $1.title) }
    print(byBoth.map(\.title))
    print(["b", "C", "a"].sorted())
    print([2.5, -1.0, 0.0].sorted())
}
