enum Tab: String, CaseIterable, Identifiable {
    case home, settings
    var id: String { rawValue }
    var title: String { rawValue.uppercased() }
}
struct Card {
    var title: String
}
extension Card {
    struct Style { var radius: Int }
    var style: Style { Style(radius: title.count) }
}
func sum(_ xs: Int...) -> Int { xs.reduce(0, +) }
func main() {
    print(Tab.settings.id, Tab.allCases.map(\.id))
    print(Card(title: "abc").style.radius)
    print(Swift.max(3, 4), Swift.min(1, 2))
    print(sum(), sum(1), sum(1, 2, 3))
    let xs = [5, 3, 8, 1]
    print(xs[..<2], xs[2...], xs[1...2])
    print(xs.firstIndex(of: 8) as Any, xs.prefix(while: { $0 > 2 }))
    for case let x in xs where x > 4 { print("big", x) }
    let opts: [Int?] = [1, nil, 3]
    for case let .some(v) in opts { print("some", v) }
    for case nil in opts { print("nil!") }
    if 1...5 ~= 3 { print("in range") }
    var a = 1, b = 2
    (a, b) = (b, a)
    print(a, b)
    let s: Set = [3, 1, 2]
    print(s.sorted(), s.contains(2))
    for (i, c) in zip(1..., ["x", "y"]) { print(i, c) }
    print("héllo".unicodeScalars.count, Array("abc").map(String.init))
    print(["1", "x", "3"].compactMap(Int.init))
}
