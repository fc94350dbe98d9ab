struct Report {
    var rows: [Int]
    var computeCount = 0

    lazy var summary: String = {
        "rows: \(rows.count), total: \(rows.reduce(0, +))"
    }()

    lazy var doubled: [Int] = rows.map { $0 * 2 }
}

func main() {
    var r = Report(rows: [1, 2, 3])
    print(r.rows)
    print(r.summary)
    r.rows.append(4)
    print(r.summary)
    print(r.doubled)
    r.doubled.append(0)
    print(r.doubled)
    var s = Report(rows: [5])
    s.rows = [7, 8]
    print(s.summary, s.doubled)
}
