struct SignupForm {
    var email: String
    var password: String
    var age: Int?
}

func validate(_ f: SignupForm) -> String {
    guard !f.email.isEmpty else { return "email required" }
    guard f.email.contains("@") else { return "email invalid" }
    guard f.password.count >= 6 else { return "password too short" }
    guard let age = f.age else { return "age required" }
    guard age >= 13 else { return "too young (\(age))" }
    return "ok"
}

func main() {
    let forms = [
        SignupForm(email: "", password: "", age: nil),
        SignupForm(email: "a", password: "", age: nil),
        SignupForm(email: "a@b", password: "123", age: nil),
        SignupForm(email: "a@b", password: "123456", age: nil),
        SignupForm(email: "a@b", password: "123456", age: 10),
        SignupForm(email: "a@b", password: "123456", age: 30),
    ]
    for f in forms {
        print(validate(f))
    }
}
