func main() {
    var deck = ["A", "K", "Q", "J"]
    print(Array(deck.reversed()))
    print(deck.reversed().joined(separator: " "))
    deck.swapAt(0, 3)
    print(deck)
    deck.swapAt(1, 1)
    print(deck)
    deck.reverse()
    print(deck)
    let grid = [[1, 2], [3, 4], [5]]
    print(Array(grid.joined()))
    print(Array(grid.joined(separator: [0])))
    print(grid.reversed().map { $0.reversed() }.map { Array($0) })
    var nums = [1, 2, 3, 4, 5]
    for i in 0..<nums.count / 2 {
        nums.swapAt(i, nums.count - 1 - i)
    }
    print(nums)
}
