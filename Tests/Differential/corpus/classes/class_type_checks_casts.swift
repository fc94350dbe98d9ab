class Shape {
    func area() -> Double { 0 }
}

class Rect: Shape {
    let w: Double, h: Double
    init(w: Double, h: Double) { self.w = w; self.h = h }
    override func area() -> Double { w * h }
}

class Square: Rect {
    init(side: Double) { super.init(w: side, h: side) }
}

func main() {
    let shapes: [Shape] = [Rect(w: 2, h: 3), Square(side: 2), Shape()]
    for s in shapes {
        let kind = s is Square ? "square" : s is Rect ? "rect" : "shape"
        print(kind, s.area())
    }
    let rects = shapes.compactMap { $0 as? Rect }
    print(rects.count, rects.map(\.w))
    let squares = shapes.compactMap { $0 as? Square }
    print(squares.count)
    if let r = shapes[1] as? Rect {
        print("as Rect", r.h)
    }
}
