func span(_ lo: Int, _ hi: Int) -> [Int] {
    return Array(lo...hi)
}

func main() {
    print(span(1, 3))
    print(span(5, 5))
    print("making 4...2")
    print(span(4, 2))
}
