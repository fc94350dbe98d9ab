struct Point {
    var x: Int
    var y: Int
}

struct Badge {
    let title: String
    let score: Double
    let tags: [String]
    let origin: (Int, Int)
    let note: String?
}

func main() {
    let p = Point(x: 3, y: -4)
    print(p)
    print("point is \(p)")
    let b = Badge(title: "Gold", score: 9.5, tags: ["a", "b"], origin: (p.x, p.y), note: nil)
    print(b)
    let c = Badge(title: "Tin", score: 1, tags: [], origin: (0, 0), note: "hey")
    print("\(c)")
    print([p, Point(x: 1, y: 1)].map { "\($0)" })
    print(String(describing: p))
}
