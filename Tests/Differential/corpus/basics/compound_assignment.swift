func main() {
    var score = 10
    score += 5
    print(score)
    score -= 3
    print(score)
    score *= 4
    print(score)
    score /= 5
    print(score)
    score %= 4
    print(score)
    var ratio = 1.5
    ratio *= 2
    ratio -= 0.25
    print(ratio)
    ratio /= 4
    print(ratio)
    var title = "Hello"
    title += ", "
    title += "world"
    print(title)
    var list = [1, 2]
    list += [3]
    list += [4, 5]
    print(list)
    var flag = true
    flag = !flag
    print(flag)
}
