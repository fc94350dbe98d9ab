func main() {
    var a = "left"
    var b = "right"
    (a, b) = (b, a)
    print(a, b)
    var nums = [1, 2, 3]
    (nums[0], nums[2]) = (nums[2], nums[0])
    print(nums)
    var x = 1, y = 2
    (x, y) = (y, x + y)
    print(x, y)
    (x, y) = (y, x + y)
    print(x, y)
    var t = (0, 0)
    (t.0, t.1) = (5, 6)
    print(t)
    let (q, _, r) = (1, 2, 3)
    print(q, r)
    var g = 48, h = 18
    while h != 0 {
        (g, h) = (h, g % h)
    }
    print("gcd", g)
}
