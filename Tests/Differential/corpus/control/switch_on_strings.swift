func route(_ path: String) -> String {
    switch path {
    case "/", "/home":
        return "home"
    case let p where p.hasPrefix("/user/"):
        return "user \(p.dropFirst(6))"
    case "/settings":
        return "settings"
    default:
        return "404 \(path)"
    }
}

func main() {
    for p in ["/", "/home", "/user/42", "/settings", "/nope", ""] {
        print(route(p))
    }
    let command = "Stop"
    switch command.lowercased() {
    case "start": print("starting")
    case "stop": print("stopping")
    default: print("unknown")
    }
}
