func main() {
    var table: [String] = []
    for i in 1...3 {
        var row: [String] = []
        for j in 1...3 {
            row.append(String(i * j))
        }
        table.append(row.joined(separator: "\t"))
    }
    for line in table { print(line) }
    var pairs: [String] = []
    for a in 0..<4 {
        for b in a..<4 where (a + b) % 3 == 0 {
            pairs.append("(\(a),\(b))")
        }
    }
    print(pairs)
    var triangle = ""
    for i in 1...4 {
        for _ in 0..<i { triangle += "*" }
        triangle += i < 4 ? "|" : ""
    }
    print(triangle)
    var primes: [Int] = []
    for n in 2...30 {
        var isPrime = true
        for d in 2..<n where d * d <= n {
            if n % d == 0 { isPrime = false; break }
        }
        if isPrime { primes.append(n) }
    }
    print(primes)
}
