func main() {
    let values = [Int.max - 1, 1, 2]
    let big = values[0]
    print(big.advanced(by: values[1]))
    print(big.advanced(by: values[2]))
}
