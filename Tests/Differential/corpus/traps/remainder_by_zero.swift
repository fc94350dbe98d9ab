func bucket(_ value: Int, buckets: Int) -> Int {
    return value % buckets
}

func main() {
    print(bucket(17, buckets: 5))
    print(bucket(-3, buckets: 4))
    let empty = [Int]()
    print("buckets:", empty.count)
    print(bucket(9, buckets: empty.count))
}
