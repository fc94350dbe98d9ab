enum Shape {
    case circle(radius: Double)
    case rect(width: Double, height: Double)
    case polygon(sides: Int, length: Double)
    case point
}

func area(_ s: Shape) -> Double {
    switch s {
    case .circle(let r):
        return 3.0 * r * r
    case let .rect(width: w, height: h):
        return w * h
    case .polygon(let n, let len):
        return Double(n) * len
    case .point:
        return 0
    }
}

func main() {
    let shapes: [Shape] = [.circle(radius: 2), .rect(width: 3, height: 4), .polygon(sides: 6, length: 1.5), .point]
    for s in shapes {
        print(s, area(s))
    }
    let r = Shape.rect(width: 1, height: 2)
    if case .rect(let w, _) = r {
        print("width", w)
    }
    if case .rect(width: _, height: let h) = r {
        print("height", h)
    }
}
