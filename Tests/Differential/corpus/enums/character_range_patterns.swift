func kind(_ c: Character) -> String {
    switch c {
    case "a"..."z": return "lower"
    case "A"..."Z": return "upper"
    case "0"..<"9": return "digit below 9"
    default: return "other"
    }
}

func main() {
    for c in "aZ09-é" { print(c, kind(c)) }
    let word = "m"
    switch word {
    case "a"..."l": print("first half")
    default: print("second half")
    }
}
