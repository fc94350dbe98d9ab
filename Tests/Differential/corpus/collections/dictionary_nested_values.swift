struct Score {
    var points: Int
}

func main() {
    var board: [String: Score] = ["ann": Score(points: 1)]
    board["ann"]?.points += 10
    board["bob"]?.points += 10
    print(board["ann"]!.points, board["bob"] == nil)
    var matrix: [String: [Int]] = ["row": [1, 2]]
    matrix["row"]?.append(3)
    matrix["row"]![0] = 100
    print(matrix["row"]!)
    var nested: [String: [String: Int]] = [:]
    nested["outer", default: [:]]["inner"] = 7
    nested["outer"]?["inner2"] = 8
    print(nested["outer"]!.keys.sorted(), nested["outer"]!["inner"]!)
    let copy = board
    board["ann"]!.points = 0
    print(copy["ann"]!.points, board["ann"]!.points)
}
