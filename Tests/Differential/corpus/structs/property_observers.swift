struct Slider {
    var log: [String] = []
    var value: Double = 0 {
        willSet {
            log.append("will \(value) -> \(newValue)")
        }
        didSet {
            if value > 1 { value = 1 }
            log.append("did \(oldValue) -> \(value)")
        }
    }
}

func main() {
    var s = Slider()
    s.value = 0.5
    s.value = 2
    s.value += 0.0
    for line in s.log {
        print(line)
    }
    print(s.value)
    let t = Slider(value: 0.25)
    print(t.log.count, t.value)
}
