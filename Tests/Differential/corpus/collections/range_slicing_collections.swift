func main() {
    let letters = Array("abcdefgh")
    print(String(letters[2...4]))
    print(String(letters[2..<4]))
    print(String(letters[..<3]), String(letters[5...]))
    let r = 1...3
    print(String(letters[r]))
    let idx = letters.indices
    print(idx.lowerBound, idx.upperBound, idx.count)
    var nums = Array(0..<10)
    nums[3...5] = [0, 0, 0]
    print(nums)
    nums.removeSubrange(..<2)
    print(nums)
    nums.replaceSubrange(4..., with: [9])
    print(nums)
    let text = "Hello, World"
    let start = text.index(text.startIndex, offsetBy: 7)
    print(text[start...], text[..<start])
}
