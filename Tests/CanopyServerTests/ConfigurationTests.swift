import CanopyCore
import Foundation
import Testing

@testable import CanopyServer

/// The TOML subset reader: every value kind it accepts, and every error it reports with its line. (Nested in
/// `ConfigurationTests` so that `--filter ConfigurationTests` runs it too.)
extension ConfigurationTests {
    @Suite struct TOMLReader {
        @Test func readsEveryValueKind() throws {
            let table = try TOML.parse(
                """
                basic = "caf\\u00e9 \\"quoted\\" back\\\\slash"
                literal = 'C:\\path\\no\\escapes'
                empty = ""
                int = 1_000_000
                negative = -17
                plus = +3
                zero = 0
                float = 3.25
                exponent = 6.02E+23
                small = -1_0.5e-3
                infinity = -inf
                yes = true
                no = false
                mixed = [1, "two", 3.0, false, [], ["nested"]]
                "quoted key" = 1
                'literal key' = 2
                bare-key_9 = 3
                """)
            #expect(table["basic"] == .string("café \"quoted\" back\\slash"))
            #expect(table["literal"] == .string("C:\\path\\no\\escapes"))
            #expect(table["empty"] == .string(""))
            #expect(table["int"] == .integer(1_000_000))
            #expect(table["negative"] == .integer(-17))
            #expect(table["plus"] == .integer(3))
            #expect(table["zero"] == .integer(0))
            #expect(table["float"] == .float(3.25))
            #expect(table["exponent"] == .float(6.02e23))
            #expect(table["small"] == .float(-0.0105))
            #expect(table["infinity"] == .float(-.infinity))
            #expect(table["yes"] == .boolean(true))
            #expect(table["no"] == .boolean(false))
            #expect(
                table["mixed"]
                    == .array([
                        .integer(1), .string("two"), .float(3), .boolean(false), .array([]),
                        .array([.string("nested")]),
                    ]))
            #expect(table["quoted key"] == .integer(1))
            #expect(table["literal key"] == .integer(2))
            #expect(table["bare-key_9"] == .integer(3))
            #expect(table.entries.count == 17)
        }

        @Test func readsNaNAndExtremeIntegers() throws {
            let table = try TOML.parse("n = nan\nmax = 9_223_372_036_854_775_807\nmin = -9223372036854775808\n")
            guard case .float(let n)? = table["n"] else {
                Issue.record("nan is not a float")
                return
            }
            #expect(n.isNaN)
            #expect(table["max"] == .integer(.max))
            #expect(table["min"] == .integer(.min))
        }

        @Test func decodesEveryEscape() throws {
            let table = try TOML.parse(#"s = "\"\\\b\t\n\f\r\u0041\U0001F600\u00e9""#)
            #expect(table["s"] == .string("\"\\\u{8}\t\n\u{c}\rA\u{1F600}é"))
        }

        @Test func skipsCommentsAndBlankLinesAndKeepsLineNumbers() throws {
            let table = try TOML.parse(
                """
                # a comment line

                a = 1   # a comment after a value
                   \t
                [server]   # a comment after a header
                port = 7700
                hash = "# not a comment"
                """)
            #expect(table["a"] == .integer(1))
            #expect(table.line(of: "a") == 3)
            #expect(table.line(of: "server") == 5)
            guard case .table(let server)? = table["server"] else {
                Issue.record("no [server]")
                return
            }
            #expect(server["port"] == .integer(7700))
            #expect(server.line(of: "port") == 6)
            #expect(server["hash"] == .string("# not a comment"))
            #expect(table.keys == ["a", "server"])
        }

        @Test func acceptsCRLFAndAByteOrderMark() throws {
            let table = try TOML.parse("\u{FEFF}a = 1\r\n[t]\r\nb = 'x'\r\n")
            #expect(table["a"] == .integer(1))
            guard case .table(let t)? = table["t"] else {
                Issue.record("no [t]")
                return
            }
            #expect(t["b"] == .string("x"))
            #expect(t.line(of: "b") == 3)
        }

        @Test func readsMultiLineArraysWithCommentsAndATrailingComma() throws {
            let table = try TOML.parse(
                """
                tokens = [
                    "a:admin",   # the admin
                    # a whole comment line

                    "b:viewer",
                ]
                after = [ 1 , 2 ]
                nested = [[1, 2], [
                  3,
                ],]
                """)
            #expect(table["tokens"] == .array([.string("a:admin"), .string("b:viewer")]))
            #expect(table["after"] == .array([.integer(1), .integer(2)]))
            #expect(table.line(of: "after") == 7)
            #expect(table["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.integer(3)])]))
        }

        @Test func nestsDottedHeadersAndAllowsDefiningAnImplicitParentLater() throws {
            let table = try TOML.parse(
                """
                [a.b]
                x = 1
                [ a . "c d" ]
                y = 2
                [a]
                z = 3
                """)
            guard case .table(let a)? = table["a"], case .table(let b)? = a["b"], case .table(let cd)? = a["c d"] else {
                Issue.record("tables missing: \(table)")
                return
            }
            #expect(b["x"] == .integer(1))
            #expect(cd["y"] == .integer(2))
            #expect(a["z"] == .integer(3))
            #expect(table.line(of: "a") == 1)
        }

        @Test(arguments: [
            ("a = \"abc", 1, "unterminated string (missing closing \")"),
            ("a = 'abc\nb = 1", 1, "unterminated string (missing closing ')"),
            ("a = 1\nb = 2\na = 3", 3, "duplicate key a (first defined on line 1)"),
            ("[t]\nx = 1\n\n[t]", 4, "table [t] is defined twice"),
            ("[t]\nx = 1\n[t.x]", 3, "cannot define table [t.x]: t.x is already an integer (line 2)"),
            ("[t.x]\n[t]\nx = 1", 3, "duplicate key t.x (first defined on line 1)"),
            ("a = {b = 1}", 1, "inline tables ({...}) are not supported: use a [table] header"),
            ("[[t]]", 1, "arrays of tables ([[...]]) are not supported"),
            ("a = 1 2", 1, "unexpected '2' after the value"),
            ("\na = \"x\" y", 2, "unexpected 'y' after the value"),
            ("[t] x = 1", 1, "unexpected 'x' after the table header"),
            ("a.b = 1", 1, "dotted keys are not supported"),
            ("a = \"\"\"x\"\"\"", 1, "multi-line strings are not supported"),
            ("a = 1979-05-27", 1, "dates and times are not supported (1979-05-27)"),
            ("a = 07:32:00", 1, "dates and times are not supported (07:32:00)"),
            ("a = 0x1F", 1, "hexadecimal, octal and binary integers are not supported (0x1F)"),
            ("a = 01", 1, "leading zeros are not allowed (01)"),
            ("a = 1__0", 1, "invalid number 1__0"),
            ("a = 10_", 1, "invalid number 10_"),
            ("a = 1.", 1, "invalid number 1. (a '.' needs digits on both sides)"),
            ("a = 1e", 1, "invalid number 1e (an exponent needs digits)"),
            ("a = 1.5x", 1, "invalid number 1.5x"),
            ("a = 9223372036854775808", 1, "integer 9223372036854775808 does not fit in 64 bits"),
            ("a = 1e999", 1, "float 1e999 is out of range"),
            ("a = TRUE", 1, "invalid value TRUE (strings need quotes; booleans are true and false, in lower case)"),
            ("a = \"\\x\"", 1, "invalid escape \\x"),
            ("a = \"\\u12\"", 1, "\\u needs 4 hexadecimal digits"),
            ("a = \"\\uD800\"", 1, "\\uD800 is not a Unicode scalar value"),
            ("a = \"bell\u{7}\"", 1, "control character U+0007 in a string must be written as an escape"),
            ("# bell \u{7}", 1, "control character U+0007 in a comment"),
            ("a = [1, 2\nb = 3", 2, "expected ',' or ']' in the array, found 'b' (the array opened on line 1)"),
            ("a = [1,\n2,\n", 1, "unterminated array (no closing ])"),
            ("a = [,]", 1, "expected a value or ']' in the array, found ','"),
            ("a =", 1, "expected a value, found end of file"),
            ("a = # c", 1, "expected a value, found '#'"),
            ("= 1", 1, "expected a key, found '='"),
            ("a 1", 1, "expected '=' after the key a, found '1'"),
            ("[t", 1, "expected '.' or ']' in the table header, found end of file"),
            ("[]", 1, "expected a table name, found ']'"),
            ("a = 1\rb = 2", 1, "a carriage return must be followed by a line feed"),
            ("x = 1\n\n\n[t]\ny = \"oops", 5, "unterminated string"),
        ])
        func rejectsWithTheLine(_ text: String, _ line: Int, _ fragment: String) {
            #expect {
                _ = try TOML.parse(text)
            } throws: { error in
                guard let error = error as? TOMLError else { return false }
                return error.line == line && error.message.contains(fragment)
            }
        }

        @Test func writesValuesBackAsTOML() throws {
            let value = TOMLValue.array([
                .string("a\"b\\c\n\u{1}\t"), .integer(-3), .float(2), .float(0.5), .boolean(true), .array([]),
            ])
            #expect(value.tomlText == #"["a\"b\\c\n\u0001\t", -3, 2.0, 0.5, true, []]"#)
            #expect(try TOML.parse("v = " + value.tomlText)["v"] == value)
        }
    }
}

/// `DaemonConfiguration`: the defaults, the shipped file, files and flags applied over them, and what is refused.
@Suite struct ConfigurationTests {
    /// The repository's `config/canopyd.toml`, found from this file's path.
    static let shippedFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/canopyd.toml").path

    func load(_ text: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.load(toml: text, file: "test.toml")
    }

    /// The error `text` is rejected with.
    func rejection(_ text: String) -> ConfigurationError? {
        do {
            _ = try load(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsAreTheDaemonsExistingDefaults() {
        let c = DaemonConfiguration()
        #expect(c.service.host == "127.0.0.1")
        #expect(c.service.port == 7700)
        #expect(c.service.webRoot == "web")
        #expect(c.service.allowedOrigins == [])
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
        let text = try String(contentsOfFile: Self.shippedFile, encoding: .utf8)
        let loaded = try DaemonConfiguration.load(toml: text, file: Self.shippedFile)
        #expect(loaded == DaemonConfiguration())
        #expect(loaded.summary == DaemonConfiguration().summary)
    }

    @Test func theShippedFileSetsEverySettingInOrder() throws {
        let root = try TOML.parse(try String(contentsOfFile: Self.shippedFile, encoding: .utf8))
        var names: [String] = []
        for section in root.keys {
            guard case .table(let table)? = root[section] else { continue }
            names += table.keys.map { section + "." + $0 }
        }
        #expect(names == DaemonConfiguration.settings.map(\.name))
        #expect(root.keys == DaemonConfiguration.sectionNames)
    }

    @Test func anEmptyFileIsTheDefaults() throws {
        #expect(try load("") == DaemonConfiguration())
        #expect(try load("# nothing\n\n[server]\n") == DaemonConfiguration())
    }

    @Test func aFileOverridesEverySetting() throws {
        let c = try load(
            """
            [server]
            host = "0.0.0.0"
            port = 0
            web = ""
            allowed_origins = ["https://tools.example.com:8443", "*"]
            security_headers = false
            [storage]
            data = "/var/lib/canopy"
            [limits]
            max_message_bytes = 65_536
            max_queue_bytes = 1_000_000
            max_json_depth = 600
            max_tree_depth = 100
            max_nodes = 5000
            max_modifiers = 0
            edits_per_second = 12.5
            [timeouts]
            ping_interval = 10
            idle = 11
            close = 1
            drain = 0
            [history]
            diff_log_length = 0
            [auth]
            tokens = ["s3cret:editor", "t3:viewer:demo*,shared"]
            [examples]
            directory = ""
            [log]
            level = "trace"
            """)
        #expect(c.service.host == "0.0.0.0")
        #expect(c.service.port == 0)
        #expect(c.service.webRoot == nil)
        #expect(c.service.allowedOrigins == ["https://tools.example.com:8443", "*"])
        #expect(c.service.securityHeaders == false)
        #expect(c.dataDirectory == "/var/lib/canopy")
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
        let c = try load("[limits]\nmax_nodes = 10\n[log]\nlevel = 'error'\n")
        var expected = DaemonConfiguration()
        expected.hub.limits.maxNodes = 10
        expected.logLevel = .error
        #expect(c == expected)
    }

    @Test func anIntegerIsAcceptedForEditsPerSecond() throws {
        #expect(try load("[limits]\nedits_per_second = 20").hub.editsPerSecond == 20)
    }

    @Test func anOutOfRangeValueNamesFileLineAndKey() {
        let error = rejection("[server]\nport = 70000\n")
        #expect(error?.description == "test.toml:2: server.port: expected an integer in 0...65535, got 70000")
        #expect(error?.key == "server.port")
        #expect(error?.line == 2)
    }

    @Test(arguments: [
        ("[server]\nport = \"7700\"", "test.toml:2: server.port: expected an integer in 0...65535, got a string"),
        ("[server]\nport = 7700.0", "test.toml:2: server.port: expected an integer in 0...65535, got 7700.0"),
        ("[server]\nhost = \"\"", "test.toml:2: server.host: expected a non-empty string"),
        (
            "[server]\nsecurity_headers = 1",
            "test.toml:2: server.security_headers: expected a boolean (true or false), got 1"
        ),
        (
            "[server]\nallowed_origins = \"*\"",
            "test.toml:2: server.allowed_origins: expected an array of strings, got a string"
        ),
        (
            "[server]\nallowed_origins = [\"*\", 3]",
            "test.toml:2: server.allowed_origins: entry 2: expected a string, got 3"
        ),
        (
            "[server]\nallowed_origins = [\"https://x.example/\"]",
            "test.toml:2: server.allowed_origins: entry 1: expected \"*\" or an origin such as \"https://example.com:8443\" (scheme://host[:port], no path), got \"https://x.example/\""
        ),
        ("[storage]\ndata = \"\"", "test.toml:2: storage.data: expected a non-empty string"),
        (
            "[limits]\nmax_message_bytes = 0",
            "test.toml:2: limits.max_message_bytes: expected an integer in 1...1073741824, got 0"
        ),
        (
            "[limits]\nmax_queue_bytes = -1",
            "test.toml:2: limits.max_queue_bytes: expected an integer in 1...68719476736, got -1"
        ),
        (
            "[limits]\nmax_json_depth = 5000",
            "test.toml:2: limits.max_json_depth: expected an integer in 1...4096, got 5000"
        ),
        ("[limits]\nmax_tree_depth = 0", "test.toml:2: limits.max_tree_depth: expected an integer in 1...2048, got 0"),
        (
            "[limits]\nmax_nodes = 100_000_001",
            "test.toml:2: limits.max_nodes: expected an integer in 1...100000000, got 100000001"
        ),
        ("[limits]\nmax_modifiers = -1", "test.toml:2: limits.max_modifiers: expected an integer in 0...65535, got -1"),
        (
            "[limits]\nedits_per_second = -0.5",
            "test.toml:2: limits.edits_per_second: expected a number in 0...1000000 (0 = unlimited), got -0.5"
        ),
        (
            "[limits]\nedits_per_second = nan",
            "test.toml:2: limits.edits_per_second: expected a number in 0...1000000 (0 = unlimited), got nan"
        ),
        (
            "[timeouts]\nping_interval = 0",
            "test.toml:2: timeouts.ping_interval: expected an integer in 1...65535, got 0"
        ),
        ("[timeouts]\nclose = 0", "test.toml:2: timeouts.close: expected an integer in 1...3600, got 0"),
        ("[timeouts]\ndrain = 3601", "test.toml:2: timeouts.drain: expected an integer in 0...3600, got 3601"),
        ("[timeouts]\nidle = 30", "test.toml:2: timeouts.idle: must exceed timeouts.ping_interval (30), got 30"),
        (
            "[timeouts]\nidle = 90\n\nping_interval = 90",
            "test.toml:2: timeouts.idle: must exceed timeouts.ping_interval (90), got 90"
        ),
        (
            "[history]\ndiff_log_length = -1",
            "test.toml:2: history.diff_log_length: expected an integer in 0...1000000, got -1"
        ),
        ("[auth]\ntokens = \"a:admin\"", "test.toml:2: auth.tokens: expected an array of strings, got a string"),
        (
            "[auth]\ntokens = [\n\"a:admin\",\n\"b:boss\"]",
            "test.toml:2: auth.tokens: entry 2: unknown role \"boss\" (expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin)"
        ),
        ("[examples]\ndirectory = false", "test.toml:2: examples.directory: expected a string, got false"),
        (
            "[log]\nlevel = \"verbose\"",
            "test.toml:2: log.level: expected one of trace, debug, info, notice, warning, error, critical, got \"verbose\""
        ),
        (
            "[log]\nlevel = 3",
            "test.toml:2: log.level: expected one of trace, debug, info, notice, warning, error, critical, got 3"
        ),
    ])
    func rejectsABadValueNamingTheKey(_ text: String, _ message: String) {
        #expect(rejection(text)?.description == message)
    }

    @Test func rejectsUnknownTablesAndKeys() {
        #expect(
            rejection("[server]\nport = 1\nprot = 2\n")?.description
                == "test.toml:3: server.prot: unknown key (keys of [server]: host, port, web, allowed_origins, security_headers)"
        )
        #expect(
            rejection("\n[serve]\nport = 1\n")?.description
                == "test.toml:2: unknown table [serve] (tables: server, storage, limits, timeouts, history, auth, examples, log)"
        )
        #expect(
            rejection("[server.tls]\ncert = 'x'\n")?.description
                == "test.toml:1: unknown table [server.tls] (keys of [server]: host, port, web, allowed_origins, security_headers)"
        )
        #expect(
            rejection("port = 7700\n")?.description
                == "test.toml:1: port: settings go under a table header such as [server] (tables: server, storage, limits, timeouts, history, auth, examples, log)"
        )
    }

    @Test func aSyntaxErrorNamesFileAndLine() {
        let error = rejection("[server]\nport = 77 00\n")
        #expect(error?.description.hasPrefix("test.toml:2: unexpected '0' after the value") == true)
        #expect(error?.key == nil)
    }

    /// Proves every setting is read (none is silently ignored): a value of the wrong type is refused naming it.
    @Test func everySettingIsReadAndTypeChecked() {
        for setting in DaemonConfiguration.settings {
            let wrong = setting.key == "security_headers" ? "1" : "true"
            let error = rejection("[\(setting.section)]\n\(setting.key) = \(wrong)\n")
            #expect(error?.key == setting.name, "\(setting.name): \(String(describing: error))")
            #expect(error?.line == 2)
        }
    }

    @Test func setAppliesOneSettingWithTheSameChecks() throws {
        var c = DaemonConfiguration()
        try c.set("server.port", to: .integer(0))
        try c.set("auth.tokens", to: .array([.string("k:admin")]))
        try c.set("log.level", to: .string("warning"))
        #expect(c.service.port == 0)
        #expect(c.hub.tokens == [TokenGrant(token: "k", role: .admin)])
        #expect(c.logLevel.rawValue == "warning")
        #expect(throws: ConfigurationError(key: "server.port", "expected an integer in 0...65535, got -1")) {
            try c.set("server.port", to: .integer(-1))
        }
        #expect(throws: ConfigurationError(key: "server.nope", "no such setting")) {
            try c.set("server.nope", to: .integer(1))
        }
        #expect(c.service.port == 0)
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
        // Loading alone does not refuse it: the tokens may still come from --token.
        #expect(try load("[server]\nhost = \"0.0.0.0\"").service.host == "0.0.0.0")
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
        let c = try load("[auth]\ntokens = ['very-secret:admin:x*']\n[server]\nhost = '::1'")
        let summary = c.summary
        #expect(summary.count == DaemonConfiguration.settings.count)
        #expect(summary.contains("server.host = \"::1\""))
        #expect(summary.contains("auth.tokens = [\"***:admin\"]"))
        #expect(summary.contains("limits.edits_per_second = 0.0"))
        #expect(!summary.joined().contains("very-secret"))
    }

    @Test func errorsDescribeWhatTheyKnow() {
        #expect(ConfigurationError(file: "f.toml", line: 3, key: "a.b", "bad").description == "f.toml:3: a.b: bad")
        #expect(ConfigurationError(file: "f.toml", "bad").description == "f.toml: bad")
        #expect(ConfigurationError(line: 4, "bad").description == "line 4: bad")
        #expect(ConfigurationError(key: "--port", "bad").description == "--port: bad")
        #expect(ConfigurationError("bad").description == "bad")
    }
}
