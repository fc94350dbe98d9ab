struct Greeter {
    let greeting: String
    func greet(_ name: String) -> String { "\(greeting), \(name)" }
}

func main() {
    let g = Greeter(greeting: "Hi")
    let f = g.greet
    print(f("Ann"))
    print(["Bo", "Cy"].map(g.greet))
    let unbound = Greeter.greet
    print(unbound(Greeter(greeting: "Yo"))("Dee"))
    let upper: (String) -> () -> String = String.uppercased
    print(upper("abc")())
    print(["a", "b"].map { $0.uppercased() })
    let counts = ["aa", "b"].map(\.count)
    print(counts)
    let isEmpty: (String) -> Bool = \.isEmpty
    print(["", "x"].map(isEmpty))
}
