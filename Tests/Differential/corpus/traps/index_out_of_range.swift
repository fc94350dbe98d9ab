func item(at index: Int, in list: [String]) -> String {
    return list[index]
}

func main() {
    let list = ["a", "b", "c"]
    print(item(at: 0, in: list))
    print(item(at: 2, in: list))
    print("about to read index 3")
    print(item(at: 3, in: list))
    print("unreachable")
}
