func main() {
    var prefs: [String: String] = ["theme": "dark"]
    print(prefs["theme"] as Any)
    print(prefs["font"] as Any)
    if let theme = prefs["theme"] {
        print("theme is", theme)
    }
    prefs["font"] = "mono"
    print(prefs["font"]?.uppercased() ?? "")
    prefs["theme"] = nil
    print(prefs.count, prefs["theme"] == nil)
    let old = prefs.updateValue("serif", forKey: "font")
    print(old as Any)
    let removed = prefs.removeValue(forKey: "font")
    print(removed as Any, prefs.isEmpty)
    let missing = prefs.removeValue(forKey: "nothing")
    print(missing as Any)
}
