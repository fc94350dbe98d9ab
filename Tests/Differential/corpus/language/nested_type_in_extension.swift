struct Dashboard {
    var widgets: [Widget] = []
}
extension Dashboard {
    struct Widget { var title: String; var kind: Kind }
    enum Kind { case chart, list }
    mutating func add(_ title: String) { widgets.append(Widget(title: title, kind: .chart)) }
    func titles() -> [String] { widgets.map { $0.title } }
}
func main() {
    var d = Dashboard()
    d.add("sales")
    d.widgets.append(Dashboard.Widget(title: "users", kind: .list))
    print(d.titles(), d.widgets.count)
}
