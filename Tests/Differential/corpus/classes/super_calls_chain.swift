class A {
    func log() -> [String] { ["A"] }
    func name() -> String { "a" }
    func greet() -> String { "hello " + name() }
}

class B: A {
    override func log() -> [String] { super.log() + ["B"] }
    override func name() -> String { "b" }
}

class C: B {
    override func log() -> [String] { ["C-start"] + super.log() + ["C-end"] }
    override func greet() -> String { super.greet() + "!" }
}

func main() {
    print(A().log())
    print(B().log())
    print(C().log())
    print(A().greet())
    print(B().greet())
    print(C().greet())
    let x: A = C()
    print(x.name(), x.greet())
}
