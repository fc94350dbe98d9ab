import CanopyCore
import Foundation
import Testing
import Yams

@testable import CanopyServer
import CanopySupport

/// `DaemonConfiguration`: the defaults, the shipped file, the layers (flags, environment, file) over them, and what
/// is refused.
@Suite struct ConfigurationTests {
    /// The repository's `config/canopyd.yaml`, found from this file's path.
    static let shippedFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/canopyd.yaml").path

    func load(
        _ text: String, environment: [String: String] = [:], flags: [FlagValue] = []
    ) throws(ConfigurationError) -> DaemonConfiguration {
        try ConfigurationSources(file: "test.yaml", environment: environment, flags: flags).load(yaml: text)
    }

    /// The error `text` (with these layers over it) is rejected with.
    func rejection(
        _ text: String, environment: [String: String] = [:], flags: [FlagValue] = []
    ) -> ConfigurationError? {
        do {
            _ = try load(text, environment: environment, flags: flags)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsAreTheDaemonsExistingDefaults() {
        let c = DaemonConfiguration()
        #expect(c.service.host == "127.0.0.1")
        #expect(c.service.port == 7700)
        #expect(c.webRoot == "web")
        #expect(c.service.allowedOrigins == [])
        #expect(c.service.allowedHosts == [])
        #expect(c.service.securityHeaders)
        #expect(c.service.maxMessageBytes == 1 << 20)
        #expect(c.service.maxQueueBytes == 16 << 20)
        #expect(c.service.pingIntervalSeconds == 30)
        #expect(c.service.idleTimeoutSeconds == 60)
        #expect(c.service.closeTimeoutSeconds == 5)
        #expect(c.service.drainTimeoutSeconds == 3)
        #expect(c.hub.tokens == [])
        #expect(c.hub.limits == Limits.default)
        #expect(c.hub.maxJSONDepth == HubConfiguration().maxJSONDepth)
        #expect(c.hub.diffLogLength == 1000)
        #expect(c.hub.editsPerSecond == 0)
        #expect(c.dataDirectory == "data")
        #expect(c.examplesDirectory == "config/examples")
        #expect(c.logLevel.rawValue == "info")
        #expect(throws: Never.self) { try c.validate() }
    }

    @Test func theShippedFileIsExactlyTheDefaults() throws {
        let loaded = try ConfigurationSources(file: Self.shippedFile).load()
        #expect(loaded == DaemonConfiguration())
        #expect(loaded.summary == DaemonConfiguration().summary)
    }

    @Test func theShippedFileSetsEverySettingInOrder() throws {
        let text = try String(contentsOfFile: Self.shippedFile, encoding: .utf8)
        guard case .mapping(let root)? = try Yams.compose(yaml: text) else {
            Issue.record("the shipped file is not a mapping")
            return
        }
        var names: [String] = []
        var sections: [String] = []
        for (section, value) in root {
            sections.append(section.string ?? "?")
            guard case .mapping(let entries) = value else { continue }
            names += entries.keys.map { (section.string ?? "?") + "." + ($0.string ?? "?") }
        }
        #expect(names == DaemonConfiguration.settings.map(\.name))
        #expect(sections == DaemonConfiguration.sectionNames)
    }

    @Test func anEmptyFileIsTheDefaults() throws {
        #expect(try load("") == DaemonConfiguration())
        #expect(try load("# nothing\n\nserver:\n") == DaemonConfiguration())
    }

    @Test func aFileOverridesEverySetting() throws {
        let c = try load(
            """
            server:
              host: "0.0.0.0"
              port: 0
              web: ""
              allowed_origins: ["https://tools.example.com:8443", "*"]
              allowed_hosts: ["canopy.example.com:7700"]
              security_headers: false
              event_loop: poll
            storage:
              data: /var/lib/canopy
              durability: none
              snapshot_every_batches: 7
              snapshot_every_seconds: 8
              keep_snapshots: 9
            limits:
              max_message_bytes: 65_536
              max_queue_bytes: 1000000
              max_json_depth: 600
              max_tree_depth: 100
              max_nodes: 5000
              max_modifiers: 0
              edits_per_second: 12.5
            timeouts:
              ping_interval: 10
              idle: 11
              close: 1
              drain: 0
            history:
              diff_log_length: 0
            auth:
              tokens:
                - "s3cret:editor"
                - "t3:viewer:demo*,shared"
            examples:
              directory: ""
            log:
              level: trace
            """)
        #expect(c.service.host == "0.0.0.0")
        #expect(c.service.port == 0)
        #expect(c.webRoot == nil)
        #expect(c.service.allowedOrigins == ["https://tools.example.com:8443", "*"])
        #expect(c.service.allowedHosts == ["canopy.example.com:7700"])
        #expect(c.service.securityHeaders == false)
        #expect(c.service.eventLoop == .poll)
        #expect(c.dataDirectory == "/var/lib/canopy")
        #expect(c.durability == .none)
        #expect(c.hub.snapshotEveryBatches == 7)
        #expect(c.hub.snapshotEverySeconds == 8)
        #expect(c.keepSnapshots == 9)
        #expect(c.service.maxMessageBytes == 65_536)
        #expect(c.service.maxQueueBytes == 1_000_000)
        #expect(c.hub.maxJSONDepth == 600)
        #expect(c.hub.limits == Limits(maxDepth: 100, maxNodes: 5000, maxModifiers: 0))
        #expect(c.hub.editsPerSecond == 12.5)
        #expect(c.service.pingIntervalSeconds == 10)
        #expect(c.service.idleTimeoutSeconds == 11)
        #expect(c.service.closeTimeoutSeconds == 1)
        #expect(c.service.drainTimeoutSeconds == 0)
        #expect(c.hub.diffLogLength == 0)
        #expect(
            c.hub.tokens == [
                TokenGrant(token: "s3cret", role: .editor),
                TokenGrant(token: "t3", role: .viewer, trees: ["demo*", "shared"]),
            ])
        #expect(c.examplesDirectory == "")
        #expect(c.logLevel.rawValue == "trace")
        #expect(throws: Never.self) { try c.validate() }
        #expect(c != DaemonConfiguration())
    }

    @Test func settingsTheFileLeavesOutKeepTheirDefaults() throws {
        let c = try load("limits:\n  max_nodes: 10\nlog:\n  level: 'error'\n")
        var expected = DaemonConfiguration()
        expected.hub.limits.maxNodes = 10
        expected.logLevel = .error
        #expect(c == expected)
    }

    @Test func anIntegerIsAcceptedForEditsPerSecond() throws {
        #expect(try load("limits:\n  edits_per_second: 20").hub.editsPerSecond == 20)
    }

    @Test func anOutOfRangeValueNamesFileLineAndKey() {
        let error = rejection("server:\n  port: 70000\n")
        #expect(error?.description == "test.yaml:2: server.port: expected an integer in 0...65535, got 70000")
        #expect(error?.key == "server.port")
        #expect(error?.line == 2)
    }

    @Test(arguments: [
        ("server:\n  port: \"7700\"", "test.yaml:2: server.port: expected an integer in 0...65535, got a string"),
        ("server:\n  port: 7700.0", "test.yaml:2: server.port: expected an integer in 0...65535, got 7700.0"),
        ("server:\n  port:", "test.yaml:2: server.port: expected an integer in 0...65535, got nothing (null)"),
        ("server:\n  host: \"\"", "test.yaml:2: server.host: expected a non-empty string"),
        ("server:\n  host: 8080", "test.yaml:2: server.host: expected a non-empty string, got 8080"),
        (
            "server:\n  security_headers: 1",
            "test.yaml:2: server.security_headers: expected a boolean (true or false), got 1"
        ),
        (
            "server:\n  allowed_origins: \"*\"",
            "test.yaml:2: server.allowed_origins: expected a list of strings, got a string"
        ),
        (
            "server:\n  allowed_hosts: [\"http://canopy.example\"]",
            "test.yaml:2: server.allowed_hosts: entry 1: expected a host name as a Host header gives it, such as "
                + "\"canopy.example.com\" or \"canopy.example.com:7700\", got \"http://canopy.example\""
        ),
        (
            "server:\n  allowed_origins: [\"*\", 3]",
            "test.yaml:2: server.allowed_origins: expected a list of strings, got entry 2 that is not a string (3)"
        ),
        (
            "server:\n  allowed_origins: [\"https://x.example/\"]",
            "test.yaml:2: server.allowed_origins: entry 1: expected \"*\" or an origin such as \"https://example.com:8443\" (scheme://host[:port], no path), got \"https://x.example/\""
        ),
        ("storage:\n  data: \"\"", "test.yaml:2: storage.data: expected a non-empty string"),
        (
            "storage:\n  durability: always",
            "test.yaml:2: storage.durability: expected \"fsync\" or \"none\", got \"always\""
        ),
        (
            "server:\n  event_loop: epoll",
            "test.yaml:2: server.event_loop: expected \"poll\" or \"libuv\", got \"epoll\""
        ),
        (
            "limits:\n  max_message_bytes: 0",
            "test.yaml:2: limits.max_message_bytes: expected an integer in 1...1073741824, got 0"
        ),
        (
            "limits:\n  max_queue_bytes: -1",
            "test.yaml:2: limits.max_queue_bytes: expected an integer in 1...68719476736, got -1"
        ),
        (
            "limits:\n  max_json_depth: 5000",
            "test.yaml:2: limits.max_json_depth: expected an integer in 1...4096, got 5000"
        ),
        ("limits:\n  max_tree_depth: 0", "test.yaml:2: limits.max_tree_depth: expected an integer in 1...2048, got 0"),
        (
            "limits:\n  max_nodes: 100_000_001",
            "test.yaml:2: limits.max_nodes: expected an integer in 1...100000000, got 100000001"
        ),
        ("limits:\n  max_modifiers: -1", "test.yaml:2: limits.max_modifiers: expected an integer in 0...65535, got -1"),
        (
            "limits:\n  edits_per_second: -0.5",
            "test.yaml:2: limits.edits_per_second: expected a number in 0...1000000 (0 = unlimited), got -0.5"
        ),
        (
            "limits:\n  edits_per_second: .nan",
            "test.yaml:2: limits.edits_per_second: expected a number in 0...1000000 (0 = unlimited), got nan"
        ),
        (
            "timeouts:\n  ping_interval: 0",
            "test.yaml:2: timeouts.ping_interval: expected an integer in 1...65535, got 0"
        ),
        ("timeouts:\n  close: 0", "test.yaml:2: timeouts.close: expected an integer in 1...3600, got 0"),
        ("timeouts:\n  drain: 3601", "test.yaml:2: timeouts.drain: expected an integer in 0...3600, got 3601"),
        ("timeouts:\n  idle: 30", "test.yaml:2: timeouts.idle: must exceed timeouts.ping_interval (30), got 30"),
        (
            "timeouts:\n  idle: 90\n\n  ping_interval: 90",
            "test.yaml:2: timeouts.idle: must exceed timeouts.ping_interval (90), got 90"
        ),
        (
            "timeouts:\n  ping_interval: 90",
            "test.yaml:2: timeouts.idle: must exceed timeouts.ping_interval (90), got 60"
        ),
        (
            "history:\n  diff_log_length: -1",
            "test.yaml:2: history.diff_log_length: expected an integer in 0...1000000, got -1"
        ),
        ("auth:\n  tokens: \"a:admin\"", "test.yaml:2: auth.tokens: expected a list of strings, got a string"),
        (
            "auth:\n  tokens:\n    - a:admin\n    - b:boss",
            "test.yaml:2: auth.tokens: entry 2: unknown role \"boss\" (expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin)"
        ),
        ("examples:\n  directory: false", "test.yaml:2: examples.directory: expected a string, got false"),
        (
            "log:\n  level: verbose",
            "test.yaml:2: log.level: expected one of trace, debug, info, notice, warning, error, critical, got \"verbose\""
        ),
        (
            "log:\n  level: 3",
            "test.yaml:2: log.level: expected one of trace, debug, info, notice, warning, error, critical, got 3"
        ),
    ])
    func rejectsABadValueNamingTheKey(_ text: String, _ message: String) {
        #expect(rejection(text)?.description == message)
    }

    @Test func rejectsUnknownSectionsKeysAndRepeats() {
        #expect(
            rejection("server:\n  port: 1\n  prot: 2\n")?.description
                == "test.yaml:3: server.prot: unknown key (keys of server: host, port, web, allowed_origins, allowed_hosts, security_headers, event_loop)"
        )
        #expect(
            rejection("\nserve:\n  port: 1\n")?.description
                == "test.yaml:2: serve: unknown section (sections: server, storage, limits, timeouts, history, auth, examples, cluster, log)"
        )
        #expect(
            rejection("server:\n  tls:\n    cert: x\n")?.description
                == "test.yaml:2: server.tls: unknown key (keys of server: host, port, web, allowed_origins, allowed_hosts, security_headers, event_loop)"
        )
        #expect(
            rejection("port: 7700\n")?.description == "test.yaml:1: port: settings go under their section (server:)")
        #expect(
            rejection("server: 7700\n")?.description
                == "test.yaml:1: server: expected a mapping (keys of server: host, port, web, allowed_origins, allowed_hosts, security_headers, event_loop)"
        )
        #expect(
            rejection("server:\n  port: 1\n  port: 2\n")?.description
                == "test.yaml:2: repeated key port (a key may appear once)")
        #expect(
            rejection("log:\n  level: info\nserver: {}\nlog: {}\n")?.description
                == "test.yaml:1: repeated key log (a key may appear once)")
        #expect(
            rejection("- server\n")?.description.hasPrefix("test.yaml:1: expected a mapping of sections") == true)
    }

    @Test func aSyntaxErrorNamesFileAndLine() {
        let error = rejection("server:\n  port: 7700\n  host: [unclosed\nlog:\n  level: info\n")
        #expect(error?.file == "test.yaml")
        #expect(error?.line == 4, "\(String(describing: error))")
        #expect(
            error?.description
                == "test.yaml:4: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence started on line 3)"
        )
        #expect(error?.key == nil)
        let tab = rejection("server:\n\tport: 1\n")
        #expect(tab?.file == "test.yaml")
        #expect(tab?.line == 2, "\(String(describing: tab))")
    }

    /// Proves every setting is read and type-checked (none is silently ignored or silently defaulted): a value of the
    /// wrong kind is refused naming it.
    @Test func everySettingIsReadAndTypeChecked() {
        for setting in DaemonConfiguration.settings {
            let wrong = setting.kind == .boolean ? "1" : "true"
            let error = rejection("\(setting.section):\n  \(setting.key): \(wrong)\n")
            #expect(error?.key == setting.name, "\(setting.name): \(String(describing: error))")
            #expect(error?.line == 2)
        }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: ConfigurationError(file: "/nonexistent/canopyd.yaml", "configuration file does not exist")) {
            try ConfigurationSources(file: "/nonexistent/canopyd.yaml").load()
        }
        #expect(throws: Never.self) { try ConfigurationSources(file: nil).load() }
    }

    // MARK: Layers

    @Test func theEnvironmentOverridesTheFileAndFlagsOverrideBoth() throws {
        let file = "server:\n  port: 7000\n  host: ::1\nlimits:\n  max_message_bytes: 100\n"
        let environment = [
            "CANOPY_SERVER_PORT": "7100", "CANOPY_LIMITS_MAX_MESSAGE_BYTES": "200",
            "CANOPY_AUTH_TOKENS": "a:admin b:viewer:x*,y", "CANOPY_SERVER_SECURITY_HEADERS": "false",
            "CANOPY_LIMITS_EDITS_PER_SECOND": "2.5", "CANOPY_TEST_SEED": "not a setting",
            "CANOPY_SERVER_EVENT_LOOP": "poll",
        ]
        let fromEnvironment = try load(file, environment: environment)
        #expect(fromEnvironment.service.port == 7100)
        #expect(fromEnvironment.service.host == "::1")
        #expect(fromEnvironment.service.maxMessageBytes == 200)
        #expect(fromEnvironment.service.securityHeaders == false)
        #expect(fromEnvironment.hub.editsPerSecond == 2.5)
        #expect(fromEnvironment.service.eventLoop == .poll)
        #expect(
            fromEnvironment.hub.tokens == [
                TokenGrant(token: "a", role: .admin), TokenGrant(token: "b", role: .viewer, trees: ["x*", "y"]),
            ])
        let flags = [
            FlagValue("--port", "server.port", integer: 0), FlagValue("--token", "auth.tokens", strings: ["k:editor"]),
        ]
        let fromFlags = try load(file, environment: environment, flags: flags)
        #expect(fromFlags.service.port == 0)
        #expect(fromFlags.hub.tokens == [TokenGrant(token: "k", role: .editor)])
        #expect(fromFlags.service.maxMessageBytes == 200)
        #expect(
            try load("", flags: [FlagValue("--host", "server.host", string: "localhost")]).service.host == "localhost")
    }

    @Test func aBadFlagOrVariableIsNamed() {
        #expect(
            rejection("", flags: [FlagValue("--port", "server.port", integer: -1)])?.description
                == "--port: expected an integer in 0...65535, got -1")
        #expect(
            rejection("", flags: [FlagValue("--log-level", "log.level", string: "loud")])?.description
                == "--log-level: expected one of trace, debug, info, notice, warning, error, critical, got \"loud\"")
        #expect(
            rejection("", flags: [FlagValue("--nope", "server.nope", integer: 1)])?.description
                == "--nope: no such setting server.nope")
        // A variable wins over the file even when it is wrong: the error names it, not the file.
        #expect(
            rejection("server:\n  port: 1\n", environment: ["CANOPY_SERVER_PORT": "seventy"])?.description
                == "CANOPY_SERVER_PORT: expected an integer in 0...65535, got \"seventy\"")
        #expect(
            rejection("", environment: ["CANOPY_SERVER_PORT": "70000"])?.description
                == "CANOPY_SERVER_PORT: expected an integer in 0...65535, got 70000")
        #expect(
            rejection("", environment: ["CANOPY_TIMEOUTS_IDLE": "10"])?.description
                == "CANOPY_TIMEOUTS_IDLE: must exceed timeouts.ping_interval (30), got 10")
        let secret = rejection("", environment: ["CANOPY_AUTH_TOKENS": "very-secret"])
        #expect(secret?.key == "CANOPY_AUTH_TOKENS")
        #expect(secret?.description.contains("very-secret") == false)
    }

    // MARK: Reloading

    @Test func reloadableSettingsReadTheFileAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-config-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("canopyd.yaml").path
        try "auth:\n  tokens: [\"a:admin\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let sources = ConfigurationSources(file: path)
        #expect(
            try sources.load().reloadable
                == ReloadableSettings(tokens: [TokenGrant(token: "a", role: .admin)], editsPerSecond: 0))

        try "auth:\n  tokens: [\"b:viewer:x*\"]\nlimits:\n  edits_per_second: 50\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(
            try sources.reloadableSettings()
                == ReloadableSettings(
                    tokens: [TokenGrant(token: "b", role: .viewer, trees: ["x*"])], editsPerSecond: 50))

        // Flags still win, as at start.
        let flagged = ConfigurationSources(
            file: path, flags: [FlagValue("--token", "auth.tokens", strings: ["f:editor"])])
        #expect(try flagged.reloadableSettings().tokens == [TokenGrant(token: "f", role: .editor)])

        // A broken file is refused with its line; the caller keeps what it has.
        try "auth:\n  tokens: [\"b:viewer\"]\n  tokenz: []\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try sources.reloadableSettings() }
        do {
            _ = try sources.reloadableSettings()
        } catch {
            #expect(error.file == path)
            #expect(error.line == 3)
            #expect(error.key == "auth.tokenz")
        }
    }

    @Test func validateRefusesANonLoopbackBindWithoutTokens() throws {
        var c = DaemonConfiguration()
        c.service.host = "0.0.0.0"
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do {
            try c.validate()
        } catch {
            #expect(error.description.hasPrefix("refusing to bind 0.0.0.0 without tokens"))
        }
        c.hub.tokens = [TokenGrant(token: "t", role: .viewer)]
        try c.validate()
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            var loopback = DaemonConfiguration()
            loopback.service.host = host
            #expect(throws: Never.self) { try loopback.validate() }
        }
        // Whichever layer sets the host.
        let fromEnvironment = try load("", environment: ["CANOPY_SERVER_HOST": "0.0.0.0"])
        #expect(fromEnvironment.service.host == "0.0.0.0")
        #expect(throws: ConfigurationError.self) { try fromEnvironment.validate() }
        // Loading alone does not refuse it: the tokens may still come from --token.
        #expect(try load("server:\n  host: \"0.0.0.0\"").service.host == "0.0.0.0")
    }

    @Test func validateChecksValuesSetInCode() {
        var c = DaemonConfiguration()
        c.service.idleTimeoutSeconds = 70_000
        #expect(throws: ConfigurationError(key: "timeouts.idle", "expected an integer in 2...65535, got 70000")) {
            try c.validate()
        }
        c = DaemonConfiguration()
        c.service.idleTimeoutSeconds = 20
        #expect(throws: ConfigurationError(key: "timeouts.idle", "must exceed timeouts.ping_interval (30), got 20")) {
            try c.validate()
        }
        c = DaemonConfiguration()
        c.hub.tokens = [TokenGrant(token: "a", role: .admin), TokenGrant(token: "a", role: .viewer)]
        #expect(throws: ConfigurationError(key: "auth.tokens", "entry 2 repeats the token of entry 1")) {
            try c.validate()
        }
    }

    @Test(arguments: [
        ("secret:editor", TokenGrant(token: "secret", role: .editor)),
        ("admin-token:admin", TokenGrant(token: "admin-token", role: .admin)),
        ("t3:viewer:demo*,shared", TokenGrant(token: "t3", role: .viewer, trees: ["demo*", "shared"])),
        ("t4:viewer:a:b", TokenGrant(token: "t4", role: .viewer, trees: ["a:b"])),
    ])
    func parsesTokenSpecs(_ spec: String, _ grant: TokenGrant) throws {
        #expect(try DaemonConfiguration.tokenGrant(spec) == grant)
        #expect(DaemonConfiguration.spec(of: grant) == spec)
    }

    @Test(arguments: [
        ("secret", "expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin"),
        (":admin", "expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin"),
        ("s:Admin", "unknown role \"Admin\" (expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin)"),
        ("s:", "unknown role \"\" (expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin)"),
        (
            "s:viewer:",
            "empty tree pattern (expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin; leave out the last ':' to grant every tree)"
        ),
        (
            "s:viewer:a,,b",
            "empty tree pattern (expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin; leave out the last ':' to grant every tree)"
        ),
    ])
    func rejectsBadTokenSpecs(_ spec: String, _ message: String) {
        #expect(throws: ConfigurationError(message)) { try DaemonConfiguration.tokenGrant(spec) }
    }

    @Test func numbersTokenEntriesAndRefusesARepeatedToken() throws {
        #expect(try DaemonConfiguration.tokenGrants(["a:admin", "b:viewer:x"]).map(\.token) == ["a", "b"])
        #expect(throws: ConfigurationError("entry 3 repeats the token of entry 1")) {
            try DaemonConfiguration.tokenGrants(["a:admin", "b:viewer", "a:editor"])
        }
        #expect(
            throws: ConfigurationError("entry 2: expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin")
        ) {
            try DaemonConfiguration.tokenGrants(["a:admin", "b"])
        }
    }

    @Test func theSummaryListsEverySettingAndHidesTokens() throws {
        let c = try load("auth:\n  tokens: ['very-secret:admin:x*']\nserver:\n  host: '::1'")
        let summary = c.summary
        #expect(summary.count == DaemonConfiguration.settings.count)
        #expect(summary.contains("server.host = \"::1\""))
        #expect(summary.contains("auth.tokens = [\"***:admin\"]"))
        #expect(summary.contains("limits.edits_per_second = 0.0"))
        #expect(!summary.joined().contains("very-secret"))
    }

    @Test func errorsDescribeWhatTheyKnow() {
        #expect(ConfigurationError(file: "f.yaml", line: 3, key: "a.b", "bad").description == "f.yaml:3: a.b: bad")
        #expect(ConfigurationError(file: "f.yaml", "bad").description == "f.yaml: bad")
        #expect(ConfigurationError(line: 4, "bad").description == "line 4: bad")
        #expect(ConfigurationError(key: "--port", "bad").description == "--port: bad")
        #expect(ConfigurationError("bad").description == "bad")
    }
}
