func main() {
    var stack = [1, 2, 3]
    while let top = stack.popLast() {
        print("popped", top)
    }
    var iterator = ["x", "y", "z"].makeIterator()
    while let item = iterator.next() {
        print("item", item)
    }
    var pending: [String] = ["a", "b"]
    var processed: [String] = []
    while !pending.isEmpty {
        let next = pending.removeFirst()
        processed.append(next)
        if next == "a" { pending.append("c") }
    }
    print(processed)
    var n: Int? = 5
    while let v = n, v > 0 {
        print("v", v)
        n = v > 2 ? v - 2 : nil
    }
}
