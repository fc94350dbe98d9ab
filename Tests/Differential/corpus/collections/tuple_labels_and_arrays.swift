func main() {
    let points: [(x: Int, y: Int)] = [(1, 2), (3, 4), (x: 5, y: 6)]
    for p in points {
        print(p.x + p.y)
    }
    for (x, y) in points {
        print(x * y)
    }
    print(points.map { $0.x })
    print(points.map { "\($0)" })
    let sortedDesc = points.sorted { $0.y > $1.y }
    print(sortedDesc.map(\.y))
    let unlabeled: (Int, Int) = points[0]
    print(unlabeled)
    let relabeled: (a: Int, b: Int) = (points[1].x, points[1].y)
    print(relabeled, relabeled.a)
    var records: [(name: String, done: Bool)] = []
    records.append((name: "write", done: false))
    records.append(("test", true))
    records[0].done = true
    print(records.filter { $0.done }.map { $0.name })
}
