class Widget {
    var log: [String] = []
    let kind: String
    init(kind: String) {
        self.kind = kind
        log.append("init \(kind)")
    }
}
class Button: Widget {
    var title = "t"
    override init(kind: String) {
        super.init(kind: kind)
        log.append("button")
    }
}
func main() {
    let w = Widget(kind: "a")
    print(w.log, w.kind)
    let b = Button(kind: "b")
    print(b.log, b.title)
    let a: Widget = b
    print(a === b, a.kind)
}
