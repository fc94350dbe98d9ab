import Configuration
import Foundation
import CanopySupport

/// A value given on the command line for one setting (`--port 0` sets `server.port`).
public struct FlagValue: Sendable {
    /// The flag as typed, for errors (`--port`).
    public var flag: String
    /// The setting it sets (`server.port`).
    public var setting: String
    var value: ConfigContent

    public init(_ flag: String, _ setting: String, string: String) {
        self.init(flag, setting, .string(string))
    }

    public init(_ flag: String, _ setting: String, integer: Int) {
        self.init(flag, setting, .int(integer))
    }

    public init(_ flag: String, _ setting: String, strings: [String]) {
        self.init(flag, setting, .stringArray(strings))
    }

    init(_ flag: String, _ setting: String, _ value: ConfigContent) {
        self.flag = flag
        self.setting = setting
        self.value = value
    }
}

/// Where canopyd's settings come from, highest precedence first: command-line flags, `CANOPY_*` environment
/// variables (`CANOPY_SERVER_PORT` sets `server.port`), the YAML file, the built-in defaults. `load()` reads them
/// through one swift-configuration `ConfigReader` over these four layers and checks every value; it can be called
/// again while running (`reloadableSettings()`), and reads the file anew each time.
public struct ConfigurationSources: Sendable {
    /// The YAML file, or nil for none.
    public var file: String?
    /// The process environment (only `CANOPY_<SECTION>_<KEY>` variables are read; others are ignored, since the
    /// `CANOPY_` prefix is shared with test variables).
    public var environment: [String: String]
    public var flags: [FlagValue]

    public init(file: String?, environment: [String: String] = [:], flags: [FlagValue] = []) {
        self.file = file
        self.environment = environment
        self.flags = flags
    }

    /// The environment variables that set a setting (names only: values may be secrets), for the start-up log.
    public var environmentOverrides: [String] {
        DaemonConfiguration.settings.map(\.environmentName).filter { environment[$0] != nil }
    }

    /// Reads every setting from the layers. A value of the wrong type or out of range, an unknown key or section in
    /// the file, or a YAML syntax error throws, naming the flag, the environment variable, or the file, line and key.
    /// The rule that a non-loopback bind needs tokens is left to `validate()`.
    public func load() throws(ConfigurationError) -> DaemonConfiguration {
        try load(file.map { path throws(ConfigurationError) in try ConfigurationFile(path: path) })
    }

    /// The settings a running daemon may change, read again from every layer and validated as at start. Flags
    /// and environment variables still win over the file, as at start.
    public func reloadableSettings() throws(ConfigurationError) -> ReloadableSettings {
        let configuration = try load()
        try configuration.validate()
        return configuration.reloadable
    }

    /// `load()` with the file's contents given (`file` names it in errors).
    func load(yaml text: String) throws(ConfigurationError) -> DaemonConfiguration {
        try load(ConfigurationFile(text: text, path: file ?? "(text)"))
    }

    private func load(_ file: ConfigurationFile?) throws(ConfigurationError) -> DaemonConfiguration {
        var flagValues: [String: FlagValue] = [:]
        var flagLayer: [AbsoluteConfigKey: ConfigValue] = [:]
        for flag in flags {
            guard let setting = DaemonConfiguration.setting(named: flag.setting) else {
                throw ConfigurationError(key: flag.flag, "no such setting \(flag.setting)")
            }
            flagValues[flag.setting] = flag
            flagLayer[Self.key(setting)] = ConfigValue(flag.value, isSecret: setting.isSecret)
        }
        let defaults = DaemonConfiguration()
        var defaultValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for setting in DaemonConfiguration.settings {
            defaultValues[Self.key(setting)] = ConfigValue(setting.read(defaults), isSecret: setting.isSecret)
        }
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: flagLayer),
            // Lists in a variable are separated by spaces: token tree patterns contain commas.
            EnvironmentVariablesProvider(
                environmentVariables: environment, secretsSpecifier: .specific(["CANOPY_AUTH_TOKENS"]),
                arraySeparator: " "
            ).prefixKeys(with: "canopy"),
        ]
        if let file { providers.append(file.provider) }
        providers.append(InMemoryProvider(name: "defaults", values: defaultValues))
        let reader = ConfigReader(providers: providers)

        var configuration = DaemonConfiguration()
        for setting in DaemonConfiguration.settings {
            let source = source(of: setting, flags: flagValues, file: file)
            let value: ConfigContent
            do {
                value = try Self.read(setting, from: reader)
            } catch {
                // The file's kinds were checked already, so this is a flag or an environment variable.
                var got = ""
                if case .environment(let name) = source, let raw = environment[name] {
                    got = setting.isSecret ? ", got a secret" : ", got \"\(raw)\""
                }
                throw source.error(setting, "expected \(setting.expected)\(got)")
            }
            do throws(SettingProblem) {
                try setting.apply(&configuration, value)
            } catch {
                throw source.error(setting, error.message)
            }
        }
        do {
            try configuration.checkTimeouts()
        } catch {
            // Blame `idle` where it was set, else `ping_interval`.
            let settings = ["timeouts.idle", "timeouts.ping_interval"].compactMap(DaemonConfiguration.setting(named:))
            let blamed = settings.first { source(of: $0, flags: flagValues, file: file) != .defaults } ?? settings[0]
            throw source(of: blamed, flags: flagValues, file: file).error(settings[0], error.message)
        }
        return configuration
    }

    /// The layer a setting's value comes from, in the reader's order.
    private func source(of setting: Setting, flags: [String: FlagValue], file: ConfigurationFile?) -> Source {
        if let flag = flags[setting.name] { return .flag(flag.flag) }
        if environment[setting.environmentName] != nil { return .environment(setting.environmentName) }
        if let file, let line = file.lines[setting.name] { return .file(file.path, line) }
        return .defaults
    }

    private static func key(_ setting: Setting) -> AbsoluteConfigKey {
        AbsoluteConfigKey([setting.section, setting.key])
    }

    /// The setting's value through the reader's throwing accessor for its kind: nothing falls back to a default on a
    /// wrong type.
    private static func read(_ setting: Setting, from reader: ConfigReader) throws -> ConfigContent {
        let key = ConfigKey([setting.section, setting.key])
        return switch setting.kind {
        case .integer: .int(try reader.requiredInt(forKey: key))
        case .number: .double(try reader.requiredDouble(forKey: key))
        case .boolean: .bool(try reader.requiredBool(forKey: key))
        case .string: .string(try reader.requiredString(forKey: key, isSecret: setting.isSecret))
        case .strings: .stringArray(try reader.requiredStringArray(forKey: key, isSecret: setting.isSecret))
        }
    }

    /// Where a value came from, for errors.
    private enum Source: Equatable {
        case flag(String)
        case environment(String)
        case file(String, Int)
        case defaults

        func error(_ setting: Setting, _ message: String) -> ConfigurationError {
            switch self {
            case .flag(let flag): ConfigurationError(key: flag, message)
            case .environment(let name): ConfigurationError(key: name, message)
            case .file(let path, let line): ConfigurationError(file: path, line: line, key: setting.name, message)
            case .defaults: ConfigurationError(key: setting.name, message)
            }
        }
    }
}

/// The settings a running daemon can take without a restart: who may connect, and how fast a session may edit.
public struct ReloadableSettings: Sendable, Equatable {
    public var tokens: [TokenGrant]
    public var editsPerSecond: Double
}

extension DaemonConfiguration {
    /// This configuration's reloadable settings.
    public var reloadable: ReloadableSettings {
        ReloadableSettings(tokens: hub.tokens, editsPerSecond: hub.editsPerSecond)
    }
}
