struct Style {
    var color = "black"
    var size = 12
    var bold = false

    func colored(_ c: String) -> Style {
        var copy = self
        copy.color = c
        return copy
    }

    func sized(_ s: Int) -> Style {
        var copy = self
        copy.size = s
        return copy
    }

    func emphasized() -> Self {
        var copy = self
        copy.bold = true
        return copy
    }
}

func main() {
    let base = Style()
    let title = base.colored("red").sized(20).emphasized()
    print(base)
    print(title)
    print(base.sized(9).size, base.size)
}
