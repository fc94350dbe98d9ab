var callCount = 0

func nextID() -> Int {
    callCount += 1
    return callCount * 10
}

func makeItem(name: String, id: Int = nextID()) -> String {
    "\(name)#\(id)"
}

func spacing(_ base: Int = 4, multiplier: Int = 2) -> Int {
    base * multiplier
}

func main() {
    print(makeItem(name: "a"))
    print(makeItem(name: "b"))
    print(makeItem(name: "c", id: 1))
    print(makeItem(name: "d"))
    print(callCount)
    print(spacing(), spacing(5), spacing(multiplier: 3), spacing(1, multiplier: 1))
}
