enum Theme { case light, dark, system }

func color(for theme: Theme, hour: Int) -> String {
    let resolved = switch theme {
    case .light: "white"
    case .dark: "black"
    case .system: hour >= 19 || hour < 7 ? "black" : "white"
    }
    return resolved
}

func main() {
    print(color(for: .light, hour: 22))
    print(color(for: .system, hour: 22))
    print(color(for: .system, hour: 12))
    print(color(for: .dark, hour: 8))
    let n = 15
    let fizz = switch (n % 3, n % 5) {
    case (0, 0): "FizzBuzz"
    case (0, _): "Fizz"
    case (_, 0): "Buzz"
    default: String(n)
    }
    print(fizz)
    let r = (1...15).map { i in
        switch (i % 3 == 0, i % 5 == 0) {
        case (true, true): return "FB"
        case (true, false): return "F"
        case (false, true): return "B"
        case (false, false): return "\(i)"
        }
    }
    print(r.joined(separator: " "))
}
