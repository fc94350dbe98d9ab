struct Dashboard {
    var widgets: [Widget] = []
}

extension Dashboard {
    struct Widget {
        let title: String
        let size: Size
    }

    enum Size: Int {
        case small = 1, large = 2
    }

    mutating func add(_ title: String, size: Size = .small) {
        widgets.append(Widget(title: title, size: size))
    }

    var totalSlots: Int { widgets.reduce(0) { $0 + $1.size.rawValue } }
}

func main() {
    var d = Dashboard()
    d.add("Weather")
    d.add("Calendar", size: .large)
    print(d.totalSlots)
    print(d.widgets.map(\.title))
    let w = Dashboard.Widget(title: "Solo", size: .large)
    print(w.title, w.size, w.size.rawValue)
    print(Dashboard.Size(rawValue: 2) == .large)
}
