func describe(_ n: Int) -> [String] {
    var out: [String] = []
    switch n {
    case 0:
        out.append("zero")
        fallthrough
    case 1:
        out.append("small")
        fallthrough
    case 2...5:
        out.append("handful")
    case 6:
        out.append("six")
        fallthrough
    default:
        out.append("default")
    }
    return out
}

func main() {
    for n in [0, 1, 3, 6, 10] {
        print(n, describe(n))
    }
}
