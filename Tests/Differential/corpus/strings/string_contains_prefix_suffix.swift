func main() {
    let email = "jane.doe@example.com"
    print(email.contains("@"))
    print(email.contains("example"))
    print(email.contains("Example"))
    print(email.hasPrefix("jane"))
    print(email.hasSuffix(".com"))
    print(email.hasSuffix(".org"))
    print(email.hasPrefix(""))
    print(email.contains(Character(".")))
    print(email.contains { $0.isNumber })
    let files = ["main.swift", "README.md", "View.swift", "notes.txt"]
    print(files.filter { $0.hasSuffix(".swift") })
    print(files.filter { $0.lowercased().hasPrefix("r") })
    print("".contains("a"), "abc".contains(""))
}
