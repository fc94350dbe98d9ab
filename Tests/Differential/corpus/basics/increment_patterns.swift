struct Counter {
    var value = 0
}

func main() {
    var c = Counter()
    c.value += 1
    c.value += 1
    print(c.value)
    var counts = [0, 0, 0]
    counts[1] += 5
    counts[2] -= 1
    counts[0] = counts[1] * 2
    print(counts)
    var dict = ["a": 1]
    dict["a"]! += 10
    dict["b", default: 0] += 3
    print(dict["a"]!, dict["b"]!)
    var nested = [[1, 2], [3]]
    nested[0][1] *= 7
    nested[1].append(4)
    print(nested)
    var i = 0
    while i < 5 { i += 2 }
    print(i)
}
