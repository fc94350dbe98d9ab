func main() {
    let r = 1...3
    print(r)
    print(r.lowerBound, r.upperBound)
    print(r.count)
    print(r.contains(3), r.contains(4), r.contains(0))
    print((1...3).upperBound == 3)
    var total = 0
    for i in r {
        total += i
    }
    print("total", total)
    print(Array(r))
    let single = 5...5
    print(single.count, single.isEmpty)
    let dr = 0.0...1.0
    print(dr.contains(1.0), dr.contains(1.0001))
    print(dr)
    print(r ~= 2)
    print(Array(r.reversed()))
}
