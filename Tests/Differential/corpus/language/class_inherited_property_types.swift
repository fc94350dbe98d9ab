class A { var w = 1.0; var name = "a" }
class B: A { var extra = [1] }
func main() {
    let b = B()
    b.w = 2
    b.extra.append(3)
    print(b.w, b.name, b.extra, b is A)
    let items: [A] = [A(), b]
    print(items.map { $0.w })
}
