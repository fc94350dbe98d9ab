func grade(_ score: Int) -> String {
    switch score {
    case 90...:
        return "A"
    case 80..<90:
        return "B"
    case 70..<80:
        return "C"
    case ..<0:
        return "invalid"
    default:
        return "F"
    }
}

func main() {
    for s in [95, 90, 89, 80, 75, 10, -1, 100] {
        print(s, grade(s))
    }
    let temp = 21.5
    if (18.0...24.0).contains(temp) {
        print("comfortable")
    }
    if 1...5 ~= 3 {
        print("3 in 1...5")
    }
    print((1..<5).clamped(to: 2..<3))
    print((0...10).clamped(to: 3...20))
}
