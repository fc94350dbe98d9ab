func trimmed(_ s: String) -> String {
    let start = s.drop(while: { $0 == " " })
    let end = start.reversed().drop(while: { $0 == " " })
    return String(end.reversed())
}

func main() {
    print("[\(trimmed("   padded  "))]")
    print("[\(trimmed("none"))]")
    print("[\(trimmed("     "))]")
    print("[\(trimmed(""))]")
    print("[\(trimmed(" a b "))]")
    let raw = "  x, y ,z  "
    let fields = raw.split(separator: ",").map { trimmed(String($0)) }
    print(fields)
    print(fields.map { $0.count })
}
