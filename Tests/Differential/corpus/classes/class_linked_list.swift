class ListNode {
    var value: Int
    var next: ListNode?
    init(_ value: Int, next: ListNode? = nil) {
        self.value = value
        self.next = next
    }
}

func toArray(_ head: ListNode?) -> [Int] {
    var out: [Int] = []
    var cur = head
    while let node = cur {
        out.append(node.value)
        cur = node.next
    }
    return out
}

func reverse(_ head: ListNode?) -> ListNode? {
    var prev: ListNode? = nil
    var cur = head
    while let node = cur {
        cur = node.next
        node.next = prev
        prev = node
    }
    return prev
}

func main() {
    let list = ListNode(1, next: ListNode(2, next: ListNode(3)))
    print(toArray(list))
    list.next?.value = 20
    print(toArray(list))
    let r = reverse(list)
    print(toArray(r))
    print(toArray(list))
    print(list.next == nil, r?.value as Any)
}
