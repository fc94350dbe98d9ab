func main() {
    let s = "héllo"
    print(s[s.startIndex])
    var u = s; u.remove(at: u.endIndex); print(u)
}
