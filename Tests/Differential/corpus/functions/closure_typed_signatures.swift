func main() {
    let combine = { (a: Double, b: Double) -> Double in
        max(a, b)
    }
    print(combine(3, 4.5))
    let reducer: (Double, Double) -> Double = { (a, b) -> Double in a + b }
    print([1.0, 2.0, 3.5].reduce(0, reducer))
    let greet: (String) -> String = { name in
        let trimmed = name.isEmpty ? "you" : name
        return "Hello, \(trimmed)"
    }
    print(greet(""), greet("Sam"))
    let noArgs: () -> Int = { 42 }
    print(noArgs())
    let multi = { (x: Int) -> (Int, Int) in (x, x * x) }
    print(multi(7))
    let voidClosure: () -> Void = { print("side effect") }
    voidClosure()
    let curried = { (a: Int) in { (b: Int) in a - b } }
    print(curried(10)(3))
}
