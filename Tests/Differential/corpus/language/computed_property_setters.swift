struct Temperature {
    var celsius: Double = 0
    var fahrenheit: Double {
        get { celsius * 9 / 5 + 32 }
        set { celsius = (newValue - 32) * 5 / 9 }
    }
    mutating func warm() { fahrenheit += 18 }
}
class Box {
    var items: [Int] = []
    var count: Int {
        get { items.count }
        set(n) { items = Array(repeating: 0, count: n) }
    }
}
func main() {
    var t = Temperature()
    t.fahrenheit = 212
    print(t.celsius, t.fahrenheit)
    t.warm()
    print(t.celsius)
    let b = Box()
    b.count = 3
    b.count += 1
    print(b.items, b.count)
    var temps = [Temperature(), Temperature(celsius: 10)]
    temps[1].fahrenheit = 32
    print(temps.map { $0.celsius })
}
