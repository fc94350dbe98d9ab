protocol Formatter {
    func format(_ v: Int) -> String
}

extension Formatter {
    func format(_ v: Int) -> String { "#\(v)" }
    func prefix() -> String { ">" }
    func render(_ values: [Int]) -> String {
        values.map { prefix() + format($0) }.joined(separator: " ")
    }
}

struct Hex: Formatter {
    func format(_ v: Int) -> String { "0x" + String(v, radix: 16) }
    func prefix() -> String { "$" }
}

struct Plain: Formatter {}

func main() {
    let h = Hex()
    print(h.prefix(), h.format(255))
    print(h.render([10, 255]))
    print(Plain().render([1, 2]))
    let f: Formatter = h
    print(f.prefix(), f.format(16))
}
