func wordStarts(_ s: String) -> [Int] {
    var result: [Int] = []
    var i = s.startIndex
    var prevSpace = true
    while i < s.endIndex {
        if s[i] != " " && prevSpace {
            result.append(s.distance(from: s.startIndex, to: i))
        }
        prevSpace = s[i] == " "
        i = s.index(after: i)
    }
    return result
}

func main() {
    print(wordStarts("hello big  world"))
    print(wordStarts(""))
    let s = "naïve café"
    if let space = s.firstIndex(of: " ") {
        print(s[..<space], s[s.index(after: space)...])
    }
    let i = s.index(s.startIndex, offsetBy: 2)
    print(s[i], s[s.index(before: s.endIndex)])
    print(s.index(s.startIndex, offsetBy: 20, limitedBy: s.endIndex) == nil)
    print(s.firstIndex(where: { $0 == "é" }).map { s.distance(from: s.startIndex, to: $0) } as Any)
    let chars = Array(s)
    print(chars[2], chars.count)
}
