func ratio(_ a: Int, _ b: Int) -> Int {
    let r = Double(a) / Double(b)
    print("ratio as double", r)
    return Int(r)
}

func main() {
    print(ratio(7, 2))
    print(ratio(-9, 4))
    print(ratio(1, 0))
}
