func main() {
    let s = "héllo"
    print(s[s.startIndex])
    print(s[s.index(after: s.endIndex)])
}
