enum Flavor: String, CaseIterable {
    case vanilla, chocolate, strawberry
}

enum Direction: CaseIterable {
    case north, east, south, west

    var opposite: Direction {
        let all = Direction.allCases
        let i = all.firstIndex(of: self)!
        return all[(i + 2) % all.count]
    }
}

func main() {
    print(Flavor.allCases.count)
    print(Flavor.allCases.map(\.rawValue))
    for f in Flavor.allCases {
        print(f)
    }
    print(Direction.allCases.map { "\($0)->\($0.opposite)" })
    print(Flavor.allCases.first!, Flavor.allCases.last!)
    print(Flavor.allCases.contains(.chocolate))
    let picker = Flavor.allCases.enumerated().map { "\($0.offset):\($0.element.rawValue)" }
    print(picker)
}
