func increment(_ value: inout Int, by amount: Int = 1) {
    value += amount
}

func appendTwice(_ list: inout [String], _ item: String) {
    list.append(item)
    list.append(item)
}

func normalize(_ p: inout (x: Double, y: Double)) {
    let len = abs(p.x) + abs(p.y)
    if len > 0 {
        p.x /= len
        p.y /= len
    }
}

struct Score { var value = 0 }

func main() {
    var n = 10
    increment(&n)
    increment(&n, by: 5)
    print(n)
    var names = ["a"]
    appendTwice(&names, "b")
    print(names)
    var point = (x: 3.0, y: 1.0)
    normalize(&point)
    print(point)
    var s = Score()
    increment(&s.value, by: 7)
    print(s.value)
    var arr = [1, 2, 3]
    increment(&arr[1], by: 100)
    print(arr)
    var a = 1, b = 2
    swap(&a, &b)
    print(a, b)
}
