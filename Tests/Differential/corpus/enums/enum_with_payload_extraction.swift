enum Result2 {
    case success(Int)
    case failure(String)

    var value: Int? {
        if case .success(let v) = self { return v }
        return nil
    }

    var error: String? {
        guard case .failure(let e) = self else { return nil }
        return e
    }

    func map(_ f: (Int) -> Int) -> Result2 {
        switch self {
        case .success(let v): return .success(f(v))
        case .failure: return self
        }
    }
}

func main() {
    let results: [Result2] = [.success(2), .failure("bad"), .success(10)]
    print(results.compactMap(\.value))
    print(results.compactMap(\.error))
    print(results.map { $0.map { $0 * 3 } }.compactMap(\.value))
    print(results[1].map { $0 + 1 })
    print(results[0].value as Any, results[0].error as Any)
}
