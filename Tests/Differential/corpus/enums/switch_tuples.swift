func quadrant(_ p: (Int, Int)) -> String {
    switch p {
    case (0, 0):
        return "origin"
    case (_, 0):
        return "x-axis"
    case (0, _):
        return "y-axis"
    case let (x, y) where x > 0 && y > 0:
        return "Q1"
    case (..<0, 1...):
        return "Q2"
    case (let x, let y) where x < 0:
        return "Q3 \(y)"
    default:
        return "Q4"
    }
}

func main() {
    let points = [(0, 0), (5, 0), (0, -2), (3, 3), (-1, 4), (-2, -2), (3, -3)]
    for p in points {
        print(p, quadrant(p))
    }
    let isOn = true, isAdmin = false
    switch (isOn, isAdmin) {
    case (true, true): print("admin on")
    case (true, false): print("user on")
    case (false, _): print("off")
    }
}
