struct Screen {
    var log: [String] = []

    mutating func load() {
        log.append("load")
    }

    func handle(_ event: String) -> String {
        "handled \(event)"
    }
}

func onAppear(perform action: () -> Void) {
    action()
}

func forEachEvent(_ events: [String], _ handler: (String) -> String) -> [String] {
    events.map(handler)
}

func report() { print("report called") }

func main() {
    onAppear(perform: report)
    let s = Screen()
    print(forEachEvent(["tap", "swipe"], s.handle))
    var screen = Screen()
    onAppear { screen.load() }
    onAppear { screen.load() }
    print(screen.log)
    let upper: (String) -> String = { $0.uppercased() }
    print(forEachEvent(["a"], upper))
    print(["3", "4"].map(Int.init).compactMap { $0 })
}
