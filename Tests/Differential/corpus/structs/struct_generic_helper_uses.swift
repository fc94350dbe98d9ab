struct Stats {
    var values: [Double] = []

    var mean: Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    var range: ClosedRange<Double>? {
        guard let lo = values.min(), let hi = values.max() else { return nil }
        return lo...hi
    }

    mutating func record(_ v: Double) {
        values.append(v)
    }
}

func main() {
    var s = Stats()
    print(s.mean as Any, s.range as Any)
    s.record(2)
    s.record(4.5)
    s.record(-1)
    print(s.mean!, s.range!)
    print(s.range!.contains(0), s.range!.upperBound)
}
