func main() {
    let readings = [1, 3, 5, 8, 2, 9, 11]
    print(Array(readings.prefix(while: { $0 < 6 })))
    print(Array(readings.drop(while: { $0 < 6 })))
    print(Array(readings.prefix(3)))
    print(Array(readings.suffix(2)))
    print(Array(readings.dropFirst(5)))
    print(Array(readings.dropLast(5)))
    print(Array(readings.dropFirst()))
    print(Array(readings.prefix(100)))
    print(readings.prefix(while: { $0 > 100 }).isEmpty)
    let slice = readings.drop(while: { $0 != 8 })
    print(slice.first!, slice.startIndex)
    print(readings.prefix(upTo: 2), readings.prefix(through: 2))
    print(readings.suffix(from: 5))
}
