func multiplier(_ factor: Int) -> (Int) -> Int {
    { $0 * factor }
}

func adder(_ n: Int) -> (Int) -> Int {
    return { x in x + n }
}

func pipeline(_ fs: [(Int) -> Int]) -> (Int) -> Int {
    return { input in fs.reduce(input) { acc, f in f(acc) } }
}

func main() {
    let triple = multiplier(3)
    print(triple(7))
    print([1, 2, 3].map(multiplier(10)))
    let p = pipeline([adder(1), multiplier(2), adder(-3)])
    print(p(5), p(0))
    let empty = pipeline([])
    print(empty(42))
    let fs = (1...3).map(multiplier)
    print(fs.map { $0(2) })
}
