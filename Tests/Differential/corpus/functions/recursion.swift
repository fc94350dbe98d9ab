func fib(_ n: Int) -> Int {
    n < 2 ? n : fib(n - 1) + fib(n - 2)
}

func gcd(_ a: Int, _ b: Int) -> Int {
    b == 0 ? a : gcd(b, a % b)
}

func power(_ base: Int, _ exp: Int) -> Int {
    if exp == 0 { return 1 }
    let half = power(base, exp / 2)
    return exp % 2 == 0 ? half * half : half * half * base
}

func digitSum(_ n: Int) -> Int {
    n < 10 ? n : n % 10 + digitSum(n / 10)
}

func isEven(_ n: Int) -> Bool { n == 0 ? true : isOdd(n - 1) }
func isOdd(_ n: Int) -> Bool { n == 0 ? false : isEven(n - 1) }

func main() {
    print((0...10).map(fib))
    print(gcd(48, 36), gcd(17, 5))
    print(power(2, 10), power(3, 5))
    print(isEven(10), isOdd(7), isEven(3))
    print(digitSum(9875), digitSum(7))
}
