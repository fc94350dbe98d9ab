var handlers: [(String) -> String] = []

func register(_ handler: @escaping (String) -> String) {
    handlers.append(handler)
}

struct EventBus {
    var listeners: [String: [(Int) -> Void]] = [:]

    mutating func on(_ name: String, _ f: @escaping (Int) -> Void) {
        listeners[name, default: []].append(f)
    }

    func emit(_ name: String, _ value: Int) {
        for l in listeners[name] ?? [] { l(value) }
    }
}

func main() {
    register { $0.uppercased() }
    register { $0 + "!" }
    let suffix = "?"
    register { s in s + suffix }
    print(handlers.map { $0("hi") })
    print(handlers.reduce("x") { acc, h in h(acc) })
    var bus = EventBus()
    var received: [Int] = []
    bus.on("tap") { received.append($0) }
    bus.on("tap") { received.append($0 * 10) }
    bus.on("drag") { received.append(-$0) }
    bus.emit("tap", 1)
    bus.emit("drag", 2)
    bus.emit("none", 3)
    print(received)
}
