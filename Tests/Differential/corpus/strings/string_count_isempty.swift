func validate(_ username: String) -> String {
    if username.isEmpty {
        return "empty"
    }
    if username.count < 3 {
        return "too short (\(username.count))"
    }
    return "ok (\(username.count))"
}

func main() {
    print(validate(""))
    print(validate("al"))
    print(validate("alice"))
    print("héllo".count)
    print("👍🏽".count)
    print("👨‍👩‍👧".count)
    print("e\u{301}".count)
    print("e\u{301}" == "é")
    print("\t\n".count)
    print("".count, " ".isEmpty)
    print("abc".utf8.count, "é".utf8.count, "é".unicodeScalars.count)
}
