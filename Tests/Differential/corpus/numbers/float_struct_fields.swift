struct Particle {
    var x: Float
    var velocity: Float
    var mass: Float = 1.5

    mutating func step(_ dt: Float) {
        x += velocity * dt
    }

    var momentum: Float { mass * velocity }
}

func main() {
    var p = Particle(x: 0, velocity: 0.1)
    for _ in 0..<3 {
        p.step(1)
        print(p.x)
    }
    print(p.momentum)
    print(p)
    let asDouble = Double(p.x)
    print(asDouble)
    let f: Float = 1 / 3
    print(f + f + f, f * 3 == 1)
    print([Float(0.7), 0.2].map { $0 * 10 })
    print(Float(1.0e-7), Float(123456.7))
}
