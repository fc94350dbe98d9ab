func main() {
    let values = [Int.min + 1, Int.min]
    var x = values[0]
    x.negate()
    print(x)
    var y = values[1]
    y.negate()
    print("unreachable", y)
}
