func bar(_ value: Int, max: Int) -> String {
    let filled = String(repeating: "#", count: value)
    let empty = String(repeating: ".", count: max - value)
    return "[" + filled + empty + "]"
}

func main() {
    print(String(repeating: "ab", count: 3))
    print(String(repeating: "x", count: 0).isEmpty)
    print(String(repeating: Character("-"), count: 5))
    for v in [0, 2, 5] {
        print(bar(v, max: 5))
    }
    let indent = String(repeating: " ", count: 4)
    print(indent + "indented")
    print(String(repeating: "é", count: 2).count)
    print(Array(repeating: "ok", count: 2))
    print(Array(repeating: 0, count: 3))
}
