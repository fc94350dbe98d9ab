protocol Toggleable {
    var isOn: Bool { get }
    mutating func toggle()
}

struct Switch: Toggleable {
    var isOn = false
    var flips = 0
    mutating func toggle() {
        isOn.toggle()
        flips += 1
    }
}

func toggleTwice<T: Toggleable>(_ t: inout T) {
    t.toggle()
    t.toggle()
}

func main() {
    var s = Switch()
    s.toggle()
    print(s.isOn, s.flips)
    toggleTwice(&s)
    print(s.isOn, s.flips)
    var any: any Toggleable = Switch()
    any.toggle()
    print(any.isOn)
    var list: [Switch] = [Switch(), Switch()]
    list[1].toggle()
    print(list.map(\.isOn))
}
