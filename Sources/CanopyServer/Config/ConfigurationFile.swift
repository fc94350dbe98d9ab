import Configuration
import Foundation
import Yams
import CanopySupport

/// The YAML configuration file (`config/canopyd.yaml`): checked against the known settings, then read as one
/// layer of the configuration reader.
///
/// swift-configuration's YAML provider reports neither unknown keys nor lines, so the file is first composed with
/// Yams (the parser that provider uses) and every key and value kind is checked here: a typo or a value of the wrong
/// kind stops the start with the file, the line and the key instead of being ignored.
struct ConfigurationFile {
    let path: String
    /// The line of every setting the file sets, by name (`server.port`).
    let lines: [String: Int]
    /// The file as the reader's layer.
    let provider: FileSnapshotProvider

    /// Reads and checks `path`.
    init(path: String) throws(ConfigurationError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError(file: path, "configuration file does not exist")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, "configuration file cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, "configuration file is not valid UTF-8")
        }
        try self.init(text: text, path: path)
    }

    /// Checks `text`, the contents of `path` (which names it in errors).
    init(text: String, path: String) throws(ConfigurationError) {
        self.path = path
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.syntaxError(error, file: path)
        } catch {
            throw ConfigurationError(file: path, "\(error)")
        }
        lines = try Self.check(root, file: path)
        let snapshot: YAMLSnapshot
        do {
            // An empty file (no document) is the defaults; YAMLSnapshot wants a mapping.
            let yaml = root == nil ? "{}" : text
            snapshot = try YAMLSnapshot(
                data: Array(yaml.utf8).span.bytes, providerName: path,
                parsingOptions: .init(secretsSpecifier: .specific(["auth.tokens"])))
        } catch {
            throw ConfigurationError(file: path, "\(error)")
        }
        provider = FileSnapshotProvider(snapshot: snapshot)
    }

    /// Every key of `root` against the settings; returns the line of each setting set.
    private static func check(_ root: Node?, file: String) throws(ConfigurationError) -> [String: Int] {
        guard let root else { return [:] }
        let sections = DaemonConfiguration.sectionNames
        let sectionList = "sections: \(sections.joined(separator: ", "))"
        guard case .mapping(let top) = root else {
            throw ConfigurationError(
                file: file, line: root.mark?.line, "expected a mapping of sections (\(sectionList))")
        }
        var lines: [String: Int] = [:]
        for (keyNode, value) in top {
            let line = keyNode.mark?.line
            let name = keyNode.scalar?.string ?? "?"
            guard sections.contains(name) else {
                if DaemonConfiguration.setting(named: name) == nil,
                    let section = DaemonConfiguration.settings.first(where: { $0.key == name })?.section
                {
                    throw ConfigurationError(
                        file: file, line: line, key: name, "settings go under their section (\(section):)")
                }
                throw ConfigurationError(file: file, line: line, key: name, "unknown section (\(sectionList))")
            }
            let keys = DaemonConfiguration.settings.filter { $0.section == name }.map(\.key)
            let keyList = "keys of \(name): \(keys.joined(separator: ", "))"
            // `server:` with nothing under it sets nothing.
            if case .scalar(let scalar) = value, Self.has(scalar, .null) { continue }
            guard case .mapping(let entries) = value else {
                throw ConfigurationError(
                    file: file, line: value.mark?.line ?? line, key: name, "expected a mapping (\(keyList))")
            }
            for (settingKey, settingValue) in entries {
                let keyLine = settingKey.mark?.line
                let settingName = name + "." + (settingKey.scalar?.string ?? "?")
                guard let setting = DaemonConfiguration.setting(named: settingName) else {
                    throw ConfigurationError(file: file, line: keyLine, key: settingName, "unknown key (\(keyList))")
                }
                lines[settingName] = keyLine ?? 0
                if let wrong = kindMismatch(settingValue, setting) {
                    throw ConfigurationError(
                        file: file, line: keyLine, key: settingName, "expected \(setting.expected), got \(wrong)")
                }
            }
        }
        return lines
    }

    /// How `node` fails to be a value of `setting`'s kind (`"a string"`, `"7700.0"`), or nil if it is one.
    private static func kindMismatch(_ node: Node, _ setting: Setting) -> String? {
        switch (setting.kind, node) {
        case (.strings, .sequence(let elements)):
            for (index, element) in elements.enumerated() {
                if case .scalar(let s) = element, Self.has(s, .str) { continue }
                return "entry \(index + 1) that is not a string (\(describe(element)))"
            }
            return nil
        case (.strings, _):
            return describe(node)
        case (_, .scalar(let scalar)):
            let fits =
                switch setting.kind {
                case .integer: has(scalar, .int)
                case .number: has(scalar, .int) || has(scalar, .float)
                case .boolean: has(scalar, .bool)
                case .string: has(scalar, .str)
                case .strings: false
                }
            return fits ? nil : describe(node)
        default:
            return describe(node)
        }
    }

    /// Whether YAML resolved `scalar` to the tag `name` (a quoted "7700" is a string, a plain 7700 an integer).
    private static func has(_ scalar: Node.Scalar, _ name: Tag.Name) -> Bool {
        Node.scalar(scalar).tag.rawValue == name.rawValue
    }

    /// A value of the wrong kind for messages: numbers and booleans as written, the rest by kind (strings could be
    /// secrets).
    private static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if has(scalar, .int) || has(scalar, .float) || has(scalar, .bool) {
                scalar.string
            } else if has(scalar, .null) {
                "nothing (null)"
            } else if has(scalar, .str) {
                "a string"
            } else {
                "a value tagged \(Node.scalar(scalar).tag)"
            }
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .alias: "an alias"
        }
    }

    /// A Yams error as one line with the file and the line of the problem.
    private static func syntaxError(_ error: YamlError, file: String) -> ConfigurationError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // libyaml notices some problems (an unclosed list) lines after they start; the context says where.
            let where_ = context.map { " (\($0.text) started on line \($0.mark.line))" } ?? ""
            return ConfigurationError(file: file, line: mark.line, "YAML syntax: \(problem)\(where_)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams names the first occurrence.
            let keys = duplicates.joined(separator: ", ")
            return ConfigurationError(
                file: file, line: context.mark.line, "repeated key \(keys) (a key may appear once)")
        case .reader(let problem, _, _, _):
            return ConfigurationError(file: file, "YAML: \(problem)")
        default:
            return ConfigurationError(file: file, "YAML: \(error)")
        }
    }
}

/// A configuration provider over one parsed file, without file watching. swift-configuration's `FileProvider` reads
/// its file in an `async` initializer; canopyd resolves its configuration synchronously before any loop runs, and
/// the file has already been read and checked here.
struct FileSnapshotProvider: ConfigProvider {
    let fileSnapshot: YAMLSnapshot

    init(snapshot: YAMLSnapshot) { fileSnapshot = snapshot }

    var providerName: String { fileSnapshot.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try fileSnapshot.value(forKey: key, type: type)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try fileSnapshot.value(forKey: key, type: type)
    }

    func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws ->
            Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { fileSnapshot }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
