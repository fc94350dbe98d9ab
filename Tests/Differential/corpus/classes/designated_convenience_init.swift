class Color {
    let red: Double
    let green: Double
    let blue: Double

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    convenience init(white: Double) {
        self.init(red: white, green: white, blue: white)
    }

    convenience init() {
        self.init(white: 0)
    }

    var description: String { "rgb(\(red), \(green), \(blue))" }
}

class NamedColor: Color {
    let name: String

    init(name: String, red: Double, green: Double, blue: Double) {
        self.name = name
        super.init(red: red, green: green, blue: blue)
    }

    convenience init(name: String) {
        self.init(name: name, red: 1, green: 0, blue: 0)
    }
}

func main() {
    print(Color(red: 0.1, green: 0.2, blue: 0.3).description)
    print(Color(white: 0.5).description)
    print(Color().description)
    let n = NamedColor(name: "tomato")
    print(n.name, n.description)
    let m = NamedColor(name: "teal", red: 0, green: 0.5, blue: 0.5)
    print(m.name, m.description)
}
