import Foundation

func main() {
    print("abc".contains(""), "".contains(""), "abc".contains("b"))
    let empty = ""
    print("xyz".contains(empty), ["", "a"].contains(""))
}
