func describe(_ v: Int?) -> String {
    switch v {
    case nil:
        return "nothing"
    case 0?:
        return "zero"
    case let x? where x < 0:
        return "negative \(x)"
    case .some(1...9):
        return "digit"
    case let .some(x):
        return "big \(x)"
    }
}

func main() {
    for v in [nil, 0, -4, 7, 42] as [Int?] {
        print(describe(v))
    }
    let pair: (Int?, String?) = (1, nil)
    switch pair {
    case (let a?, let b?):
        print("both", a, b)
    case (let a?, nil):
        print("only first", a)
    case (nil, _):
        print("no first")
    }
}
