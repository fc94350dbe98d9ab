func sum(_ numbers: Int...) -> Int {
    var total = 0
    for n in numbers { total += n }
    return total
}

func average(_ values: Double...) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
}

func log(_ level: String, _ parts: String..., separator: String = " ") -> String {
    "[\(level)] " + parts.joined(separator: separator)
}

func main() {
    print(sum())
    print(sum(5))
    print(sum(1, 2, 3, 4))
    print(average(1, 2, 4))
    print(average())
    print(log("info", "a", "b", "c"))
    print(log("warn", "x", "y", separator: ","))
    print(log("debug"))
    print(max(3, 9, 4, 1))
}
