func main() {
    let zero = 0.0
    let inf = 1.0 / zero
    print(inf)
    print(-1.0 / zero)
    let nan = zero / zero
    print(nan)
    print(nan == nan)
    print(nan != nan)
    print(nan < 1.0, nan > 1.0)
    print(nan.isNaN)
    print(inf.isInfinite, inf.isFinite)
    print(inf > 1e308)
    print(-0.0 == 0.0)
    print((-0.0).sign == .minus)
    print(inf - inf)
    print(max(1.0, inf))
    print(Double.infinity + 1 == Double.infinity)
}
