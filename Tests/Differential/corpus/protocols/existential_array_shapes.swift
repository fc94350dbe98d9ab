protocol Shape {
    var name: String { get }
    func area() -> Double
}

struct Square: Shape {
    var side: Double
    var name: String { "square" }
    func area() -> Double { side * side }
}

struct Circle: Shape {
    var radius: Double
    var name: String { "circle" }
    func area() -> Double { 3.0 * radius * radius }
}

struct Triangle: Shape {
    var base: Double, height: Double
    let name = "triangle"
    func area() -> Double { base * height / 2 }
}

func main() {
    let shapes: [any Shape] = [Square(side: 2), Circle(radius: 1), Triangle(base: 3, height: 4), Square(side: 0.5)]
    for s in shapes {
        print(s.name, s.area())
    }
    let total = shapes.reduce(0) { $0 + $1.area() }
    print(total)
    let largest = shapes.max { $0.area() < $1.area() }!
    print(largest.name)
    print(shapes.filter { $0.area() > 1 }.map(\.name))
    let sorted = shapes.sorted { $0.area() < $1.area() }
    print(sorted.map { "\($0.name)=\($0.area())" })
}
