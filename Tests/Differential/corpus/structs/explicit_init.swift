struct Temperature {
    var celsius: Double

    init(celsius: Double) {
        self.celsius = celsius
    }

    init(fahrenheit: Double) {
        celsius = (fahrenheit - 32) * 5 / 9
    }

    init() {
        self.init(celsius: 20)
    }

    var fahrenheit: Double { celsius * 9 / 5 + 32 }
}

func main() {
    let a = Temperature(celsius: 100)
    let b = Temperature(fahrenheit: 212)
    let c = Temperature()
    print(a.celsius, a.fahrenheit)
    print(b.celsius, b.fahrenheit)
    print(c.celsius, c.fahrenheit)
    let list = [0.0, 37.5, -40].map(Temperature.init(celsius:))
    print(list.map(\.fahrenheit))
}
