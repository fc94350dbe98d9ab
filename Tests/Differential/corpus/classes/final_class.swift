final class Cache {
    private var storage: [String: Int] = [:]
    private(set) var hits = 0
    private(set) var misses = 0

    func value(for key: String, compute: () -> Int) -> Int {
        if let v = storage[key] {
            hits += 1
            return v
        }
        misses += 1
        let v = compute()
        storage[key] = v
        return v
    }
}

func main() {
    let cache = Cache()
    var computations = 0
    for key in ["a", "b", "a", "a", "c", "b"] {
        let v = cache.value(for: key) {
            computations += 1
            return key.count * 10 + computations
        }
        print(key, v)
    }
    print(cache.hits, cache.misses, computations)
}
