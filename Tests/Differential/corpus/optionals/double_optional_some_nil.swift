func main() {
    let a: Int?? = .some(nil)
    let b: Int?? = nil
    let c: Int?? = 5
    print(a as Any)
    print(b as Any)
    print(c as Any)
    print(a == nil)
    print(b == nil)
    print(a == b)
    print(a == .some(nil))
    print(c == 5)
    if let inner = a {
        print("a has outer value", inner as Any)
    }
    if let inner = b {
        print("b has outer value", inner as Any)
    } else {
        print("b is nil")
    }
    if let x = c, let y = x {
        print("c unwrapped twice", y)
    }
    print((a ?? 7) as Any)
    print((b ?? 7) as Any)
}
