protocol Greeter { func greet() -> String }
extension Greeter {
    func greet() -> String { "hello" }
    func name() -> String { "extension" }
    func both() -> String { greet() + "/" + name() }
}
struct A: Greeter {
    func greet() -> String { "A" }
    func name() -> String { "A-name" }
}
struct B: Greeter {}
protocol Unit { static var symbol: String { get } }
extension Unit {
    static func scale() -> Int { 1 }
    static func label(_ n: Int) -> String { "\(n * scale())\(symbol)" }
}
struct Kilo: Unit { static var symbol: String { "km" }; static func scale() -> Int { 1000 } }
func main() {
    let a = A()
    let g: Greeter = a
    print(a.name(), g.name(), a.both(), g.both(), B().both())
    let all: [Greeter] = [A(), B()]
    for x in all { print(x.greet(), x.name()) }
    print(Kilo.label(3), Kilo.scale())
}
