enum Route: Equatable {
    case home
    case detail(id: Int)
    case search(query: String, page: Int)
}

enum Simple {
    case a, b
}

func main() {
    let r1 = Route.detail(id: 3)
    let r2 = Route.detail(id: 3)
    let r3 = Route.detail(id: 4)
    print(r1 == r2, r1 == r3, r1 != .home)
    print(Route.search(query: "x", page: 1) == .search(query: "x", page: 1))
    print(Route.search(query: "x", page: 1) == .search(query: "x", page: 2))
    var stack: [Route] = [.home]
    stack.append(r1)
    stack.append(.search(query: "swift", page: 1))
    print(stack.count, stack.last == .search(query: "swift", page: 1))
    print(stack.firstIndex(of: .detail(id: 3)) as Any)
    print(Simple.a == Simple.a, Simple.a != .b)
}
