enum E: Error { case bad }

func maybe(_ n: Int) throws -> Int? {
    if n < 0 { throw E.bad }
    return n == 0 ? nil : n * 10
}

func main() {
    let a = try? maybe(3)
    let b = try? maybe(0)
    let c = try? maybe(-1)
    print(a as Any)
    print(b as Any)
    print(c as Any)
    print(type(of: a))
    print(a == 30, b == nil, c == nil)
    let values = [2, 0, -5].map { try? maybe($0) }
    print(values)
}
