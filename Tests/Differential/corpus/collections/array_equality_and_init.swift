func main() {
    let a = [1, 2, 3]
    let b = Array(1...3)
    print(a == b)
    print(a != [3, 2, 1])
    let empty = [Int]()
    let empty2: [Int] = []
    print(empty == empty2, empty.isEmpty)
    let zeros = [Double](repeating: 0, count: 3)
    print(zeros)
    let chars = Array("abc")
    print(chars)
    let matrix = Array(repeating: Array(repeating: 0, count: 2), count: 2)
    print(matrix)
    print([[1], [2]] == [[1], [2]])
    print(["a": [1]] == ["a": [1]])
    let strings = (1...3).map(String.init)
    print(strings)
    print([String](["x", "y"]).count)
    print(Array(a.reversed()) == [3, 2, 1])
}
