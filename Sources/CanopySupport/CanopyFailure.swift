/// The one shape of the errors at Canopy's edges (the transport, the store, the configuration, the client, the load
/// tool, the daemon's start): what kind of failure it is (`code`), a message for people, where it happened (a file,
/// a line, a setting) and the error that caused it. The protocol's own errors, which travel to clients with their
/// wire codes, are `CanopyCore.CanopyError`.
public struct CanopyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A kind of failure; each module names its own (`.listenFailed`, `.diskFull`, `.configuration`, …).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
    }

    public var code: Code
    public var message: String
    /// The file at fault (a database, a configuration file), and the line in it.
    public var file: String?
    public var line: Int?
    /// The setting (`server.port`) or flag (`--port`) at fault.
    public var key: String?
    /// What caused it, if another error did.
    public var cause: (any Error & Sendable)?

    public init(
        _ code: Code, _ message: String, file: String? = nil, line: Int? = nil, key: String? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.key = key
        self.cause = cause
    }

    /// Equal in everything but the cause (errors in general are not comparable).
    public static func == (a: CanopyFailure, b: CanopyFailure) -> Bool {
        a.code == b.code && a.message == b.message && a.file == b.file && a.line == b.line && a.key == b.key
    }

    /// `config/canopyd.yaml:12: server.port: expected an integer in 0...65535, got 70000`; `data/canopy.db: disk full`.
    public var description: String {
        var out = ""
        if let file {
            out += file
            if let line { out += ":\(line)" }
            out += ": "
        } else if let line {
            out += "line \(line): "
        }
        if let key { out += key + ": " }
        return out + message
    }
}

extension CanopyFailure.Code {
    /// A client-side failure: a bad URL, a refused or dropped connection, a timeout, an unexpected answer.
    public static let client = Self(rawValue: "client")
    /// A load run that cannot start or could not finish.
    public static let load = Self(rawValue: "load")
    /// The daemon cannot start: files, directories, examples, a store that does not replay.
    public static let start = Self(rawValue: "start")
    /// A configuration that cannot be used.
    public static let configuration = Self(rawValue: "configuration")
}
