struct Grid {
    let columns: Int
    var cells: [Int]

    init(columns: Int, rows: Int) {
        self.columns = columns
        cells = Array(repeating: 0, count: columns * rows)
    }

    subscript(row: Int, col: Int) -> Int {
        get { cells[row * columns + col] }
        set { cells[row * columns + col] = newValue }
    }

    subscript(row r: Int) -> [Int] {
        Array(cells[(r * columns)..<((r + 1) * columns)])
    }
}

func main() {
    var g = Grid(columns: 3, rows: 2)
    g[0, 1] = 5
    g[1, 2] = 7
    g[1, 0] += 2
    print(g[0, 1], g[1, 2], g[1, 0])
    print(g.cells)
    print(g[row: 0], g[row: 1])
}
