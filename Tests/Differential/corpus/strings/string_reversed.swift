func isPalindrome(_ s: String) -> Bool {
    let letters = s.lowercased().filter { $0.isLetter }
    return letters == String(letters.reversed())
}

func main() {
    let word = "stressed"
    print(String(word.reversed()))
    print(Array(word.reversed()))
    print(isPalindrome("Racecar"))
    print(isPalindrome("A man, a plan, a canal: Panama"))
    print(isPalindrome("Swift"))
    let r = "abc".reversed()
    print(String(r), r.count)
    print(String("héllo".reversed()))
    for c in "xyz".reversed() {
        print(c)
    }
}
