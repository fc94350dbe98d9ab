indirect enum Expr {
    case num(Int)
    case add(Expr, Expr)
    case mul(Expr, Expr)
    case neg(Expr)
}

func eval(_ e: Expr) -> Int {
    switch e {
    case .num(let n): return n
    case .add(let a, let b): return eval(a) + eval(b)
    case .mul(let a, let b): return eval(a) * eval(b)
    case .neg(let a): return -eval(a)
    }
}

func show(_ e: Expr) -> String {
    switch e {
    case .num(let n): return "\(n)"
    case let .add(a, b): return "(\(show(a)) + \(show(b)))"
    case let .mul(a, b): return "\(show(a)) * \(show(b))"
    case let .neg(a): return "-\(show(a))"
    }
}

func main() {
    let e = Expr.mul(.add(.num(2), .num(3)), .neg(.num(4)))
    print(show(e))
    print(eval(e))
    let f = Expr.add(.num(1), .mul(.num(2), .num(5)))
    print(show(f), "=", eval(f))
}
