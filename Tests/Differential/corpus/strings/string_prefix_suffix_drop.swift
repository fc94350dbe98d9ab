func truncate(_ s: String, to length: Int) -> String {
    if s.count <= length { return s }
    return String(s.prefix(length)) + "…"
}

func main() {
    let title = "SwiftUI Preferences"
    print(title.prefix(5))
    print(title.suffix(11))
    print(title.dropFirst(8))
    print(title.dropLast(12))
    print(title.dropFirst())
    print(title.dropLast())
    print(title.prefix(100))
    print(title.prefix(0).isEmpty)
    print(truncate(title, to: 7))
    print(truncate("ok", to: 7))
    print(title.prefix(while: { $0 != " " }))
    print(title.drop(while: { $0 != " " }))
    let sub = title.dropFirst(8)
    print(type(of: sub), String(sub).count)
}
