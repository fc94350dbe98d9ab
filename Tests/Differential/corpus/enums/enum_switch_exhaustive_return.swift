enum Unit {
    case meters, feet, inches
}

func convert(_ value: Double, from: Unit, to: Unit) -> Double {
    let inMeters: Double
    switch from {
    case .meters: inMeters = value
    case .feet: inMeters = value * 0.3048
    case .inches: inMeters = value * 0.0254
    }
    switch to {
    case .meters: return inMeters
    case .feet: return inMeters / 0.3048
    case .inches: return inMeters / 0.0254
    }
}

func main() {
    print(convert(1, from: .meters, to: .feet))
    print(convert(12, from: .inches, to: .feet))
    print(convert(10, from: .feet, to: .meters))
    print(convert(2, from: .meters, to: .meters))
    let label = { (u: Unit) -> String in
        switch u {
        case .meters: "m"
        case .feet: "ft"
        case .inches: "in"
        }
    }
    print([Unit.meters, .feet, .inches].map(label))
}
