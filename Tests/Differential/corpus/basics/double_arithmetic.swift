func main() {
    let price = 19.99
    let qty = 3.0
    print(price * qty)
    print(price / qty)
    print(price - 0.99)
    print(10.0.truncatingRemainder(dividingBy: 3.0))
    print((-10.0).truncatingRemainder(dividingBy: 3.0))
    print(10.0.remainder(dividingBy: 3.0))
    print(2.0 * 2.0 * 2.0)
    print(abs(-2.5))
    print(min(1.5, -1.5), max(1.5, 2))
    let width = 320.0
    let columns = 3.0
    let spacing = 8.0
    let cell = (width - spacing * (columns - 1)) / columns
    print(cell)
    print(Double(5) / 2 * 2)
    print(7.0 / 2.0)
    print(1.0 - 0.9)
    print(0.1 + 0.7)
}
