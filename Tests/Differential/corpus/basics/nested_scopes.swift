func main() {
    var messages: [String] = []
    let base = 10
    for i in 1...3 {
        let scaled = i * base
        if scaled > 15 {
            let note = "big \(scaled)"
            messages.append(note)
        } else {
            let note = "small \(scaled)"
            messages.append(note)
        }
    }
    print(messages)
    var value = 1
    do {
        var value = 50
        value += 1
        print("inner", value)
    }
    value += 1
    print("outer", value)
    let closure = { () -> Int in
        let base = 2
        return base * value
    }
    print(closure())
}
