struct Rect {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var area: Double { width * height }
    var maxX: Double { x + width }
    var midY: Double {
        return y + height / 2
    }
    var center: (x: Double, y: Double) {
        get { (x + width / 2, y + height / 2) }
        set {
            x = newValue.x - width / 2
            y = newValue.y - height / 2
        }
    }
}

func main() {
    var r = Rect(x: 0, y: 0, width: 10, height: 4)
    print(r.area, r.maxX, r.midY)
    print(r.center)
    r.center = (x: 50, y: 50)
    print(r.x, r.y)
    r.width = 20
    print(r.area, r.center.x)
    r.center.y = 0
    print(r.y)
}
