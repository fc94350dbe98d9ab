func main() {
    let a = [1, 2, 3]
    print(a.suffix(from: 3))
    print(a.suffix(from: 4))
}
