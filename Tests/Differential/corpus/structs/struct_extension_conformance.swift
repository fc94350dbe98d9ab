struct Point {
    var x: Int
    var y: Int
}

extension Point: Equatable {}

extension Point {
    static let origin = Point(x: 0, y: 0)

    var manhattan: Int { abs(x) + abs(y) }

    func offset(dx: Int, dy: Int) -> Point {
        Point(x: x + dx, y: y + dy)
    }

    static func + (a: Point, b: Point) -> Point {
        Point(x: a.x + b.x, y: a.y + b.y)
    }
}

func main() {
    let p = Point(x: 3, y: -4)
    print(p.manhattan)
    print(p.offset(dx: 1, dy: 1))
    print(p + Point(x: 10, y: 10))
    print(Point.origin == Point(x: 0, y: 0))
    print(p == .origin)
    var q = Point.origin
    q = q + p + p
    print(q)
}
