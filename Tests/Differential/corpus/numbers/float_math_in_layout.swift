struct Column {
    var width: Float
    var weight: Float
}

func distribute(_ total: Float, among cols: [Column]) -> [Float] {
    let fixed = cols.reduce(Float(0)) { $0 + $1.width }
    let weights = cols.reduce(Float(0)) { $0 + $1.weight }
    let extra = max(0, total - fixed)
    return cols.map { $0.width + (weights == 0 ? 0 : extra * $0.weight / weights) }
}

func main() {
    let cols = [Column(width: 10, weight: 1), Column(width: 20, weight: 2), Column(width: 5, weight: 0)]
    let widths = distribute(100, among: cols)
    print(widths)
    print(widths.reduce(0, +))
    print(distribute(30, among: cols))
    let third = distribute(10, among: [Column(width: 0, weight: 1), Column(width: 0, weight: 1), Column(width: 0, weight: 1)])
    print(third, third.reduce(0, +))
    let asDoubles = third.map { Double($0) }
    print(asDoubles)
}
