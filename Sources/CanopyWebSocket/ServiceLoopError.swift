import CanopySupport

/// Why a service loop could not be created.
public typealias ServiceLoopError = CanopyFailure

/// A client-side failure: a bad URL, a refused or dropped connection, a timeout, an unexpected answer.
public typealias ClientError = CanopyFailure

extension CanopyFailure.Code {
    /// The configuration is inconsistent (a limit out of range, an unusable web root).
    public static let invalidConfiguration = Self(rawValue: "invalid_configuration")
    /// libwebsockets could not create its context.
    public static let contextFailed = Self(rawValue: "context_failed")
    /// The listening socket could not be set up (address in use, unknown address, no permission).
    public static let listenFailed = Self(rawValue: "listen_failed")
}
