protocol Animal {
    var sound: String { get }
}

extension Animal {
    func speak() -> String { "generic \(sound)" }
}

struct Cow: Animal {
    let sound = "moo"
    func speak() -> String { "Cow says \(sound)" }
}

struct Sheep: Animal {
    let sound = "baa"
}

func talk<A: Animal>(_ a: A) -> String {
    a.speak()
}

func talkAny(_ a: any Animal) -> String {
    a.speak()
}

func main() {
    let c = Cow()
    let s = Sheep()
    print(c.speak(), "|", s.speak())
    print(talk(c), "|", talk(s))
    print(talkAny(c), "|", talkAny(s))
    let zoo: [Animal] = [c, s]
    print(zoo.map { $0.speak() })
    print(zoo.map(\.sound))
}
