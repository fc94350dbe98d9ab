struct Settings {
    var values: [String: String] = ["theme": "dark"]

    func require(_ key: String) -> String {
        return values[key]!
    }
}

func main() {
    let s = Settings()
    print(s.require("theme"))
    print("looking up font")
    let font = s.require("font")
    print("font is", font)
}
