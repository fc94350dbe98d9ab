func double(_ x: Int) -> Int { x * 2 }
func square(_ x: Int) -> Int { x * x }

func apply(_ f: (Int) -> Int, to values: [Int]) -> [Int] {
    values.map(f)
}

func compose(_ f: @escaping (Int) -> Int, _ g: @escaping (Int) -> Int) -> (Int) -> Int {
    { g(f($0)) }
}

func main() {
    let g = double
    print(g(21))
    print(apply(square, to: [1, 2, 3]))
    let ops: [(String, (Int) -> Int)] = [("double", double), ("square", square), ("negate", { -$0 })]
    for (name, op) in ops {
        print(name, op(5))
    }
    let doubleThenSquare = compose(double, square)
    print(doubleThenSquare(3))
    print(compose(square, double)(3))
    var chosen: (Int) -> Int = double
    chosen = square
    print(chosen(9))
    print([1, 2, 3].map(String.init))
    print(["1", "x"].map { Int($0) })
}
