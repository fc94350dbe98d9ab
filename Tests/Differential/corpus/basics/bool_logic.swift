func check(_ tag: String, _ value: Bool) -> Bool {
    print("evaluating \(tag)")
    return value
}

func main() {
    let a = true
    let b = false
    print(a && b, a || b, !a)
    print(a == b, a != b)
    print(check("left", false) && check("right", true))
    print(check("left", true) || check("right", false))
    print(check("l", true) && check("r", true))
    let count = 5
    let isValid = count > 0 && count < 10 || count == 100
    print(isValid)
    print(!(count > 3))
    print(true.description, Bool("true") as Any, Bool("yes") as Any)
    var toggled = false
    toggled.toggle()
    print(toggled)
}
