struct Size {
    var width: Double
    var height: Double
    static let zero = Size(width: 0, height: 0)

    var aspect: Double { height == 0 ? 0 : width / height }

    func scaled(by f: Double) -> Size {
        Size(width: width * f, height: height * f)
    }
}

func fit(_ s: Size, into box: Size) -> Size {
    let scale = min(box.width / s.width, box.height / s.height)
    return s.scaled(by: scale)
}

func main() {
    let photo = Size(width: 4000, height: 3000)
    print(photo.aspect)
    let fitted = fit(photo, into: Size(width: 375, height: 812))
    print(fitted.width, fitted.height)
    print(Size.zero.aspect)
    let sizes = [Size(width: 10, height: 20), Size(width: 5, height: 40), Size(width: 30, height: 1)]
    let maxHeight = sizes.map(\.height).reduce(0, max)
    let totalWidth = sizes.reduce(0.0) { $0 + $1.width }
    print(maxHeight, totalWidth)
    print(sizes.map { $0.aspect })
}
