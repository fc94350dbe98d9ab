func main() {
    let values = [2.5, 3.5, -2.5, 2.4, -2.6, 0.5]
    for v in values {
        print(v, v.rounded(), v.rounded(.down), v.rounded(.up), v.rounded(.towardZero), v.rounded(.toNearestOrEven))
    }
    print((7.0).rounded(.down), (-7.5).rounded(.awayFromZero))
    var x = 9.75
    x.round()
    print(x)
    var y = -1.25
    y.round(.down)
    print(y)
}
