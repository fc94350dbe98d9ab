enum Event {
    case tap(x: Int, y: Int)
    case drag(from: Int, to: Int)
    case key(String)
}

func handle(_ e: Event) -> String {
    switch e {
    case .tap(let x, let y) where x == y:
        return "diagonal tap \(x)"
    case .tap(let x, _) where x < 0:
        return "offscreen tap"
    case let .tap(x, y):
        return "tap \(x),\(y)"
    case .drag(let a, let b) where b > a:
        return "drag forward \(b - a)"
    case .drag:
        return "drag back"
    case .key("q"), .key("Q"):
        return "quit"
    case .key(let k):
        return "key \(k)"
    }
}

func main() {
    let events: [Event] = [.tap(x: 3, y: 3), .tap(x: -1, y: 5), .tap(x: 2, y: 9), .drag(from: 1, to: 4), .drag(from: 5, to: 2), .key("Q"), .key("a")]
    for e in events {
        print(handle(e))
    }
}
