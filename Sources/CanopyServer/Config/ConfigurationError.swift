import CanopySupport

/// A configuration that cannot be used: where (file and line when it came from a file), which setting, and why.
public typealias ConfigurationError = CanopyFailure

extension CanopyFailure {
    /// A configuration failure (`configuration`), e.g. `config/canopyd.yaml:12: server.port: expected …`.
    public init(file: String? = nil, line: Int? = nil, key: String? = nil, _ message: String) {
        self.init(.configuration, message, file: file, line: line, key: key)
    }
}
