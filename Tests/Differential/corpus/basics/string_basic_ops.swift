func main() {
    let first = "Jane"
    let last = "Doe"
    let full = first + " " + last
    print(full)
    print(full.count)
    print(full.isEmpty, "".isEmpty)
    print(full == "Jane Doe", full < "Joe")
    var greeting = "Hi"
    greeting += ", \(first)!"
    print(greeting)
    print(String(42) + "px")
    print("\(3 + 4) items")
    print(full.uppercased(), full.lowercased())
    print(String(3.5), String(true))
    print("abc" < "abd", "Z" < "a", "apple" > "Apple")
}
