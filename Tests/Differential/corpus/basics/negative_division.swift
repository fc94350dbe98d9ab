func describe(_ a: Int, _ b: Int) -> String {
    return "\(a) / \(b) = \(a / b), \(a) % \(b) = \(a % b)"
}

func main() {
    print(describe(7, 2))
    print(describe(-7, 2))
    print(describe(7, -2))
    print(describe(-7, -2))
    print(describe(-1, 3))
    print(describe(0, -5))
    print(describe(-9, 3))
    let items = -13
    let perRow = 4
    print("rows", items / perRow, "left", items % perRow)
    let wrapped = ((items % perRow) + perRow) % perRow
    print("wrapped index", wrapped)
}
