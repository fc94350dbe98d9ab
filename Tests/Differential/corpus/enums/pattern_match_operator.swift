struct Even {}

func ~= (pattern: Even, value: Int) -> Bool {
    return value % 2 == 0
}

func ~= (pattern: String, value: Int) -> Bool {
    return pattern == String(value)
}

func describe(_ n: Int) -> String {
    switch n {
    case "7":
        return "lucky"
    case Even():
        return "even"
    default:
        return "odd"
    }
}

func main() {
    for n in [7, 4, 9, 0] {
        print(n, describe(n))
    }
    print(1...10 ~= 5)
    print(1..<5 ~= 5)
    print(Even() ~= 3)
    let range = 0.0...1.0
    print(range ~= 0.5)
    if case 10...20 = 15 {
        print("15 in 10...20")
    }
}
