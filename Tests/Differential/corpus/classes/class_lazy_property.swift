class Report {
    var computeCount = 0
    let values: [Int]

    lazy var total: Int = {
        computeCount += 1
        return values.reduce(0, +)
    }()

    lazy var label: String = "Total: \(total)"

    init(values: [Int]) {
        self.values = values
    }
}

func main() {
    let r = Report(values: [1, 2, 3])
    print(r.computeCount)
    print(r.total)
    print(r.total)
    print(r.computeCount)
    print(r.label)
    r.total = 100
    print(r.total, r.label, r.computeCount)
}
