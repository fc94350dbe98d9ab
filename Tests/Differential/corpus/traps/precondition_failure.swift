struct Percentage {
    let value: Int

    init(_ value: Int) {
        precondition(value >= 0 && value <= 100, "percentage out of range")
        self.value = value
    }
}

func main() {
    let a = Percentage(40)
    print(a.value)
    let b = Percentage(100)
    print(b.value)
    print("creating 150")
    let c = Percentage(150)
    print(c.value)
}
