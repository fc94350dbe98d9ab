enum Filter: Equatable {
    case all
    case tag(String)
    case minScore(Int)
}

func main() {
    let active: [Filter] = [.tag("swift"), .minScore(3)]
    print(active.contains(.tag("swift")))
    print(active.contains(.tag("rust")))
    print(active.contains(.all))
    print(active.firstIndex(of: .minScore(3)) as Any)
    var f = active
    f.append(.all)
    f.removeAll { $0 == .tag("swift") }
    print(f.count, f.contains(.all))
    print(f == [.minScore(3), .all])
    let hasTag = active.contains { if case .tag = $0 { return true } else { return false } }
    print(hasTag)
}
