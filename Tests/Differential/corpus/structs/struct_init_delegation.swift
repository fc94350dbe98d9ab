struct Size {
    var width: Double
    var height: Double
}

struct Frame {
    var origin: (Double, Double)
    var size: Size

    init(origin: (Double, Double), size: Size) {
        self.origin = origin
        self.size = size
    }

    init(width: Double, height: Double) {
        self.init(origin: (0, 0), size: Size(width: width, height: height))
    }

    init(square side: Double) {
        self.init(width: side, height: side)
    }
}

extension Size {
    init(side: Double) {
        self.init(width: side, height: side)
    }
}

func main() {
    let f = Frame(square: 5)
    print(f.origin, f.size)
    let g = Frame(width: 2, height: 3)
    print(g.size.width * g.size.height)
    let s1 = Size(side: 4)
    let s2 = Size(width: 1, height: 2)
    print(s1, s2)
}
