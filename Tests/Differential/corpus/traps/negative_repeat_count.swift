func indent(_ level: Int) -> String {
    return String(repeating: "  ", count: level) + "*"
}

func main() {
    print(indent(0))
    print(indent(2))
    let delta = 1 - 3
    print("delta", delta)
    print(Array(repeating: 0, count: delta))
}
