func makeCounter(start: Int) -> () -> Int {
    var count = start
    return {
        count += 1
        return count
    }
}

func main() {
    let c1 = makeCounter(start: 0)
    let c2 = makeCounter(start: 100)
    print(c1(), c1(), c1())
    print(c2(), c1(), c2())
    var total = 0
    let add = { (n: Int) in total += n }
    add(5)
    add(7)
    print(total)
    var log: [String] = []
    [3, 1, 2].forEach { log.append("item \($0)") }
    print(log)
    var x = 1
    let capture = { [x] in x * 10 }
    let live = { x * 10 }
    x = 5
    print(capture(), live())
    let c3 = c1
    print(c3(), c1())
}
