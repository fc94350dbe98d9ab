func category(_ code: Int) -> String {
    switch code {
    case 200, 201, 204:
        return "success"
    case 300..<400:
        return "redirect"
    case 404:
        return "not found"
    case 400...499:
        return "client error"
    case 500...:
        return "server error"
    default:
        return "unknown"
    }
}

func kind(_ c: Character) -> String {
    switch c {
    case "a", "e", "i", "o", "u":
        return "vowel"
    case "a"..."z":
        return "consonant"
    case "0"..."9":
        return "digit"
    default:
        return "other"
    }
}

func main() {
    for code in [200, 204, 302, 404, 418, 503, 100] {
        print(code, category(code))
    }
    print("ez9!".map(kind))
}
