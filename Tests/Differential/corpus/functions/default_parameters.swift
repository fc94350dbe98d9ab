func makeLabel(_ text: String, prefix: String = "-", uppercase: Bool = false, repeatCount: Int = 1) -> String {
    let body = uppercase ? text.uppercased() : text
    return String(repeating: prefix, count: repeatCount) + body
}

func padding(top: Int = 0, leading: Int = 8, bottom: Int = 0, trailing: Int = 8) -> [Int] {
    [top, leading, bottom, trailing]
}

func main() {
    print(makeLabel("a"))
    print(makeLabel("b", prefix: "*"))
    print(makeLabel("c", uppercase: true))
    print(makeLabel("d", prefix: ">", repeatCount: 3))
    print(makeLabel("e", prefix: "#", uppercase: true, repeatCount: 2))
    print(padding())
    print(padding(top: 4))
    print(padding(bottom: 2))
    print(padding(leading: 1, trailing: 1))
    print(padding(top: 1, leading: 2, bottom: 3, trailing: 4))
}
