func capitalizedFirst(_ s: String) -> String {
    guard let first = s.first else { return s }
    return first.uppercased() + s.dropFirst()
}

func main() {
    print("Hello World".uppercased())
    print("Hello World".lowercased())
    print(capitalizedFirst("swift"))
    print(capitalizedFirst(""))
    print(capitalizedFirst("a"))
    print("straße".uppercased())
    print("ÉCOLE".lowercased())
    let input = "  MiXeD  "
    print("[\(input.lowercased())]")
    print("abc".uppercased() == "ABC")
    let words = ["one", "Two", "THREE"]
    print(words.map { $0.lowercased() })
    print(words.map { capitalizedFirst($0.lowercased()) })
    print(Character("q").uppercased())
}
