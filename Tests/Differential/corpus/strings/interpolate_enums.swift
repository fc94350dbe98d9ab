enum Status {
    case idle
    case loading(progress: Double)
    case failed(String, code: Int)
    case done(Int)
}

enum Level: Int {
    case low = 1, high = 10
}

enum Mood: String {
    case happy, sad = "SAD"
}

func main() {
    let values: [Status] = [.idle, .loading(progress: 0.5), .failed("timeout", code: 504), .done(3)]
    for v in values {
        print(v)
        print("status: \(v)")
    }
    print(values.map { "\($0)" })
    print(Level.high, Level.low.rawValue)
    print(Mood.sad, Mood.sad.rawValue, Mood.happy.rawValue)
    let opt: Status? = .done(1)
    if let o = opt { print("unwrapped \(o)") }
    print("\(Level(rawValue: 10)!) \(Level(rawValue: 5) == nil)")
}
