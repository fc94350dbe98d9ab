class Session {
    static var activeCount = 0
    static let maxSessions = 3
    static var log: [String] = []

    let id: Int

    init() {
        Session.activeCount += 1
        id = Session.activeCount
        Self.log.append("open \(id)")
    }

    static func canOpen() -> Bool {
        activeCount < maxSessions
    }

    class func kind() -> String { "session" }
}

class AdminSession: Session {
    override class func kind() -> String { "admin" }
}

func main() {
    var sessions: [Session] = []
    while Session.canOpen() {
        sessions.append(Session())
    }
    print(sessions.map(\.id), Session.activeCount)
    print(Session.log)
    print(Session.kind(), AdminSession.kind())
    let t: Session.Type = AdminSession.self
    print(t.kind())
}
