struct User {
    var name: String
    var email: String?
}

func greeting(for user: User?) -> String {
    if let user = user, let email = user.email {
        return "\(user.name) <\(email)>"
    } else if let user {
        return "\(user.name) (no email)"
    }
    return "nobody"
}

func main() {
    print(greeting(for: User(name: "Ann", email: "ann@x.io")))
    print(greeting(for: User(name: "Bob", email: nil)))
    print(greeting(for: nil))
    let maybe: Int? = 4
    if let value = maybe, value > 3 {
        print("big", value)
    }
    if let value = maybe, value > 10 {
        print("huge", value)
    } else {
        print("not huge")
    }
    var counter: Int? = 1
    if var c = counter {
        c += 10
        print("local", c)
    }
    counter = nil
    print(counter == nil)
}
