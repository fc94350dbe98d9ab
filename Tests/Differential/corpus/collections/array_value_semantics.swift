func appendOne(_ a: [Int]) -> [Int] {
    var copy = a
    copy.append(1)
    return copy
}

func main() {
    var a = [1, 2, 3]
    var b = a
    b.append(4)
    print(a, b)
    a[0] = 100
    print(a, b)
    let c = appendOne(a)
    print(a, c)
    var nested = [[0], [1]]
    var inner = nested[0]
    inner.append(9)
    print(nested, inner)
    nested[0] = inner
    print(nested)
    struct Box { var items: [String] }
    var box1 = Box(items: ["x"])
    let box2 = box1
    box1.items.append("y")
    print(box1.items, box2.items)
}
