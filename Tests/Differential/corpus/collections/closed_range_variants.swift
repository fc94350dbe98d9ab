struct Stepper {
    var value: Int
    let bounds: ClosedRange<Int>

    mutating func increment() {
        if value < bounds.upperBound { value += 1 }
    }
}

func main() {
    var s = Stepper(value: 9, bounds: 1...10)
    s.increment()
    print(s.value)
    s.increment()
    print(s.value)
    let r = 1...10
    print(r.count, r.upperBound, r.lowerBound, r.contains(10))
    let h = 1..<10
    print(h.count, h.upperBound, h.contains(10))
    print(Array(r.suffix(2)), Array(h.suffix(2)))
    let chars: ClosedRange<Character> = "a"..."e"
    print(chars.contains("c"), chars.contains("z"))
    let doubles = 0.0...1.0
    print(doubles.lowerBound, doubles.upperBound, doubles.contains(1.0))
    print(r.map { $0 }.last!, h.map { $0 }.last!)
    print((0...0).count, (0..<0).count)
    print(r == 1...10, Range(r) == 1..<11)
}
