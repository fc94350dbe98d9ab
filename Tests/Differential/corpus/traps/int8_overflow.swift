struct Volume {
    var level: Int8 = 120

    mutating func louder() {
        level += 1
    }
}

func main() {
    var v = Volume()
    for _ in 0..<10 {
        v.louder()
        print("level", v.level)
    }
    print("done")
}
