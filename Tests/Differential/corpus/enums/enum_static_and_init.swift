enum Size: Int {
    case small = 1, medium = 2, large = 3

    static let `default` = Size.medium
    static var all: [Size] { [.small, .medium, .large] }

    init(points: Int) {
        switch points {
        case ..<10: self = .small
        case 10..<20: self = .medium
        default: self = .large
        }
    }

    var scale: Double { Double(rawValue) * 0.5 }
}

func main() {
    print(Size.default, Size.default.rawValue)
    print(Size(points: 5), Size(points: 15), Size(points: 99))
    print(Size.all.map(\.scale))
    print(Size(rawValue: 3)!.scale)
    let s: Size = .init(points: 12)
    print(s)
}
