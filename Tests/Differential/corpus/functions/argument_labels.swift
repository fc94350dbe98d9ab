func move(from start: Int, to end: Int) -> String {
    return "\(start)->\(end)"
}

func greet(_ name: String, with greeting: String) -> String {
    "\(greeting), \(name)"
}

func area(width: Double, height: Double) -> Double {
    width * height
}

func join(_ a: String, _ b: String) -> String { a + b }

func main() {
    print(move(from: 1, to: 5))
    print(greet("Ann", with: "Hello"))
    print(area(width: 2, height: 3.5))
    print(join("ab", "cd"))
    let labels = ["x", "y"].map { greet($0, with: "Yo") }
    print(labels)
}
