struct FormState {
    var name: String?
    var age: Int?
    var errors: [String]?
    var selected: Int? = 2
}

class Session {
    var token: String?
    var user: String?
}

func main() {
    let f = FormState()
    print(f.name as Any, f.age as Any, f.errors as Any, f.selected as Any)
    var g = FormState(name: "x")
    print(g.name as Any)
    g.age = 30
    print(g.age as Any)
    let s = Session()
    print(s.token == nil, s.user == nil)
    s.token = "abc"
    print(s.token ?? "none")
    var local: Int?
    print(local as Any)
    local = 1
    print(local as Any)
}
