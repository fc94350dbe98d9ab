func previous(_ list: [String], before index: Int) -> String {
    return list[index - 1]
}

func main() {
    let steps = ["one", "two", "three"]
    print(previous(steps, before: 2))
    print(previous(steps, before: 1))
    print("previous of first")
    print(previous(steps, before: 0))
}
