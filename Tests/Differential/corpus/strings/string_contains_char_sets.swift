func passwordIssues(_ p: String) -> [String] {
    var issues: [String] = []
    if p.count < 8 { issues.append("short") }
    if !p.contains(where: { $0.isUppercase }) { issues.append("no uppercase") }
    if !p.contains(where: { $0.isNumber }) { issues.append("no digit") }
    if p.allSatisfy({ $0.isLetter || $0.isNumber }) { issues.append("no symbol") }
    return issues
}

func main() {
    print(passwordIssues("abc"))
    print(passwordIssues("abcdefgh"))
    print(passwordIssues("Abcdefg1"))
    print(passwordIssues("Abcdef1!"))
    print(passwordIssues(""))
    let allowed = Set("abc")
    print("cab".allSatisfy { allowed.contains($0) })
    print("cabd".allSatisfy { allowed.contains($0) })
}
