enum Mode: String {
    case fast, slow
}

func parseMode(_ s: String) -> Mode {
    guard let m = Mode(rawValue: s) else {
        fatalError("unknown mode \(s)")
    }
    return m
}

func main() {
    print(parseMode("fast"))
    print(parseMode("slow"))
    print("parsing turbo")
    print(parseMode("turbo"))
}
