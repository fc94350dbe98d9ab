func main() {
    let names = ["Ann", "Bob"]
    print(names)
    print("names: \(names)")
    let empty: [String] = []
    print(empty, "\(empty)")
    let doubles = [1.0, 2.5, 1e20]
    print("doubles \(doubles)")
    let optionals: [Int?] = [1, nil, 3]
    print(optionals)
    let nested = [[1], [2, 3], []]
    print(nested)
    let chars: [Character] = ["a", "b"]
    print(chars)
    let withQuotes = ["say \"hi\"", "tab\there"]
    print(withQuotes)
    let dict = ["only": 1]
    print(dict)
    let r = 1...3
    print("range \(r) and \(0..<2)")
    print(["x": [1, 2]])
}
