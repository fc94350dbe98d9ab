func describe(_ value: Int) -> String { "int \(value)" }
func describe(_ value: Double) -> String { "double \(value)" }
func describe(_ value: String) -> String { "string \(value)" }
func describe(count: Int) -> String { "count \(count)" }
func describe(index: Int) -> String { "index \(index)" }
func describe(_ a: Int, _ b: Int) -> String { "two ints \(a) \(b)" }

struct Formatter {
    func format(_ v: Int) -> String { "#\(v)" }
    func format(_ v: Int, width: Int) -> String {
        let s = String(v)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }
    func format(hex v: Int) -> String { "0x" + String(v, radix: 16) }
}

func main() {
    print(describe(3))
    print(describe(3.0))
    print(describe("3"))
    print(describe(count: 3))
    print(describe(index: 3))
    print(describe(1, 2))
    let f = Formatter()
    print(f.format(7))
    print("[\(f.format(7, width: 4))]")
    print(f.format(hex: 255))
}
