func label(for count: Int) -> String {
    return count == 1 ? "item" : "items"
}

func main() {
    for n in 0...2 {
        print("\(n) \(label(for: n))")
    }
    let isEnabled = false
    let opacity = isEnabled ? 1.0 : 0.4
    print(opacity)
    let x = 15
    let size = x < 10 ? "small" : x < 20 ? "medium" : "large"
    print(size)
    let value = (x > 10 ? x : 0) + 1
    print(value)
    let name: String? = nil
    print(name != nil ? name! : "anonymous")
    let spacing = true ? 8 : 16
    print(spacing * 2)
}
