func parseAge(_ text: String?) -> String {
    guard let text = text else {
        return "missing"
    }
    guard let age = Int(text) else {
        return "not a number: \(text)"
    }
    guard age >= 0, age < 150 else {
        return "out of range: \(age)"
    }
    return "age \(age)"
}

func firstEven(_ values: [Int]) -> Int? {
    for v in values {
        guard v % 2 == 0 else { continue }
        return v
    }
    return nil
}

func main() {
    print(parseAge(nil))
    print(parseAge("abc"))
    print(parseAge("200"))
    print(parseAge("42"))
    print(firstEven([1, 3, 6, 8]) as Any)
    print(firstEven([1, 3]) as Any)
}
