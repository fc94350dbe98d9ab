func main() {
    let words = ["apple", "avocado", "banana", "blueberry", "cherry", "apple"]
    let counts = words.reduce(into: [String: Int]()) { acc, w in
        acc[w, default: 0] += 1
    }
    for key in counts.keys.sorted() {
        print(key, counts[key]!)
    }
    let byLetter = words.reduce(into: [Character: [String]]()) { acc, w in
        acc[w.first!, default: []].append(w)
    }
    for key in byLetter.keys.sorted() {
        print(key, byLetter[key]!)
    }
    let evensOdds = (1...7).reduce(into: (evens: 0, odds: 0)) { acc, n in
        if n % 2 == 0 { acc.evens += n } else { acc.odds += n }
    }
    print(evensOdds)
    let unique = [3, 1, 3, 2, 1].reduce(into: [Int]()) { acc, x in
        if !acc.contains(x) { acc.append(x) }
    }
    print(unique)
}
