import Logging

/// Everything canopyd can be configured with, as the file `config/canopyd.toml` lays it out (see docs/server.md,
/// "Configuration"): `init()` is the built-in defaults, `load(toml:file:)` applies a file on top of them, `set` one
/// setting (a command-line flag), and `validate()` checks the result before a daemon starts with it.
///
/// Every setting is in `DaemonConfiguration.settings`: its section, key, how a TOML value is checked and stored,
/// and how the current value reads back; loading, `set`, `validate()` and `==` all go through that one list.
public struct DaemonConfiguration: Sendable {
    /// Listening, HTTP and per-session limits. `webRoot` is the configured directory; canopyd serves it only if it
    /// exists.
    public var service: ServiceConfiguration
    /// Tokens, tree limits, message nesting, history length, edit rate.
    public var hub: HubConfiguration
    /// The directory of the durable store (`canopy.db`), created at start.
    public var dataDirectory = "data"
    /// `fsync`: a batch is acknowledged once its commit reached the disk; `none`: once SQLite has it (docs/storage.md).
    public var durability = Durability.fsync
    /// Snapshots kept per tree (the log after the oldest kept one is kept too).
    public var keepSnapshots = 2
    /// Directory of example trees (`*.json` createTree bodies) loaded at first start and served at `/examples/`;
    /// empty loads and serves none.
    public var examplesDirectory = "config/examples"
    public var logLevel: Logger.Level = .info

    /// The built-in defaults (also what `config/canopyd.toml` says).
    public init() {
        service = ServiceConfiguration()
        service.host = "127.0.0.1"
        service.port = 7700
        service.webRoot = "web"
        hub = HubConfiguration()
    }

    /// The defaults with `text` (the contents of `file`, which is named in errors) applied. Unknown tables and
    /// keys, values of the wrong type and values out of range are errors naming the file, the line and the
    /// setting. Settings the file leaves out keep their defaults.
    ///
    /// The rule that a non-loopback bind needs tokens is left to `validate()`, since tokens may come from the
    /// command line.
    public static func load(toml text: String, file: String) throws(ConfigurationError) -> DaemonConfiguration {
        let root: TOMLTable
        do {
            root = try TOML.parse(text)
        } catch {
            throw ConfigurationError(file: file, line: error.line, error.message)
        }
        var configuration = DaemonConfiguration()
        let settings = Self.settings
        let sections = Self.sectionNames
        for sectionName in root.keys {
            let line = root.line(of: sectionName)
            guard case .table(let section)? = root[sectionName] else {
                throw ConfigurationError(
                    file: file, line: line, key: displayKey(sectionName),
                    "settings go under a table header such as [server] (tables: \(sections.joined(separator: ", ")))")
            }
            guard sections.contains(sectionName) else {
                throw ConfigurationError(
                    file: file, line: line,
                    "unknown table [\(displayKey(sectionName))] (tables: \(sections.joined(separator: ", ")))")
            }
            let keys = settings.filter { $0.section == sectionName }.map(\.key)
            for key in section.keys {
                let name = sectionName + "." + displayKey(key)
                guard let setting = settings.first(where: { $0.section == sectionName && $0.key == key }) else {
                    let known = "keys of [\(sectionName)]: \(keys.joined(separator: ", "))"
                    if case .table? = section[key] {
                        throw ConfigurationError(
                            file: file, line: section.line(of: key), "unknown table [\(name)] (\(known))")
                    }
                    throw ConfigurationError(
                        file: file, line: section.line(of: key), key: name, "unknown key (\(known))")
                }
                do {
                    try setting.apply(&configuration, section[key]!)
                } catch {
                    throw ConfigurationError(file: file, line: section.line(of: key), key: name, error.message)
                }
            }
        }
        do {
            try configuration.checkTimeouts()
        } catch {
            var line: Int? = nil
            if case .table(let timeouts)? = root["timeouts"] {
                line = timeouts.line(of: "idle") ?? timeouts.line(of: "ping_interval")
            }
            throw ConfigurationError(file: file, line: line, key: error.key, error.message)
        }
        return configuration
    }

    /// Sets one setting by its name in the file (`server.port`), with the same checks as `load`.
    public mutating func set(_ name: String, to value: TOMLValue) throws(ConfigurationError) {
        guard let setting = Self.settings.first(where: { $0.name == name }) else {
            throw ConfigurationError(key: name, "no such setting")
        }
        do {
            try setting.apply(&self, value)
        } catch {
            throw ConfigurationError(key: name, error.message)
        }
    }

    /// Throws if any setting is out of range, `timeouts.idle` does not exceed `timeouts.ping_interval`, or the
    /// daemon would bind a non-loopback address without tokens.
    public func validate() throws(ConfigurationError) {
        for setting in Self.settings {
            var scratch = self
            do {
                try setting.apply(&scratch, setting.read(self))
            } catch {
                throw ConfigurationError(key: setting.name, error.message)
            }
        }
        try checkTimeouts()
        if !service.isLoopback && hub.tokens.isEmpty {
            throw ConfigurationError(
                "refusing to bind \(service.host) without tokens: only loopback addresses may run without "
                    + "[auth] tokens (or --token)")
        }
    }

    private func checkTimeouts() throws(ConfigurationError) {
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

    /// Every setting as `name = value` in TOML syntax, in file order, for logging; tokens are replaced by their
    /// roles (`["***:admin"]`).
    public var summary: [String] {
        Self.settings.map { setting in
            var value = setting.read(self)
            if setting.name == "auth.tokens" {
                value = .array(hub.tokens.map { .string("***:" + $0.role.rawValue) })
            }
            return "\(setting.name) = \(value.tomlText)"
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
