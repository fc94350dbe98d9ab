enum Token {
    case number(Int)
    case word(String)
}

func main() {
    let maybe: Int? = 8
    if case .some(let x) = maybe {
        print("some", x)
    }
    if case let x? = maybe {
        print("sugar", x)
    }
    let none: Int? = nil
    if case .none = none {
        print("it is none")
    }
    let tokens: [Token?] = [.number(1), nil, .word("hi"), .number(2)]
    for case let .some(.number(n)) in tokens {
        print("number", n)
    }
    for case let t? in tokens {
        print("token", t)
    }
    let values: [Int?] = [1, nil, 3]
    for case let v? in values where v > 1 {
        print("v", v)
    }
    switch maybe {
    case .some(let v) where v > 5: print("big some", v)
    case .some: print("small some")
    case .none: print("none")
    }
}
