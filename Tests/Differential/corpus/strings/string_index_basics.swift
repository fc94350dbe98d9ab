func main() {
    let s = "Hello, world"
    let start = s.startIndex
    print(s[start])
    let second = s.index(after: start)
    print(s[second])
    let fifth = s.index(start, offsetBy: 4)
    print(s[fifth])
    let last = s.index(before: s.endIndex)
    print(s[last])
    print(s[start..<fifth])
    print(s[fifth...])
    if let comma = s.firstIndex(of: ",") {
        print(s[..<comma])
        print(s[s.index(comma, offsetBy: 2)...])
        print(s.distance(from: start, to: comma))
    }
    print(s.firstIndex(of: "z") == nil)
    if let lastO = s.lastIndex(of: "o") {
        print(s.distance(from: s.startIndex, to: lastO))
    }
}
