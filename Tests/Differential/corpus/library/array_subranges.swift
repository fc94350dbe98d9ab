func main() {
    var list = [1, 2, 3, 4, 5, 6, 7, 8]
    list.removeSubrange(1..<3)
    print(list)
    list.removeSubrange(0...1)
    print(list)
    list.removeSubrange(2...)
    print(list)
    list.removeSubrange(..<1)
    print(list)
    list.removeSubrange(1..<1)
    print(list, list.count)
    var names = ["a", "b", "c", "d"]
    names.replaceSubrange(1..<3, with: ["x", "y", "z"])
    print(names)
    names.replaceSubrange(0...0, with: [])
    print(names)
    names.replaceSubrange(names.count..<names.count, with: ["end"])
    print(names)
    names.replaceSubrange(..<2, with: ["start"])
    print(names)
    var numbers = [10, 20, 30]
    numbers.replaceSubrange(1...1, with: 7...9)
    print(numbers)
    let readings = [1, 3, 5, 8, 2, 9, 11]
    print(readings.prefix(upTo: 2), readings.prefix(through: 2))
    print(readings.suffix(from: 5), readings.suffix(from: 7), readings.prefix(upTo: 0))
    print(readings.prefix(through: readings.count - 1).count)
    print(Array(readings.suffix(from: 3)).reduce(0, +))
    if let i = readings.firstIndex(of: 8) {
        print(readings.prefix(upTo: i), readings.suffix(from: i))
    }
}
