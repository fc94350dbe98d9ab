/// A configuration that cannot be used: where (file and line when it came from a file), which setting, and why.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    /// The setting (`server.port`) or flag (`--port`) at fault, if it is one.
    public var key: String?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, key: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `config/canopyd.yaml:12: server.port: expected an integer in 0...65535, got 70000`.
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
