import Testing

@testable import CanopyLoad
import CanopySupport

/// `canopy load` refuses options that make no sense before it connects anywhere, naming the flag and the value.
@Suite struct LoadConfigurationTests {
    @Test func theDefaultsAreValid() throws {
        let c = LoadConfiguration()
        try c.validate()
        #expect(c.writerCount == 1)
        #expect(c.inFlightCount == 1)
        #expect(c.opMix == OpMix(weights: [.set: 100]))
        #expect(c.rate == nil)
    }

    static let invalid: [(String, @Sendable (inout LoadConfiguration) -> Void, String)] = [
        ("negative clients", { $0.clients = -1 }, "--clients must be between 0 and 20000 (got -1)"),
        ("too many clients", { $0.clients = 20_001 }, "--clients must be between 0 and 20000 (got 20001)"),
        ("no writers", { $0.writers = 0 }, "--writers must be between 1 and 10000 (got 0)"),
        ("zero trees", { $0.trees = 0 }, "--trees must be between 1 and 20000 (got 0)"),
        (
            "trees with --tree",
            {
                $0.tree = "demo"
                $0.trees = 3
            }, "--tree edits one existing tree: leave out --trees"
        ),
        ("zero nodes", { $0.nodes = 0 }, "--nodes must be between 1 and 2000000 (got 0)"),
        ("zero fanout", { $0.fanout = 0 }, "--fanout must be between 1 and 10000 (got 0)"),
        (
            "a balanced tree too deep",
            {
                $0.fanout = 1
                $0.nodes = 1000
            },
            "--fanout 1 makes a balanced tree of 1000 nodes 999 levels deep; the daemon allows 256"
        ),
        ("zero rate", { $0.rate = 0 }, "--rate must be a positive number of edits per second (got 0.0)"),
        (
            "rate and in-flight",
            {
                $0.rate = 100
                $0.inFlight = 4
            }, "--rate (open loop) and --in-flight (closed loop) exclude each other"
        ),
        ("zero in-flight", { $0.inFlight = 0 }, "--in-flight must be between 1 and 100000 (got 0)"),
        ("zero ops per edit", { $0.opsPerEdit = 0 }, "--ops-per-edit must be between 1 and 10000 (got 0)"),
        ("zero duration", { $0.duration = 0 }, "--duration must be a positive number of seconds (got 0.0)"),
        ("negative warm-up", { $0.warmup = -1 }, "--warmup must be 0 or more seconds (got -1.0)"),
        (
            "more slow readers than clients",
            {
                $0.clients = 2
                $0.slow = 3
            }, "--slow must be between 0 and --clients (2)"
        ),
        (
            "hold with writers",
            {
                $0.hold = true
                $0.writers = 2
            }, "--hold connects idle subscribers only: leave out --writers (got 2)"
        ),
        (
            "hold with a rate",
            {
                $0.hold = true
                $0.rate = 10
            }, "--hold sends no edits: leave out --rate and --in-flight"
        ),
        (
            "hold without clients",
            {
                $0.hold = true
                $0.clients = 0
            }, "--hold needs --clients > 0"
        ),
        (
            "zero connect rate", { $0.connectRate = 0 },
            "--connect-rate must be a positive number of connections per second"
        ),
    ]

    @Test(arguments: invalid)
    func anInvalidValueIsRefusedNamingItsFlag(
        _ what: String, _ change: @Sendable (inout LoadConfiguration) -> Void, _ message: String
    ) {
        var c = LoadConfiguration()
        change(&c)
        #expect(throws: LoadError.self, "\(what)") { try c.validate() }
        do {
            try c.validate()
        } catch {
            #expect(error.message.hasPrefix(message), "\(what): \(error.message)")
        }
    }

    @Test func holdWithoutWritersIsValidAndHasNone() throws {
        var c = LoadConfiguration()
        c.hold = true
        try c.validate()
        #expect(c.writerCount == 0)
    }

    @Test func aMixIsParsedIntoWeights() throws {
        let mix = try OpMix(parsing: "set=90,insert=4, remove=3,move=3")
        #expect(mix.weights == [.set: 90, .insert: 4, .remove: 3, .move: 3])
        #expect(mix.total == 100)
        #expect(mix.description == "set=90,insert=4,remove=3,move=3")
        #expect((0..<90).allSatisfy { mix.op(at: $0) == .set })
        #expect((90..<94).allSatisfy { mix.op(at: $0) == .insert })
        #expect(mix.op(at: 99) == .move)
        #expect(try OpMix(parsing: "move=1,set=0").description == "move=1")
    }

    static let badMixes: [(String, String)] = [
        ("set=abc", "--mix: the weight of set must be a whole number from 0 to 1000000 (got \"abc\")"),
        ("set=-1", "--mix: the weight of set must be a whole number from 0 to 1000000 (got \"-1\")"),
        ("set=90,rename=10", "--mix: unknown op \"rename\" (ops: set, insert, remove, move)"),
        ("set=0,insert=0", "--mix: at least one weight must be positive (got \"set=0,insert=0\")"),
        ("set", "--mix: \"set\" is not OP=WEIGHT"),
        ("set=1,set=2", "--mix: set is given twice"),
        ("", "--mix: \"\" is not OP=WEIGHT"),
    ]

    @Test(arguments: badMixes)
    func aBadMixIsRefusedWithTheReason(_ text: String, _ message: String) {
        do {
            _ = try OpMix(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.message.hasPrefix(message), "\(text): \(error.message)")
        }
    }

    @Test func shapesAreParsedByName() throws {
        #expect(try TreeShape(parsing: "deep") == .deep)
        #expect(throws: LoadError(.load, "--shape must be one of balanced, wide, deep (got \"foo\")")) {
            try TreeShape(parsing: "foo")
        }
    }
}
