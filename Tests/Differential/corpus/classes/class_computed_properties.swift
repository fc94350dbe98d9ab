class Temperature {
    var celsius: Double = 0

    var fahrenheit: Double {
        get { celsius * 9 / 5 + 32 }
        set { celsius = (newValue - 32) * 5 / 9 }
    }

    var isFreezing: Bool { celsius <= 0 }
}

func main() {
    let t = Temperature()
    print(t.celsius, t.fahrenheit, t.isFreezing)
    t.fahrenheit = 212
    print(t.celsius, t.fahrenheit, t.isFreezing)
    t.celsius = -40
    print(t.fahrenheit)
    t.fahrenheit += 9
    print(t.celsius)
    let same = t
    same.celsius = 25
    print(t.fahrenheit)
}
