enum Unit: CaseIterable { case meters, feet, inches
    var symbol: String {
        switch self {
        case .meters: "m"
        case .feet: "ft"
        case .inches: "in"
        }
    }
}
func main() {
    let label = { (u: Unit) -> String in
        switch u {
        case .meters: "m"
        case .feet: "ft"
        case .inches: "in"
        }
    }
    print(label(.feet), Unit.feet.symbol)
    let l2: (Unit) -> String = { u in
        switch u {
        case .meters: return "m"
        default: return "x"
        }
    }
    print(l2(.meters), Unit.allCases.count)
    let x = 1
    print(x)
}
