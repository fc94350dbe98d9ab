class Settings {
    var volume = 5
    var tags: [String] = []
}

struct Plain {
    var volume = 5
}

func bump(_ s: Settings) {
    s.volume += 1
    s.tags.append("bumped")
}

func main() {
    let s = Settings()
    s.volume = 9
    bump(s)
    bump(s)
    print(s.volume, s.tags)
    var p = Plain()
    p.volume = 9
    print(p.volume)
    let arr = [Settings(), Settings()]
    for item in arr {
        item.volume = 0
    }
    print(arr.map(\.volume))
    var structs = [Plain(), Plain()]
    for var item in structs {
        item.volume = 0
    }
    print(structs.map(\.volume))
    structs[0].volume = 1
    print(structs.map(\.volume))
}
