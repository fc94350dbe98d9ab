func main() {
    let values: [Int?] = [3, nil, 1, nil, 2]
    let sorted = values.sorted { lhs, rhs in
        switch (lhs, rhs) {
        case let (l?, r?): return l < r
        case (nil, _?): return false
        case (_?, nil): return true
        case (nil, nil): return false
        }
    }
    print(sorted)
    let present = values.compactMap { $0 }
    print(present.sorted())
    let best: Int? = values.compactMap { $0 }.max()
    print(best as Any)
    let noneBest: Int? = [Int?]().compactMap { $0 }.max()
    print(noneBest as Any)
    if let b = best, b > 2 {
        print("best above 2")
    }
    print(values.filter { $0 == nil }.count)
}
