func f(_ a: Int, b: Int = 2, then: (Int) -> Int) -> Int {
    return then(a + b)
}

func readRect(in space: String, edges: [String] = [], onChange: (String) -> Void) {
    onChange("\(space):\(edges.count)")
}

func animate(duration: Double = 0.3, delay: Double = 0, _ body: () -> String) -> String {
    "\(duration)/\(delay): \(body())"
}

func main() {
    print(f(1) { $0 * 2 })
    print(f(1, b: 10) { $0 * 2 })
    print(f(5, then: { $0 - 1 }))
    readRect(in: "global") { print("changed", $0) }
    readRect(in: "local", edges: ["top"]) { value in
        print("changed", value)
    }
    print(animate { "fade" })
    print(animate(delay: 1) { "slide" })
    print(animate(duration: 2, delay: 0.5) { "spin" })
}
