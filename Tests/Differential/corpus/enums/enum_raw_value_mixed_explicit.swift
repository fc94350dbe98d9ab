enum Endpoint: String, CaseIterable {
    case users
    case userDetail = "users/detail"
    case search
    case settings = "prefs"
}

enum Code: Int, CaseIterable {
    case a = -1, b, c, d = 10, e
}

enum Grade: Character {
    case excellent = "A", good = "B"
}

func main() {
    print(Endpoint.allCases.map(\.rawValue))
    print(Endpoint(rawValue: "prefs")!)
    print(Endpoint(rawValue: "settings") == nil)
    print(Code.allCases.map(\.rawValue))
    print(Code(rawValue: 0)!, Code(rawValue: 11)!)
    print(Grade.good.rawValue, Grade(rawValue: "A")!)
    print("\(Endpoint.userDetail)")
}
