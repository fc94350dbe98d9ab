func main() {
    let nums = [3, 1, 4, 1, 5, 9, 2]
    print(nums.reduce(0, +))
    print(nums.reduce(1, *))
    print(nums.sorted(by: >))
    print(nums.sorted(by: <))
    print(zip(nums, nums.reversed()).map(-))
    print(zip([1, 2], [3, 4]).map(*))
    print(["b", "a", "c"].sorted(by: >))
    let op: (Int, Int) -> Int = (+)
    print(op(2, 3))
    let cmp: (Int, Int) -> Bool = (<=)
    print(cmp(2, 2), cmp(3, 2))
    print(nums.reduce(Int.min, max), nums.reduce(Int.max, min))
    print([true, false, true].reduce(false) { $0 || $1 })
    print(["a", "b"].reduce("", +))
    print(nums.map(-).prefix(3))
}
