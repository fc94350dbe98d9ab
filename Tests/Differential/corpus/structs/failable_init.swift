struct Email {
    let user: String
    let domain: String

    init?(_ text: String) {
        let parts = text.split(separator: "@")
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        user = String(parts[0])
        domain = String(parts[1])
    }
}

func main() {
    for raw in ["a@b.com", "nope", "@x.io", "me@home"] {
        if let e = Email(raw) {
            print("ok", e.user, e.domain)
        } else {
            print("invalid", raw)
        }
    }
    let valid = ["x@y", "z", "q@r"].compactMap(Email.init)
    print(valid.map(\.domain))
    print(Email("x")?.user ?? "none")
}
