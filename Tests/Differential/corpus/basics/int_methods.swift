func main() {
    let n = -17
    print(n.magnitude)
    print(abs(n))
    print(n.signum(), 0.signum(), 8.signum())
    print(12.isMultiple(of: 4), 12.isMultiple(of: 5))
    print(17.quotientAndRemainder(dividingBy: 5))
    let qr = (-17).quotientAndRemainder(dividingBy: 5)
    print(qr.quotient, qr.remainder)
    print(String(255, radix: 16), String(5, radix: 2))
    print(Int("ff", radix: 16)!)
    print(10.description)
    print(Int.zero, Double.zero)
    var x = 5
    x.negate()
    print(x)
    print((3).distance(to: 10), 10.advanced(by: -4))
}
