func factorial(_ n: Int) -> Int {
    var result = 1
    for i in 1...n {
        result *= i
    }
    return result
}

func main() {
    for n in [5, 10, 20] {
        print(n, factorial(n))
    }
    print("now 21")
    print(factorial(21))
}
