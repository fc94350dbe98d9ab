protocol Named {
    var name: String { get }
    func greet() -> String
}

extension Named {
    var name: String { "anonymous" }
    func greet() -> String { "hi " + name }
    func shout() -> String { name.uppercased() }
}

class Plain {
    func greet() -> String { "plain greet" }
}

class FromPlain: Plain, Named {}

class Sub: FromPlain {
    override func greet() -> String { "sub greet" }
    var name: String { "sub" }
}

class Root: Named {}

class Leaf: Root {
    var name: String { "leaf" }
    func greet() -> String { "leaf greet" }
}

class Own: Named {
    var name: String { "own" }
}

class OwnChild: Own {
    override var name: String { "own child" }
}

func describe(_ n: Named) -> String { n.greet() + " / " + n.name + " / " + n.shout() }
func generic<T: Named>(_ t: T) -> String { t.greet() + " | " + t.name }

func main() {
    let all: [Named] = [FromPlain(), Sub(), Root(), Leaf(), Own(), OwnChild()]
    for n in all { print(describe(n)) }
    print(generic(Sub()), generic(Leaf()), generic(OwnChild()))
    let leaf = Leaf()
    print(leaf.name, leaf.greet())
    let asRoot: Root = leaf
    print(asRoot.name, asRoot.greet())
    let names = all.map(\.name)
    print(names)
    let sub = Sub()
    print(sub.name, sub.greet(), (sub as FromPlain).greet(), (sub as FromPlain).name)
}
