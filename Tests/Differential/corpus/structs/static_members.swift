struct Theme {
    static let defaultSpacing = 8
    static var created = 0
    static let light = Theme(name: "light", spacing: defaultSpacing)
    static let dark = Theme(name: "dark", spacing: defaultSpacing * 2)

    let name: String
    let spacing: Int

    static func make(_ name: String) -> Theme {
        created += 1
        return Theme(name: name, spacing: created)
    }
}

func main() {
    print(Theme.defaultSpacing)
    print(Theme.light.name, Theme.light.spacing)
    print(Theme.dark.name, Theme.dark.spacing)
    let a = Theme.make("a")
    let b = Theme.make("b")
    print(a.spacing, b.spacing, Theme.created)
    let themes: [Theme] = [.light, .dark, .make("c")]
    print(themes.map(\.name), Theme.created)
}
