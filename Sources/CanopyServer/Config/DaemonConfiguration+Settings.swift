import Configuration
import Logging
import CanopyStore
import CanopySupport

/// Why a value cannot be used, without where (the caller adds the file and line, variable or flag).
struct SettingProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One setting: where it lives in the file, the kind of value it takes, how a value is checked and stored, and how the
/// current value reads back.
struct Setting {
    /// The kind of value, which decides the reader's accessor and the YAML values accepted.
    enum Kind { case integer, number, boolean, string, strings }

    let section: String
    let key: String
    let kind: Kind
    /// What a valid value is, for messages ("an integer in 0...65535").
    let expected: String
    let apply: (inout DaemonConfiguration, ConfigContent) throws(SettingProblem) -> Void
    let read: (DaemonConfiguration) -> ConfigContent

    /// `server.port`: the key in the file and the reader.
    var name: String { section + "." + key }
    /// `CANOPY_SERVER_PORT`: the environment variable that sets it.
    var environmentName: String { "CANOPY_" + (section + "_" + key).uppercased() }
    /// Tokens are secrets: the reader and the logs do not show them.
    var isSecret: Bool { name == "auth.tokens" }
}

extension DaemonConfiguration {
    /// Every setting, in the order of `config/canopyd.yaml`.
    static var settings: [Setting] {
        [
            .string("server", "host", \.service.host, allowEmpty: false),
            .integer("server", "port", \.service.port, 0...65535),
            Setting(
                section: "server", key: "web", kind: .string, expected: "a string",
                apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                    let path = try stringValue(v, "a string")
                    c.webRoot = path.isEmpty ? nil : path
                },
                read: { .string($0.webRoot ?? "") }),
            .strings(
                "server", "allowed_origins", \.service.allowedOrigins, valid: isOrigin,
                expected: "\"*\" or an origin such as \"https://example.com:8443\" (scheme://host[:port], no path)"),
            .strings(
                "server", "allowed_hosts", \.service.allowedHosts, valid: isHostName,
                expected: "a host name as a Host header gives it, such as \"canopy.example.com\" or "
                    + "\"canopy.example.com:7700\""),
            .boolean("server", "security_headers", \.service.securityHeaders),
            .choice("server", "event_loop", \.service.eventLoop),
            .string("storage", "data", \.dataDirectory, allowEmpty: false),
            .choice("storage", "durability", \.durability),
            .integer("storage", "snapshot_every_batches", \.hub.snapshotEveryBatches, 1...10_000_000),
            .integer("storage", "snapshot_every_seconds", \.hub.snapshotEverySeconds, 1...86_400),
            .integer("storage", "keep_snapshots", \.keepSnapshots, 1...100),
            .integer("storage", "reserve_bytes", \.reserveBytes, 0...(1 << 40)),
            .integer("limits", "max_message_bytes", \.service.maxMessageBytes, 1...(1 << 30)),
            .integer("limits", "max_queue_bytes", \.service.maxQueueBytes, 1...(1 << 36)),
            .integer("limits", "max_json_depth", \.hub.maxJSONDepth, 1...4096),
            .integer("limits", "max_tree_depth", \.hub.limits.maxDepth, 1...2048),
            .integer("limits", "max_nodes", \.hub.limits.maxNodes, 1...100_000_000),
            .integer("limits", "max_modifiers", \.hub.limits.maxModifiers, 0...65535),
            .integer("limits", "fuel", \.hub.limits.fuel, 1...10_000_000_000),
            .integer("limits", "max_label_bytes", \.hub.maxLabelBytes, 16...65536),
            .integer("limits", "max_sessions_awaiting_hello", \.hub.maxSessionsAwaitingHello, 1...10_000_000),
            Setting(
                section: "limits", key: "edits_per_second", kind: .number,
                expected: "a number in 0...1000000 (0 = unlimited)",
                apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                    let number: Double? =
                        switch v {
                        case .double(let d): d
                        case .int(let n): Double(n)
                        default: nil
                        }
                    guard let number, (0.0...1_000_000.0).contains(number) else {
                        throw SettingProblem("expected a number in 0...1000000 (0 = unlimited), got \(describe(v))")
                    }
                    c.hub.editsPerSecond = number
                },
                read: { .double($0.hub.editsPerSecond) }),
            .integer("timeouts", "ping_interval", \.service.pingIntervalSeconds, 1...65535),
            .integer("timeouts", "idle", \.service.idleTimeoutSeconds, 2...65535),
            .integer("timeouts", "close", \.service.closeTimeoutSeconds, 1...3600),
            .integer("timeouts", "drain", \.service.drainTimeoutSeconds, 0...3600),
            .integer("timeouts", "hello", \.hub.helloTimeoutSeconds, 1...3600),
            .integer("history", "diff_log_length", \.hub.diffLogLength, 0...1_000_000),
            Setting(
                section: "auth", key: "tokens", kind: .strings, expected: "a list of strings",
                apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                    let specs = try stringArray(v)
                    do throws(ConfigurationError) {
                        c.hub.tokens = try tokenGrants(specs)
                    } catch {
                        throw SettingProblem(error.message)
                    }
                },
                read: { .stringArray($0.hub.tokens.map(spec(of:))) }),
            .string("examples", "directory", \.examplesDirectory, allowEmpty: true),
            .strings(
                "cluster", "servers", \.cluster.servers, valid: isNATSURL,
                expected: "a NATS server URL such as \"nats://127.0.0.1:4222\""),
            .string("cluster", "name", \.cluster.name, allowEmpty: true),
            .integer("cluster", "lease_seconds", \.cluster.leaseSeconds, 1...60),
            .integer("cluster", "replicas", \.cluster.replicas, 1...5),
            Setting(
                section: "log", key: "level", kind: .string,
                expected: "one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))",
                apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                    let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                    guard case .string(let name) = v, let level = Logger.Level(rawValue: name) else {
                        let got = if case .string(let s) = v { "\"\(s)\"" } else { describe(v) }
                        throw SettingProblem("expected one of \(names), got \(got)")
                    }
                    c.logLevel = level
                },
                read: { .string($0.logLevel.rawValue) }),
        ]
    }

    /// The sections of the file, in order.
    static var sectionNames: [String] {
        var names: [String] = []
        for setting in settings where !names.contains(setting.section) { names.append(setting.section) }
        return names
    }

    /// The setting called `name` (`server.port`), if there is one.
    static func setting(named name: String) -> Setting? {
        settings.first { $0.name == name }
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

    /// `nats://host:port` (or `tls://`), as nats.c takes it.
    static func isNATSURL(_ text: String) -> Bool {
        (text.hasPrefix("nats://") || text.hasPrefix("tls://")) && !text.contains(where: \.isWhitespace)
            && text.split(separator: "/").count == 2
    }

    /// A `Host` header's value: a name or address with an optional port, no scheme, path or spaces.
    static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("/") && !text.contains(where: \.isWhitespace)
    }
}

extension Setting {
    static func integer(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, Int>,
        _ range: ClosedRange<Int>
    ) -> Setting {
        let expected = "an integer in \(range)"
        return Setting(
            section: section, key: key, kind: .integer, expected: expected,
            apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                guard case .int(let value) = v, range.contains(value) else {
                    throw SettingProblem("expected \(expected), got \(describe(v))")
                }
                c[keyPath: path] = value
            },
            read: { .int($0[keyPath: path]) })
    }

    static func string(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, String>,
        allowEmpty: Bool
    ) -> Setting {
        let expected = allowEmpty ? "a string" : "a non-empty string"
        return Setting(
            section: section, key: key, kind: .string, expected: expected,
            apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                let value = try stringValue(v, expected)
                if value.isEmpty && !allowEmpty { throw SettingProblem("expected a non-empty string") }
                c[keyPath: path] = value
            },
            read: { .string($0[keyPath: path]) })
    }

    /// A list of strings, each of which must be `valid` (else: "entry N: expected <expected>, got …").
    static func strings(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, [String]>,
        valid: @escaping @Sendable (String) -> Bool, expected: String
    ) -> Setting {
        Setting(
            section: section, key: key, kind: .strings, expected: "a list of strings",
            apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                let entries = try stringArray(v)
                for (index, entry) in entries.enumerated() where !valid(entry) {
                    throw SettingProblem("entry \(index + 1): expected \(expected), got \"\(entry)\"")
                }
                c[keyPath: path] = entries
            },
            read: { .stringArray($0[keyPath: path]) })
    }

    /// A string naming one case of `T`: `"fsync" or "none"`.
    static func choice<T: RawRepresentable & CaseIterable>(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, T>
    ) -> Setting where T.RawValue == String {
        let names = T.allCases.map { "\"\($0.rawValue)\"" }
        let expected = names.dropLast().joined(separator: ", ") + " or " + names.last!
        return Setting(
            section: section, key: key, kind: .string, expected: expected,
            apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                let text = try stringValue(v, expected)
                guard let value = T(rawValue: text) else {
                    throw SettingProblem("expected \(expected), got \"\(text)\"")
                }
                c[keyPath: path] = value
            },
            read: { .string($0[keyPath: path].rawValue) })
    }

    static func boolean(
        _ section: String, _ key: String, _ path: WritableKeyPath<DaemonConfiguration, Bool>
    ) -> Setting {
        Setting(
            section: section, key: key, kind: .boolean, expected: "a boolean (true or false)",
            apply: { (c: inout DaemonConfiguration, v: ConfigContent) throws(SettingProblem) in
                guard case .bool(let value) = v else {
                    throw SettingProblem("expected a boolean (true or false), got \(describe(v))")
                }
                c[keyPath: path] = value
            },
            read: { .bool($0[keyPath: path]) })
    }
}

private func stringValue(_ v: ConfigContent, _ expected: String) throws(SettingProblem) -> String {
    guard case .string(let s) = v else { throw SettingProblem("expected \(expected), got \(describe(v))") }
    return s
}

private func stringArray(_ v: ConfigContent) throws(SettingProblem) -> [String] {
    guard case .stringArray(let strings) = v else {
        throw SettingProblem("expected a list of strings, got \(describe(v))")
    }
    return strings
}

/// A wrong value for messages: numbers and booleans as written, other values by their kind (strings could be
/// secrets).
func describe(_ v: ConfigContent) -> String {
    switch v {
    case .int(let n): "\(n)"
    case .double(let d): "\(d)"
    case .bool(let b): "\(b)"
    case .string: "a string"
    default: "a list"
    }
}
