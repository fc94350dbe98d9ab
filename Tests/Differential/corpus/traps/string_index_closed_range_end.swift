func main() {
    let s = "héllo"
    print(s[s.startIndex])
    print(s[s.startIndex...s.endIndex])
}
