import Configuration
import Logging
import CanopyWebSocket
import CanopyStore
import CanopySupport

/// Everything canopyd can be configured with, as the file `config/canopyd.yaml` lays it out (see docs/server.md,
/// "Configuration"): `init()` is the built-in defaults, `ConfigurationSources.load()` reads flags, environment
/// variables and the file over them, and `validate()` checks the result before a daemon starts with it.
///
/// Every setting is in `DaemonConfiguration.settings`: its section, key, kind of value, how a value is checked and
/// stored, and how the current value reads back; loading, `validate()`, `summary` and `==` all go through that list.
public struct DaemonConfiguration: Sendable {
    /// Listening, HTTP checks and per-session limits.
    public var service: ServiceConfiguration
    /// Directory served at `/` (its `index.html` for `/`); nil serves no files. canopyd serves it only if it exists.
    public var webRoot: String? = "web"
    /// Tokens, tree limits, message nesting, history length, edit rate.
    public var hub: HubConfiguration
    /// The directory of the durable store (`canopy.db`), created at start.
    public var dataDirectory = "data"
    /// `fsync`: a batch is acknowledged once its commit reached the disk; `none`: once SQLite has it (docs/storage.md).
    public var durability = Durability.fsync
    /// Snapshots kept per tree (the log after the oldest kept one is kept too).
    public var keepSnapshots = 2
    /// Bytes of disk the store holds in reserve (`canopy.reserve`), given up so a deletion can commit on a full disk
    /// (docs/storage.md); 0: none.
    public var reserveBytes = 8 << 20
    /// Directory of example trees (`*.json` createTree bodies) loaded at first start and served at `/examples/`;
    /// empty loads and serves none.
    public var examplesDirectory = "config/examples"
    public var logLevel: Logger.Level = .info
    /// Cluster mode (docs/cluster.md): off while `cluster.servers` is empty.
    public var cluster = ClusterSettings()

    /// The built-in defaults (also what `config/canopyd.yaml` says).
    public init() {
        service = ServiceConfiguration()
        service.host = "127.0.0.1"
        service.port = 7700
        hub = HubConfiguration()
    }

    /// Throws if any setting is out of range, `timeouts.idle` does not exceed `timeouts.ping_interval`, or the
    /// daemon would bind a non-loopback address without tokens.
    public func validate() throws(ConfigurationError) {
        for setting in Self.settings {
            var scratch = self
            do throws(SettingProblem) {
                try setting.apply(&scratch, setting.read(self))
            } catch {
                throw ConfigurationError(key: setting.name, error.message)
            }
        }
        try checkTimeouts()
        try checkCluster()
        if !service.isLoopback && hub.tokens.isEmpty {
            throw ConfigurationError(
                "refusing to bind \(service.host) without tokens: only loopback addresses may run without "
                    + "auth.tokens (or --token, or CANOPY_AUTH_TOKENS)")
        }
    }

    func checkCluster() throws(ConfigurationError) {
        guard cluster.enabled else { return }
        let name = cluster.name
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({ c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F
            })
        else {
            throw ConfigurationError(
                key: "cluster.name",
                "with cluster.servers set, each daemon needs a name of 1–64 characters of A–Z, a–z, 0–9, '-', '_' "
                    + "(unique in the cluster), got \"\(name)\"")
        }
    }

    func checkTimeouts() throws(ConfigurationError) {
        if service.idleTimeoutSeconds <= service.pingIntervalSeconds {
            throw ConfigurationError(
                key: "timeouts.idle",
                "must exceed timeouts.ping_interval (\(service.pingIntervalSeconds)), got \(service.idleTimeoutSeconds)"
            )
        }
    }

    // MARK: Tokens

    /// One `TOKEN:ROLE[:PATTERN,...]` (the `--token` flag and `[auth] tokens`): ROLE is viewer, editor or admin;
    /// the comma-separated patterns (`*` matches any run of characters) limit the grant to matching tree ids.
    public static func tokenGrant(_ spec: String) throws(ConfigurationError) -> TokenGrant {
        let syntax = "expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin"
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty else { throw ConfigurationError(syntax) }
        guard let role = Role(rawValue: parts[1]) else {
            throw ConfigurationError("unknown role \"\(parts[1])\" (\(syntax))")
        }
        var patterns: [String] = []
        if parts.count == 3 {
            patterns = parts[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if patterns.contains(where: \.isEmpty) {
                throw ConfigurationError("empty tree pattern (\(syntax); leave out the last ':' to grant every tree)")
            }
        }
        return TokenGrant(token: parts[0], role: role, trees: patterns)
    }

    /// Several specs (entries numbered from 1 in errors); a token may appear only once.
    public static func tokenGrants(_ specs: [String]) throws(ConfigurationError) -> [TokenGrant] {
        var grants: [TokenGrant] = []
        for (index, spec) in specs.enumerated() {
            let grant: TokenGrant
            do {
                grant = try tokenGrant(spec)
            } catch {
                throw ConfigurationError("entry \(index + 1): \(error.message)")
            }
            if let first = grants.firstIndex(where: { $0.token == grant.token }) {
                throw ConfigurationError("entry \(index + 1) repeats the token of entry \(first + 1)")
            }
            grants.append(grant)
        }
        return grants
    }

    /// Every setting as `name = value` (strings quoted), in file order, for logging; tokens are replaced by their
    /// roles (`["***:admin"]`).
    public var summary: [String] {
        Self.settings.map { setting in
            var value = setting.read(self)
            if setting.isSecret {
                value = .stringArray(hub.tokens.map { "***:" + $0.role.rawValue })
            }
            return "\(setting.name) = \(Self.text(of: value))"
        }
    }

    /// A value as written in the summary: JSON-like, floats always with a fraction.
    static func text(of value: ConfigContent) -> String {
        func quoted(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        return switch value {
        case .string(let s): quoted(s)
        case .int(let n): "\(n)"
        case .double(let d): "\(d)"
        case .bool(let b): "\(b)"
        case .stringArray(let a): "[" + a.map(quoted).joined(separator: ", ") + "]"
        default: "\(value)"
        }
    }

    /// The spec `tokenGrant` reads back as `grant`.
    static func spec(of grant: TokenGrant) -> String {
        "\(grant.token):\(grant.role.rawValue)" + (grant.trees.isEmpty ? "" : ":" + grant.trees.joined(separator: ","))
    }
}

extension DaemonConfiguration: Equatable {
    /// Equal when every setting of the file is equal (fields no setting covers, such as `hub.serverName`, are not
    /// compared).
    public static func == (a: DaemonConfiguration, b: DaemonConfiguration) -> Bool {
        settings.allSatisfy { setting in
            setting.read(a) == setting.read(b)
        }
    }
}
