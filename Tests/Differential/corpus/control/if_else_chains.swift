func bmiCategory(_ bmi: Double) -> String {
    if bmi < 18.5 {
        return "under"
    } else if bmi < 25 {
        return "normal"
    } else if bmi < 30 {
        return "over"
    } else {
        return "obese"
    }
}

func main() {
    for v in [17.0, 18.5, 24.9, 25.0, 31.2] {
        print(v, bmiCategory(v))
    }
    let x = 7
    if x > 5, x < 10, x % 2 == 1 {
        print("odd between 5 and 10")
    }
    let label = if x > 5 { "big" } else { "small" }
    print(label)
    let size: Int
    if x > 100 {
        size = 3
    } else if x > 5 {
        size = 2
    } else {
        size = 1
    }
    print(size)
}
