protocol Theme {
    var primary: String { get }
    var accent: String { get }
    func palette() -> String
}

extension Theme {
    var accent: String { primary + "-light" }
    func palette() -> String { "\(primary)/\(accent)" }
}

struct Ocean: Theme {
    let primary = "blue"
}

struct Forest: Theme {
    let primary = "green"
    let accent = "brown"
}

struct Night: Theme {
    var primary: String { "black" }
    func palette() -> String { "night: " + primary }
}

func show(_ t: any Theme) -> String { t.palette() }

func main() {
    let themes: [any Theme] = [Ocean(), Forest(), Night()]
    for t in themes {
        print(t.primary, t.accent, show(t))
    }
    print(Night().accent)
}
