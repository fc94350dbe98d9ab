func main() {
    let tags = ["swift", "ui", "canopy"]
    print(tags.joined())
    print(tags.joined(separator: ", "))
    print(tags.joined(separator: " | "))
    print([String]().joined(separator: ","))
    print(["solo"].joined(separator: ","))
    let numbers = [1, 2, 3]
    print(numbers.map(String.init).joined(separator: "+"))
    print(numbers.map { "\($0)" }.joined(separator: "-"))
    let nested = [["a", "b"], ["c"]]
    print(nested.map { $0.joined() }.joined(separator: "/"))
    print(Array(nested.joined()))
    let words = "hello big world".split(separator: " ")
    print(words.joined(separator: "_"))
    print(words.reversed().joined(separator: " "))
}
