import CanopyCore

/// What a session may do (PROTOCOL.md, "Session").
public enum Role: String, Sendable, Comparable, CaseIterable {
    /// Read: list, subscribe, probe, inspect, history.
    case viewer
    /// Read and edit.
    case editor
    /// Also create and delete trees.
    case admin

    private var rank: Int {
        switch self {
        case .viewer: return 0
        case .editor: return 1
        case .admin: return 2
        }
    }

    public static func < (a: Role, b: Role) -> Bool { a.rank < b.rank }
}

/// A configured token: its role, optionally limited to trees whose ids match one of `trees` (`*` matches any run
/// of characters). Outside those trees every request of the session is `forbidden`.
public struct TokenGrant: Sendable, Equatable {
    public var token: String
    public var role: Role
    /// Tree-id patterns; empty means every tree.
    public var trees: [String]

    public init(token: String, role: Role, trees: [String] = []) {
        self.token = token
        self.role = role
        self.trees = trees
    }

    /// Whether this grant covers tree `id`.
    public func covers(_ id: String) -> Bool {
        trees.isEmpty || trees.contains { TokenGrant.matches(pattern: Array($0.utf8), Array(id.utf8)) }
    }

    /// Glob match with `*` only.
    static func matches(pattern p: [UInt8], _ s: [UInt8]) -> Bool {
        var pi = 0
        var si = 0
        var star = -1
        var mark = 0
        while si < s.count {
            if pi < p.count && p[pi] != UInt8(ascii: "*") && p[pi] == s[si] {
                pi += 1
                si += 1
            } else if pi < p.count && p[pi] == UInt8(ascii: "*") {
                star = pi
                mark = si
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                si = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}
