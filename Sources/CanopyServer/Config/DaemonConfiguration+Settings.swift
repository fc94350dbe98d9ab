import Logging

/// Why a value cannot be used, without where (the caller adds file, line and key).
struct SettingProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One setting of the file: where it lives, how a value is checked and stored, and how it reads back.
struct Setting {
    let section: String
    let key: String
    let apply: (inout DaemonConfiguration, TOMLValue) throws(SettingProblem) -> Void
    let read: (DaemonConfiguration) -> TOMLValue

    var name: String { section + "." + key }
}

extension DaemonConfiguration {
    /// Every setting, in the order of `config/canopyd.toml`.
    static var settings: [Setting] {
        [
            .string("server", "host", \.service.host, allowEmpty: false),
            .integer("server", "port", \.service.port, 0...65535),
            Setting(
                section: "server", key: "web",
                apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                    let path = try stringValue(v)
                    c.service.webRoot = path.isEmpty ? nil : path
                },
                read: { .string($0.service.webRoot ?? "") }),
            Setting(
                section: "server", key: "allowed_origins",
                apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                    let origins = try stringArray(v)
                    for (index, origin) in origins.enumerated() where !isOrigin(origin) {
                        throw SettingProblem(
                            "entry \(index + 1): expected \"*\" or an origin such as \"https://example.com:8443\" "
                                + "(scheme://host[:port], no path), got \"\(origin)\"")
                    }
                    c.service.allowedOrigins = origins
                },
                read: { .array($0.service.allowedOrigins.map(TOMLValue.string)) }),
            .boolean("server", "security_headers", \.service.securityHeaders),
            .string("storage", "data", \.dataDirectory, allowEmpty: false),
            Setting(
                section: "storage", key: "durability",
                apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                    let text = try stringValue(v)
                    guard let durability = Durability(rawValue: text) else {
                        throw SettingProblem("expected \"fsync\" or \"none\", got \"\(text)\"")
                    }
                    c.durability = durability
                },
                read: { .string($0.durability.rawValue) }),
            .integer("storage", "snapshot_every_batches", \.hub.snapshotEveryBatches, 1...10_000_000),
            .integer("storage", "snapshot_every_seconds", \.hub.snapshotEverySeconds, 1...86_400),
            .integer("storage", "keep_snapshots", \.keepSnapshots, 1...100),
            .integer("limits", "max_message_bytes", \.service.maxMessageBytes, 1...(1 << 30)),
            .integer("limits", "max_queue_bytes", \.service.maxQueueBytes, 1...(1 << 36)),
            .integer("limits", "max_json_depth", \.hub.maxJSONDepth, 1...4096),
            .integer("limits", "max_tree_depth", \.hub.limits.maxDepth, 1...2048),
            .integer("limits", "max_nodes", \.hub.limits.maxNodes, 1...100_000_000),
            .integer("limits", "max_modifiers", \.hub.limits.maxModifiers, 0...65535),
            Setting(
                section: "limits", key: "edits_per_second",
                apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                    let range = 0.0...1_000_000.0
                    let number: Double? =
                        switch v {
                        case .float(let d): d
                        case .integer(let n): Double(n)
                        default: nil
                        }
                    guard let number, range.contains(number) else {
                        throw SettingProblem("expected a number in 0...1000000 (0 = unlimited), got \(describe(v))")
                    }
                    c.hub.editsPerSecond = number
                },
                read: { .float($0.hub.editsPerSecond) }),
            .integer("timeouts", "ping_interval", \.service.pingIntervalSeconds, 1...65535),
            .integer("timeouts", "idle", \.service.idleTimeoutSeconds, 2...65535),
            .integer("timeouts", "close", \.service.closeTimeoutSeconds, 1...3600),
            .integer("timeouts", "drain", \.service.drainTimeoutSeconds, 0...3600),
            .integer("history", "diff_log_length", \.hub.diffLogLength, 0...1_000_000),
            Setting(
                section: "auth", key: "tokens",
                apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                    let specs = try stringArray(v)
                    do throws(ConfigurationError) {
                        c.hub.tokens = try tokenGrants(specs)
                    } catch {
                        throw SettingProblem(error.message)
                    }
                },
                read: { .array($0.hub.tokens.map { .string(spec(of: $0)) }) }),
            .string("examples", "directory", \.examplesDirectory, allowEmpty: true),
            Setting(
                section: "log", key: "level",
                apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                    let names = Logger.Level.allCases.map(\.rawValue)
                    guard case .string(let name) = v, let level = Logger.Level(rawValue: name) else {
                        let got = if case .string(let s) = v { "\"\(s)\"" } else { describe(v) }
                        throw SettingProblem("expected one of \(names.joined(separator: ", ")), got \(got)")
                    }
                    c.logLevel = level
                },
                read: { .string($0.logLevel.rawValue) }),
        ]
    }

    /// The tables of the file, in order.
    static var sectionNames: [String] {
        var names: [String] = []
        for setting in settings where !names.contains(setting.section) { names.append(setting.section) }
        return names
    }

    /// `scheme://host[:port]` with scheme http or https and no path, or `*`.
    static func isOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        let lowered = text.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let authority = lowered.dropFirst(scheme.count)
            return !authority.isEmpty && !authority.contains("/") && !authority.contains(where: \.isWhitespace)
        }
        return false
    }
}

extension Setting {
    static func integer(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, Int>, _ range: ClosedRange<Int>
    ) -> Setting {
        Setting(
            section: section, key: key,
            apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                guard case .integer(let n) = v, let value = Int(exactly: n), range.contains(value) else {
                    throw SettingProblem("expected an integer in \(range), got \(describe(v))")
                }
                c[keyPath: path] = value
            },
            read: { .integer(Int64($0[keyPath: path])) })
    }

    static func string(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, String>, allowEmpty: Bool
    ) -> Setting {
        Setting(
            section: section, key: key,
            apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                let value = try stringValue(v)
                if value.isEmpty && !allowEmpty { throw SettingProblem("expected a non-empty string") }
                c[keyPath: path] = value
            },
            read: { .string($0[keyPath: path]) })
    }

    static func boolean(_ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, Bool>) -> Setting
    {
        Setting(
            section: section, key: key,
            apply: { (c: inout DaemonConfiguration, v: TOMLValue) throws(SettingProblem) in
                guard case .boolean(let value) = v else {
                    throw SettingProblem("expected a boolean (true or false), got \(describe(v))")
                }
                c[keyPath: path] = value
            },
            read: { .boolean($0[keyPath: path]) })
    }
}

private func stringValue(_ v: TOMLValue) throws(SettingProblem) -> String {
    guard case .string(let s) = v else { throw SettingProblem("expected a string, got \(describe(v))") }
    return s
}

private func stringArray(_ v: TOMLValue) throws(SettingProblem) -> [String] {
    guard case .array(let elements) = v else {
        throw SettingProblem("expected an array of strings, got \(describe(v))")
    }
    var out: [String] = []
    for (index, element) in elements.enumerated() {
        guard case .string(let s) = element else {
            throw SettingProblem("entry \(index + 1): expected a string, got \(describe(element))")
        }
        out.append(s)
    }
    return out
}

/// A wrong value for messages: numbers and booleans as written, other values by their kind (strings could be
/// secrets).
private func describe(_ v: TOMLValue) -> String {
    switch v {
    case .integer(let n): return "\(n)"
    case .float(let d): return "\(d)"
    case .boolean(let b): return "\(b)"
    case .string, .array, .table: return v.kind
    }
}
