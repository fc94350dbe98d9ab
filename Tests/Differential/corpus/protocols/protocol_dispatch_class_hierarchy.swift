protocol Speaker {
    func speak() -> String
}

extension Speaker {
    func speak() -> String { "..." }
    func intro() -> String { "says " + speak() }
}

class Base: Speaker {
    func speak() -> String { "base" }
}

class Derived: Base {
    override func speak() -> String { "derived" }
}

class Quiet: Speaker {}

class LoudQuiet: Quiet {
    func speak() -> String { "LOUD" }
}

func viaGeneric<T: Speaker>(_ t: T) -> String { t.speak() }

func main() {
    let d: Base = Derived()
    print(d.speak(), d.intro(), viaGeneric(d))
    let s: Speaker = Derived()
    print(s.speak(), s.intro())
    let lq = LoudQuiet()
    print(lq.speak())
    print(lq.intro())
    print(viaGeneric(lq))
    let q: Speaker = lq
    print(q.speak())
}
