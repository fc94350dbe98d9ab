func clamp(_ v: Int, _ lo: Int, _ hi: Int) -> Int {
    return min(max(v, lo), hi)
}

func clampDouble(_ v: Double, to range: ClosedRange<Double>) -> Double {
    return min(max(v, range.lowerBound), range.upperBound)
}

func main() {
    print(clamp(5, 0, 10))
    print(clamp(-5, 0, 10))
    print(clamp(50, 0, 10))
    print(clampDouble(1.5, to: 0...1))
    print(clampDouble(-0.25, to: 0...1))
    print(clampDouble(0.5, to: 0...1))
    print(min("pear", "apple"), max("pear", "apple"))
    print(max(1, 2, 3, 2))
    print(min(2.5, 1))
    let heights = [12.0, 40.5, 33.0]
    print(heights.max()!, heights.min()!)
    print(heights.reduce(0, max))
    print(heights.reduce(Double.infinity, min))
}
