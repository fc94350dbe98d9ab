struct Node {
    var value: Int
    var next: [Node]
}

func secondValue(of root: Node?) -> Int? {
    guard let root, let child = root.next.first else { return nil }
    return child.value
}

func main() {
    let leaf = Node(value: 3, next: [])
    let mid = Node(value: 2, next: [leaf])
    let root = Node(value: 1, next: [mid])
    print(secondValue(of: root) as Any)
    print(secondValue(of: leaf) as Any)
    print(secondValue(of: nil) as Any)
    let third = root.next.first?.next.first?.value
    print(third as Any)
    let fourth = root.next.first?.next.first?.next.first?.value
    print(fourth as Any)
    if let a = root.next.first, let b = a.next.first, b.value == 3 {
        print("chain found", a.value, b.value)
    }
    let text: String? = "12"
    if let t = text, let n = Int(t), n > 10 {
        print("n", n)
    }
}
