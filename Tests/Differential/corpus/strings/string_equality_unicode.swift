func main() {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    print(composed == decomposed)
    print(composed.count, decomposed.count)
    print(composed.utf8.count, decomposed.utf8.count)
    print(composed.hasSuffix("é"), decomposed.hasSuffix("é"))
    print(composed.contains("é"))
    let flag = "🇫🇷"
    print(flag.count, flag.unicodeScalars.count)
    print(Set([composed, decomposed]).count)
    print(["café": 1][decomposed] as Any)
    let s = "a\u{308}"
    print(s, s.count, s == "ä")
}
