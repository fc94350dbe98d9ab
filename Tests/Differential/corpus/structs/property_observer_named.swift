struct Form {
    var changes = 0
    var errors: [String] = []
    var username: String = "" {
        didSet(previous) {
            changes += 1
            errors = username.count < 3 ? ["\(previous) -> \(username): too short"] : []
        }
    }
    var age = 0 {
        willSet(next) {
            changes += next > age ? 10 : 100
        }
    }
}

func main() {
    var f = Form()
    f.username = "al"
    print(f.changes, f.errors)
    f.username += "ice"
    print(f.changes, f.errors)
    f.age = 5
    f.age = 3
    print(f.changes, f.age)
}
