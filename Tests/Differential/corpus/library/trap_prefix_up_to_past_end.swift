func main() {
    let a = [1, 2, 3]
    print(a.prefix(upTo: 3))
    print(a.prefix(through: 3))
}
