let appName = "Canopy"
var launchCount = 3

func nextValue() -> Int {
    return 41 + 1
}

func main() {
    print(appName)
    print(launchCount)
    launchCount += 1
    print(launchCount)
    let nextValue = nextValue()
    print(nextValue)
    var total = 10
    do {
        let total = total * 2
        print("inner total", total)
    }
    total -= 3
    print("outer total", total)
    let x = 5
    if x > 2 {
        let x = x + 100
        print("shadowed x", x)
    }
    print("x", x)
}
