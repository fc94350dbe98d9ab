func main() {
    let prices = [19.99, 5.01, 0.1]
    var total = 0.0
    for p in prices {
        total += p
        print(total)
    }
    print(total * 3)
    print(100.0 / 3.0 * 3.0)
    print(0.1 * 0.1)
    print(1.0 / 10.0 == 0.1)
    print(3.0 * 0.1 == 0.3)
    print(Double(7) / 100)
    print(2.0 * 1e22)
    print(1e21 + 1)
    print(5e-5 * 2)
    let avg = Double(10 + 20 + 25) / 3
    print(avg)
    print(-avg)
    print(Double(Int(avg * 100)) / 100)
}
