func main() {
    let a = 42
    let b: Int8 = 42
    let c: UInt = 42
    let d: Double = 42
    let e = 42.0
    print(a, b, c, d, e)
    print(type(of: a), type(of: b), type(of: c), type(of: d), type(of: e))
    let f = Float(42)
    print(f, type(of: f))
    let g = 1 + 2.5
    print(g, type(of: g))
    let h: Int = 0x10
    print(h)
    let i = -0
    print(i)
    let j = 5 / 2 * 2.0
    print(j)
    print(type(of: 1...3), type(of: 0..<1))
}
