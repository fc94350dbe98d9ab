struct Settings {
    var fontSize: Int?
    var theme: String?
    var fallbackTheme: String?
}

func main() {
    let s = Settings(fontSize: nil, theme: nil, fallbackTheme: "dark")
    print(s.fontSize ?? 14)
    print(s.theme ?? s.fallbackTheme ?? "light")
    let t = Settings(fontSize: 18, theme: "solar", fallbackTheme: nil)
    print(t.fontSize ?? 14)
    print(t.theme ?? t.fallbackTheme ?? "light")
    let u = Settings()
    print(u.theme ?? u.fallbackTheme ?? "light")
    let maybe: Int? = nil
    let total = (maybe ?? 1) * 10
    print(total)
    let chained: Int?? = .some(nil)
    print((chained ?? 5) as Any)
    print(chained ?? 5 ?? 6)
    let dict = ["a": 1]
    print(dict["b"] ?? 0, dict["a"] ?? 0)
}
