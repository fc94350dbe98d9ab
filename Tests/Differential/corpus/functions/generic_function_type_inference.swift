func firstOrDefault<T>(_ items: [T], _ fallback: T) -> T {
    items.first ?? fallback
}

func transform<T, U>(_ value: T, _ f: (T) -> U) -> U {
    f(value)
}

func repeated<T>(_ value: T, times: Int) -> [T] {
    Array(repeating: value, count: times)
}

func main() {
    print(firstOrDefault([Int](), 7))
    print(firstOrDefault(["a"], "z"))
    print(transform(5) { $0 * 2 })
    print(transform("abc") { $0.count })
    print(transform(3.0) { "value \($0)" })
    print(repeated("x", times: 3))
    print(repeated(1.5, times: 2))
    let nested = repeated(repeated(0, times: 2), times: 2)
    print(nested)
    print(type(of: transform(1) { Double($0) }))
}
