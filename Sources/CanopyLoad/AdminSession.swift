import CanopyClient
import CanopyCore
import CanopySupport
import CanopyWebSocket

/// The load tool's own blocking session for setup and teardown: creating the scratch trees (in pipelined batches),
/// reading an existing tree's snapshot, deleting the trees at the end.
final class AdminSession {
    /// A request and what ends it: a reply carrying its `rid`, or (for an edit) the diff with its tree and seq.
    struct Request {
        var bytes: [UInt8]
        var tree: String?
        var seq: Int64?
        /// Error codes that count as done (`no_such_tree` when deleting).
        var tolerated: Set<String> = []
    }

    private let client: BlockingClient
    private let timeout: Double
    private(set) var session = ""
    private var nextRid: Int64 = 1

    init(url: WebSocketURL, token: String?, name: String, timeout: Double) throws(LoadError) {
        self.timeout = timeout
        do { client = try BlockingClient(url: url, timeout: timeout) } catch {
            throw LoadError(.load, "cannot connect to \(url): \(error)")
        }
        let welcome = try request(LoadMessages.hello(client: name, token: token))
        session = welcome["session"]?.string ?? ""
    }

    deinit { client.close() }

    /// Sends `message` and waits for the reply with its rid; an `error` reply throws.
    func request(_ message: JSON) throws(LoadError) -> JSON {
        var bytes: [UInt8] = []
        message.write(into: &bytes)
        var reply = JSON.null
        try pipeline([Request(bytes: bytes)]) { _, message in reply = message }
        return reply
    }

    /// Sends `requests` keeping at most `window` unanswered, calling `done(index, reply)` as each is answered (in
    /// order per tree: the daemon answers one session's messages in order).
    func pipeline(
        _ requests: [Request], window: Int = 16, done: (Int, JSON) throws(LoadError) -> Void = { _, _ in }
    ) throws(LoadError) {
        var ridOf: [Int64: Int] = [:]
        var editOf: [String: Int] = [:]
        var next = 0
        var answered = 0
        while answered < requests.count {
            while next < requests.count && next - answered < window {
                let rid = nextRid
                nextRid += 1
                ridOf[rid] = next
                if let tree = requests[next].tree, let seq = requests[next].seq { editOf["\(seq) \(tree)"] = next }
                // `"rid":N,` spliced in after the opening brace.
                client.send(bytes: Array("{\"rid\":\(rid),".utf8) + requests[next].bytes.dropFirst())
                next += 1
            }
            let received: JSON?
            do { received = try client.receive(timeout: timeout) } catch { throw LoadError(.load, "\(error)") }
            guard let message = received else {
                throw LoadError(.load, "no answer from the daemon within \(timeout) s")
            }
            var index: Int?
            if let rid = message["rid"]?.number.flatMap({ Int64(exactly: $0) }) {
                index = ridOf.removeValue(forKey: rid)
            } else if message["type"] == "diff", message["author"]?.string == session,
                let tree = message["tree"]?.string,
                let seq = message["seq"]?.number
            {
                index = editOf.removeValue(forKey: "\(Int64(seq)) \(tree)")
            }
            guard let index else { continue }
            answered += 1
            let type = message["type"]?.string
            if type == "error" || type == "rejected" {
                let code = message["code"]?.string ?? "error"
                if !requests[index].tolerated.contains(code) {
                    throw LoadError(.load, "the daemon answered \(code): \(message["message"]?.string ?? "")")
                }
            }
            try done(index, message)
        }
    }
}
