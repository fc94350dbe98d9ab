func initials(_ name: String) -> String {
    let parts = name.split(separator: " ")
    return parts.compactMap { $0.first }.map { String($0) }.joined()
}

func main() {
    let s = "Canopy"
    print(s.first!, s.last!)
    print(String(describing: s.first))
    print(String(describing: "".first))
    print(initials("Grace Brewster Hopper"))
    print(initials(""))
    print(s.prefix(1), s.suffix(1))
    print(s.first == "C", s.last == "Y")
    print(s.first?.isUppercase ?? false)
    print(s.last(where: { "aeiou".contains($0) })!)
    print(s.first(where: { $0 == "n" }) as Any)
}
