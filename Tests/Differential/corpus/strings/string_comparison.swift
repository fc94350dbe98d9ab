struct Contact {
    let first: String
    let last: String
}

func main() {
    print("apple" < "banana")
    print("Apple" < "apple")
    print("a" < "B")
    print("abc" < "abcd")
    print("" < "a")
    print("10" < "9")
    print("é" == "e\u{301}")
    print("straße" == "strasse")
    let words = ["pear", "Apple", "banana", "apple", "Banana"]
    print(words.sorted())
    print(words.sorted { $0.lowercased() < $1.lowercased() })
    print(words.sorted(by: >))
    let contacts = [Contact(first: "Ann", last: "Zed"), Contact(first: "Bo", last: "Ames"), Contact(first: "Al", last: "Zed")]
    let sorted = contacts.sorted { ($0.last, $0.first) < ($1.last, $1.first) }
    print(sorted.map { "\($0.first) \($0.last)" })
    print(max("x", "xy"), min("b", "ab"))
}
