protocol ButtonStyle {
    var name: String { get }
}

struct BorderedStyle: ButtonStyle {
    let name = "bordered"
}

struct PlainStyle: ButtonStyle {
    let name = "plain"
}

extension ButtonStyle where Self == BorderedStyle {
    static var bordered: BorderedStyle { BorderedStyle() }
}

extension ButtonStyle where Self == PlainStyle {
    static var plain: PlainStyle { PlainStyle() }
}

func apply<S: ButtonStyle>(_ style: S) -> String {
    "applied \(style.name)"
}

func main() {
    print(apply(.bordered))
    print(apply(.plain))
    print(apply(PlainStyle()))
}
