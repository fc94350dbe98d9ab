enum Weekday: Int {
    case sunday = 1, monday, tuesday
}

enum Command: String {
    case play, pause, stop
}

func main() {
    print(Weekday(rawValue: 2)!)
    print(Weekday(rawValue: 9) as Any)
    print(Weekday(rawValue: 3) == .tuesday)
    if let d = Weekday(rawValue: 1) {
        print("found", d)
    }
    let inputs = ["play", "rewind", "stop", "PAUSE"]
    for raw in inputs {
        if let c = Command(rawValue: raw) {
            print(raw, "->", c)
        } else {
            print(raw, "-> unknown")
        }
    }
    let parsed = inputs.compactMap(Command.init(rawValue:))
    print(parsed.count)
    print(Command(rawValue: "pause".lowercased())!.rawValue)
    print((Weekday(rawValue: 0) ?? .monday).rawValue)
}
