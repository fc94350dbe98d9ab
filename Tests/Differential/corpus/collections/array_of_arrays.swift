func main() {
    var grid = Array(repeating: Array(repeating: ".", count: 4), count: 3)
    grid[1][2] = "#"
    grid[0][0] = "@"
    for row in grid {
        print(row.joined())
    }
    let transposed = (0..<4).map { c in grid.map { $0[c] } }
    print(transposed.map { $0.joined() })
    let numbers = [[1, 2, 3], [4, 5, 6]]
    let rowSums = numbers.map { $0.reduce(0, +) }
    print(rowSums)
    let colSums = (0..<3).map { c in numbers.reduce(0) { $0 + $1[c] } }
    print(colSums)
    print(numbers.flatMap { $0 }.filter { $0 % 2 == 0 })
    print(numbers[1][2], numbers.count, numbers[0].count)
}
