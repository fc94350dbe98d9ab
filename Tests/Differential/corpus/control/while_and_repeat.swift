func collatzSteps(_ start: Int) -> Int {
    var n = start
    var steps = 0
    while n != 1 {
        n = n % 2 == 0 ? n / 2 : 3 * n + 1
        steps += 1
    }
    return steps
}

func main() {
    print(collatzSteps(1), collatzSteps(6), collatzSteps(27))
    var i = 10
    repeat {
        print("repeat", i)
        i += 1
    } while i < 10
    var j = 0
    while j < 3 {
        print("while", j)
        j += 1
    }
    var queue = [3, 1, 2]
    var order: [Int] = []
    while let next = queue.first {
        queue.removeFirst()
        order.append(next)
        if next == 3 { queue.append(0) }
    }
    print(order)
    var k = 0
    repeat { k += 5 } while k < 12
    print(k)
}
