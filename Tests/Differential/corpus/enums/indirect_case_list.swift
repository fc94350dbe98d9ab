enum List {
    case empty
    indirect case node(Int, List)

    func sum() -> Int {
        switch self {
        case .empty: return 0
        case .node(let v, let rest): return v + rest.sum()
        }
    }

    var count: Int {
        if case .node(_, let rest) = self { return 1 + rest.count }
        return 0
    }

    func prepend(_ v: Int) -> List {
        .node(v, self)
    }
}

func main() {
    let list = List.empty.prepend(3).prepend(2).prepend(1)
    print(list.sum(), list.count)
    print(List.empty.sum(), List.empty.count)
    var items: [Int] = []
    var cur = list
    while case let .node(v, rest) = cur {
        items.append(v)
        cur = rest
    }
    print(items)
}
