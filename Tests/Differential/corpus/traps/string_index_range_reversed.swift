func main() {
    let s = "héllo"
    print(s[s.startIndex])
    print(s[s.endIndex..<s.startIndex])
}
