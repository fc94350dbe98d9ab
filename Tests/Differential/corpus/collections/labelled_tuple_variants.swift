func size() -> (width: Int, height: Int) { (3, 4) }

func main() {
    let s = size()
    print(s, s.width, s.height)
    let (w, h) = size()
    print(w * h)
    let (width: a, height: b) = size()
    print(a, b)
    var m = size()
    m.width += 10
    m.1 = 0
    print(m)
    let unlabeled = (1, 2)
    let labeled: (x: Int, y: Int) = unlabeled
    print(labeled.x, labeled)
    let arr = [size(), (width: 1, height: 1)]
    print(arr.map { $0.width * $0.height })
    let pair = (first: "a", second: (inner: 1, other: 2.5))
    print(pair.second.inner, pair.second.other, pair)
    let dict = ["k": (count: 2, label: "two")]
    print(dict["k"]!.label, dict["k"]!.count)
    print(size() == (3, 4), size() < (3, 5))
}
