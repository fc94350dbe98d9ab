import CanopyCore

/// A place in a program's source: 1-based line and column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let unknown = SourceLocation(line: 0, column: 0)

    public var description: String { "\(line):\(column)" }
}

/// A compile-time problem at a place in the source.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location.line):\(location.column): \(message)" }

    public var json: JSON {
        ["line": .int(Int64(location.line)), "column": .int(Int64(location.column)), "message": .string(message)]
    }
}

/// Source that does not compile: every diagnostic, in source order.
public struct CompileFailure: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The wire error: `compile_error` with `diagnostics`.
    public var canopyError: CanopyError {
        let first = diagnostics.first.map { "\($0.location.line):\($0.location.column): \($0.message)" } ?? ""
        let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : ""
        return CanopyError(
            .compileError, "the Swift does not compile: " + first + more,
            details: ["diagnostics": .array(diagnostics.map(\.json))])
    }
}

/// A fault while Swift code runs: what went wrong, where, and the Swift call stack (innermost first).
public struct ScriptFault: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case runtime, outOfFuel
        /// Internal: a `nil` met by `?` in an optional chain, caught by the chain itself.
        case nilChain
    }

    public var kind: Kind
    public var message: String
    public var location: SourceLocation
    /// `"K.reduce(value:nextValue:) at 4:9"`, innermost first.
    public var stack: [String]

    public init(_ kind: Kind, _ message: String, at location: SourceLocation, stack: [String] = []) {
        self.kind = kind
        self.message = message
        self.location = location
        self.stack = stack
    }

    public var description: String { "\(location): \(message)" }

    /// The wire error: `runtime_error` with `line`, `column` and `stack`, or `too_expensive`.
    public var canopyError: CanopyError {
        let details: JSONObject = [
            "line": .int(Int64(location.line)), "column": .int(Int64(location.column)),
            "stack": .array(stack.map { .string($0) }),
        ]
        switch kind {
        case .runtime:
            return CanopyError(.runtimeError, "Swift fault at \(location): \(message)", details: details)
        case .nilChain:
            return CanopyError(.runtimeError, "Swift fault at \(location): an optional chain escaped", details: details)
        case .outOfFuel:
            return CanopyError(.tooExpensive, "Swift code ran out of fuel at \(location): \(message)", details: details)
        }
    }
}
