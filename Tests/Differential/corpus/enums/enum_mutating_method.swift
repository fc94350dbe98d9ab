enum Light {
    case red, yellow, green

    mutating func next() {
        switch self {
        case .red: self = .green
        case .green: self = .yellow
        case .yellow: self = .red
        }
    }

    var canGo: Bool { self == .green }
}

enum Toggle {
    case on, off
    mutating func flip() { self = self == .on ? .off : .on }
}

func main() {
    var light = Light.red
    for _ in 0..<4 {
        print(light, light.canGo)
        light.next()
    }
    var t = Toggle.off
    t.flip()
    print(t)
    t.flip()
    print(t)
}
