func main() {
    let grid = [[1, 2, 3], [4, -5, 6], [7, 8, 9]]
    var found: (Int, Int)? = nil
    search: for (r, row) in grid.enumerated() {
        for (c, v) in row.enumerated() {
            if v < 0 {
                found = (r, c)
                break search
            }
        }
    }
    print(found as Any)
    var visited: [String] = []
    outer: for i in 0..<3 {
        for j in 0..<3 {
            if j > i { continue outer }
            if i == 2 && j == 1 { break outer }
            visited.append("\(i)\(j)")
        }
    }
    print(visited)
    var count = 0
    loop: while true {
        count += 1
        switch count {
        case 3: continue loop
        case 5: break loop
        default: print("count", count)
        }
    }
    print("final", count)
}
