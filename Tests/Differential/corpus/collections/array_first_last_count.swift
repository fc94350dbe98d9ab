func main() {
    let queue = ["a", "b", "c"]
    print(queue.first as Any, queue.last as Any)
    print(queue.count, queue.isEmpty)
    let empty: [String] = []
    print(empty.first as Any, empty.last as Any, empty.count)
    print(queue[queue.count - 1])
    print(queue.randomElement() != nil)
    print(queue.first!.count)
    var stack: [Int] = []
    stack.append(1)
    stack.append(2)
    print(stack.last!)
    _ = stack.popLast()
    print(stack)
    print(stack.popLast() as Any, stack.popLast() as Any)
    print(stack.isEmpty)
}
