protocol Greeter {
    var name: String { get }
    func greet() -> String
    func farewell() -> String
}

extension Greeter {
    func greet() -> String { "Hello from \(name)" }
    func farewell() -> String { "Bye from \(name)" }
    func both() -> String { greet() + " / " + farewell() }
}

struct English: Greeter {
    let name = "English"
}

struct French: Greeter {
    let name = "French"
    func greet() -> String { "Bonjour de \(name)" }
}

func main() {
    let e = English()
    let f = French()
    print(e.greet())
    print(f.greet())
    print(f.farewell())
    print(e.both())
    print(f.both())
    let all: [Greeter] = [e, f]
    print(all.map { $0.greet() })
    print(all.map { $0.both() })
}
