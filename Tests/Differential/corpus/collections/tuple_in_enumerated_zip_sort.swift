func main() {
    let scores = [("ann", 72), ("bo", 95), ("cy", 72), ("di", 88)]
    let ranked = scores.sorted { ($0.1, $1.0) > ($1.1, $0.0) }
    print(ranked.map { $0.0 })
    let best = scores.max { $0.1 < $1.1 }!
    print(best)
    print(best.0, best.1)
    let named = scores.map { (name: $0.0, score: $0.1) }
    print(named.filter { $0.score > 80 }.map(\.name))
    for (rank, (name, score)) in ranked.enumerated() {
        print(rank + 1, name, score)
    }
    let totals = scores.reduce((count: 0, sum: 0)) { ($0.count + 1, $0.sum + $1.1) }
    print(totals, totals.sum / totals.count)
}
