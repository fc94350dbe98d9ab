func main() {
    for x in stride(from: 0, to: 20, by: 5) {
        print("to", x)
    }
    for x in stride(from: 3, through: -3, by: -3) {
        print("down", x)
    }
    var ticks: [String] = []
    for t in stride(from: 0.0, to: 1.0, by: 0.3) {
        ticks.append("\(t)")
    }
    print(ticks)
    let items = Array("abcdefg")
    for i in stride(from: 0, to: items.count, by: 3) {
        let end = min(i + 3, items.count)
        print(String(items[i..<end]))
    }
    print(stride(from: 1, to: 100, by: 10).map { $0 }.count)
}
