class Node {
    let value: Int
    var children: [Node] = []

    init(_ value: Int) { self.value = value }

    func add(_ child: Node) -> Node {
        children.append(child)
        return self
    }

    func sum() -> Int {
        children.reduce(value) { $0 + $1.sum() }
    }

    func depth() -> Int {
        1 + (children.map { $0.depth() }.max() ?? 0)
    }
}

func main() {
    let leaf = Node(3)
    let root = Node(1).add(Node(2).add(leaf)).add(Node(4))
    print(root.sum(), root.depth())
    leaf.children.append(Node(10))
    print(root.sum(), root.depth())
    let shared = Node(5)
    let tree = Node(0).add(shared).add(shared)
    print(tree.sum())
    shared.children.append(Node(1))
    print(tree.sum(), tree.children[0] === tree.children[1])
}
