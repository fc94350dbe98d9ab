func firstWord(_ s: String) -> Substring {
    return s.split(separator: " ").first ?? ""
}

func main() {
    let line = "swift is fun"
    let w = firstWord(line)
    print(w)
    print(w.count)
    print(String(w) == "swift")
    print(w == "swift")
    print(w.uppercased())
    let sub = line.dropFirst(6)
    print(sub, sub.hasPrefix("is"))
    let back = String(sub)
    print(back + "!")
    let pieces = line.split(separator: " ")
    let lengths = pieces.map { $0.count }
    print(lengths)
    print(pieces.map(String.init).sorted())
    print(firstWord(""), firstWord("").isEmpty)
}
