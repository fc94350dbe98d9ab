/// Why a service loop could not be created.
public struct ServiceLoopError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The configuration is inconsistent (a limit out of range, an unusable web root).
        case invalidConfiguration = "invalid_configuration"
        /// libwebsockets could not create its context.
        case contextFailed = "context_failed"
        /// The listening socket could not be set up (address in use, unknown address, no permission).
        case listenFailed = "listen_failed"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
