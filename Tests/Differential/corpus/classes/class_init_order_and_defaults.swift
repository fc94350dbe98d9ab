class Widget {
    var log: [String] = []
    let kind: String
    var size: Int = 10

    init(kind: String) {
        self.kind = kind
        log.append("Widget.init \(kind)")
        setup()
    }

    func setup() {
        log.append("Widget.setup size=\(size)")
    }
}

class Button: Widget {
    var label: String = "OK"

    init(label: String) {
        self.label = label
        super.init(kind: "button")
        size = 20
        log.append("Button.init \(label)")
    }

    override func setup() {
        log.append("Button.setup label=\(label)")
        super.setup()
    }
}

func main() {
    let b = Button(label: "Go")
    for line in b.log { print(line) }
    print(b.size, b.kind, b.label)
    let w = Widget(kind: "plain")
    print(w.log)
}
