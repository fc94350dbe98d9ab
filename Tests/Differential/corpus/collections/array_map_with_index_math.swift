struct Bar {
    let label: String
    let value: Double
}

func main() {
    let bars = [Bar(label: "Mon", value: 3), Bar(label: "Tue", value: 7.5), Bar(label: "Wed", value: 1.5)]
    let maxValue = bars.map(\.value).max() ?? 1
    let heights = bars.map { $0.value / maxValue * 100 }
    print(heights)
    let total = bars.reduce(0.0) { $0 + $1.value }
    print(total)
    let share = bars.map { Int($0.value / total * 100) }
    print(share)
    let widths = bars.indices.map { Double($0) * 40.0 + 10 }
    print(widths)
    let avg = total / Double(bars.count)
    print(avg)
    print(bars.filter { $0.value > avg }.map(\.label))
}
