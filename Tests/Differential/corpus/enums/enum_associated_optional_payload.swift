enum Field {
    case text(String?)
    case number(Int, unit: String?)
}

func render(_ f: Field) -> String {
    switch f {
    case .text(let s?):
        return "text \(s)"
    case .text(nil):
        return "empty text"
    case .number(let n, let unit?):
        return "\(n) \(unit)"
    case .number(let n, nil):
        return "\(n)"
    }
}

func main() {
    let fields: [Field] = [.text("hi"), .text(nil), .number(5, unit: "kg"), .number(3, unit: nil)]
    for f in fields {
        print(render(f))
    }
    print(fields[1])
    print(fields[2])
}
