import ArgumentParser
import CanopyCore
import Foundation
import CanopyWebSocket
import CanopyClient

/// Options every command takes: where the daemon is and how to authenticate.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The daemon's WebSocket URL ($CANOPY_URL; default ws://127.0.0.1:7700/ws).")
    var url: String?

    @Option(help: "Token to authenticate with, when the daemon has tokens ($CANOPY_TOKEN).")
    var token: String?

    @Option(
        help: """
            Client name shown to other clients (presence); the daemon also recognises a resubmitted batch by \
            (client, seq). Default: canopy-cli-PID.
            """)
    var client: String?

    @Option(help: "Seconds to wait for the daemon's answers.")
    var timeout: Double = 10

    @Flag(help: "Print the daemon's messages as JSON, one per line, instead of readable text.")
    var json = false

    func validate() throws {
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// --url, else $CANOPY_URL, else the default.
    func address() throws -> WebSocketURL {
        try WebSocketURL(parsing: url ?? ProcessInfo.processInfo.environment["CANOPY_URL"] ?? "ws://127.0.0.1:7700/ws")
    }

    /// --token, else $CANOPY_TOKEN.
    var resolvedToken: String? { token ?? ProcessInfo.processInfo.environment["CANOPY_TOKEN"] }

    /// Connects and says hello; a daemon that refuses the token ends the command with its message.
    func connect() throws -> Session {
        let session = Session(client: try BlockingClient(url: try address(), timeout: timeout), timeout: timeout)
        let name = client ?? "canopy-cli-\(ProcessInfo.processInfo.processIdentifier)"
        var hello: JSONObject = ["type": "hello", "client": .string(name)]
        if let token = resolvedToken { hello["token"] = .string(token) }
        let welcome = try session.request(hello)
        session.name = welcome["session"]?.string ?? ""
        return session
    }
}

/// A connected, greeted daemon session: requests with `rid`s, and the other messages as they come.
final class Session {
    let client: BlockingClient
    let timeout: Double
    /// The daemon's name for this session (`s7`), from `welcome`.
    var name = ""
    private var nextRequest = 1

    init(client: BlockingClient, timeout: Double) {
        self.client = client
        self.timeout = timeout
    }

    deinit { client.close() }

    /// Sends `message` with a fresh `rid` and returns the reply carrying it; an `error` reply throws. Messages
    /// without that `rid` that arrive meanwhile are passed to `other`.
    @discardableResult
    func request(_ message: JSONObject, other: (JSON) throws -> Void = { _ in }) throws -> JSON {
        let rid = send(message)
        while true {
            let reply = try next()
            if reply["rid"] == rid {
                if reply["type"]?.string == "error" { throw ServerError(reply) }
                return reply
            }
            try other(reply)
        }
    }

    /// Sends an `edit` (or an `event`, acknowledged the same way) and returns its `diff` (which carries no `rid`: it
    /// is the broadcast every subscriber gets); a `rejected` or `error` reply throws.
    func edit(_ message: JSONObject) throws -> JSON {
        let seq = message["seq"] ?? .null
        let rid = send(message)
        while true {
            let reply = try next()
            switch reply["type"]?.string {
            case "diff" where reply["author"]?.string == name && reply["seq"] == seq:
                return reply
            case "rejected" where reply["rid"] == rid, "error" where reply["rid"] == rid:
                throw ServerError(reply)
            default:
                continue
            }
        }
    }

    /// Sends `message` with a fresh `rid`, which it returns.
    private func send(_ message: JSONObject) -> JSON {
        var message = message
        let rid = JSON.int(Int64(nextRequest))
        nextRequest += 1
        message["rid"] = rid
        client.send(.object(message))
        return rid
    }

    /// The next message from the daemon, waiting at most the timeout.
    func next(timeout: Double? = nil) throws -> JSON {
        let seconds = timeout ?? self.timeout
        guard let message = try client.receive(timeout: seconds) else {
            throw CLIError("no answer from the daemon within \(Int(seconds)) s")
        }
        return message
    }

    /// The next message, waiting as long as it takes.
    func nextWithoutTimeout() throws -> JSON {
        guard let message = try client.receive(timeout: nil) else { throw CLIError("the connection ended") }
        return message
    }
}

/// A failure to report to the user: one line on stderr and a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An `error` or `rejected` message from the daemon.
struct ServerError: Error, CustomStringConvertible {
    var message: JSON

    init(_ message: JSON) { self.message = message }

    /// `code: message (op N)`; a Swift fault adds its place and call stack on the following lines.
    var description: String { Format.rejection(message).joined(separator: "\n") }
}

/// Prints `text` on stdout and flushes it (output may be piped to something that reads it live).
func emit(_ text: String) {
    print(text)
    fflush(nil)  // every output stream (naming stdout is not concurrency-safe in Swift 6)
}

/// `json` as one line of JSON text.
func jsonLine(_ json: JSON) -> String {
    json.encoded()
}

/// Reads a JSON file (`-` is stdin); errors name the file.
func readJSON(_ path: String) throws -> JSON {
    let data: Data?
    if path == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        data = FileManager.default.contents(atPath: path)
    }
    guard let data else { throw CLIError("\(path): cannot read the file") }
    do {
        return try JSONParser.parse(bytes: Array(data))
    } catch {
        throw CLIError("\(path): \(error)")
    }
}
