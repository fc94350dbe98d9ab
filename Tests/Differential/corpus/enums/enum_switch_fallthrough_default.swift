enum Level: Int {
    case beginner = 1, intermediate, advanced, expert
}

func perks(_ level: Level) -> [String] {
    var result: [String] = []
    switch level {
    case .expert:
        result.append("mentor")
        fallthrough
    case .advanced:
        result.append("beta")
        fallthrough
    case .intermediate:
        result.append("forum")
    default:
        result.append("tutorial")
    }
    return result
}

func main() {
    for raw in 1...4 {
        let l = Level(rawValue: raw)!
        print(l, perks(l))
    }
}
