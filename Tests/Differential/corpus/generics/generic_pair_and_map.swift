struct Pair<A, B> {
    let first: A
    let second: B

    func swapped() -> Pair<B, A> {
        Pair<B, A>(first: second, second: first)
    }

    func mapFirst<C>(_ f: (A) -> C) -> Pair<C, B> {
        Pair<C, B>(first: f(first), second: second)
    }
}

extension Pair where A == B {
    var asArray: [A] { [first, second] }
}

func main() {
    let p = Pair(first: 1, second: "one")
    print(p.first, p.second)
    let s = p.swapped()
    print(s.first, s.second)
    let m = p.mapFirst { Double($0) * 1.5 }
    print(m.first, m.second)
    let same = Pair(first: 3, second: 4)
    print(same.asArray)
    print(type(of: s), type(of: m))
}
