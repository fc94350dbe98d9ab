import CanopyCore
import CanopyScript
import Testing

// What a Swift key refuses: JSON that does not decode to its Value (`type_mismatch`), source that does not compile
// (`compile_error` with 1-based lines and columns); and Swift `transformPreference` closures.

private let intList = """
    struct ScoresKey: PreferenceKey {
        static var defaultValue: [Int] = []
        static func reduce(value: inout [Int], nextValue: () -> [Int]) {
            value.append(contentsOf: nextValue())
        }
    }
    """

private let counter = """
    struct CountKey: PreferenceKey {
        static var defaultValue = 0
        static func reduce(value: inout Int, nextValue: () -> Int) {
            value += nextValue()
        }
    }
    """

@Suite struct KeyErrorTests {
    @Test func jsonThatDoesNotDecodeIsATypeMismatch() throws {
        let key = "ScoresKey"
        // At creation: the tree is not made.
        let e0 = thrown { _ = try KeyTree([key: intList], [writer("a", [1, "two"], key: key)]) }
        #expect(e0?.code == .typeMismatch)
        var k = try KeyTree([key: intList], [writer("a", [1], key: key), writer("b", [2, 3], key: key)])
        // In a batch: rejected at that op, nothing changes.
        let e1 = thrown {
            try k.apply([.setPreference(node: "a", key: key, value: [4]), .setPreference(node: "b", key: key, value: 2.5)])
        }
        #expect(e1?.code == .typeMismatch)
        #expect(e1?.op == 1)
        #expect(e1?.message.contains("[Int]") == true, "\(e1?.message ?? "")")
        #expect(k.value(key) == [1, 2, 3])
        // A non-integral number is not an Int; an integral one is.
        #expect(thrown { try k.set("a", [1.5], key: key) }?.code == .typeMismatch)
        try k.set("a", [4.0], key: key)
        #expect(k.value(key) == [4, 2, 3])
        // A transform's `set` value is checked too.
        let e2 = thrown {
            try k.apply([.setModifiers(node: "b", modifiers: [.transformPreference(key: key, transform: .set(["x"]))])])
        }
        #expect(e2?.code == .typeMismatch)
    }

    @Test func compileErrorsCarryLinesAndColumns() throws {
        let broken = """
            struct BrokenKey: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) {
                    value += nextValu()
                }
            }
            """
        let e = thrown { _ = try ScriptKeyCompiler().compileKey(named: "BrokenKey", source: broken) }
        #expect(e?.code == .compileError)
        #expect(diagnosticPositions(e) == [[4, 18]], "\(e?.details ?? [:])")
        // Through a tree: nothing is created.
        let e2 = thrown { _ = try KeyTree(["BrokenKey": broken], []) }
        #expect(e2?.code == .compileError)
        #expect(diagnosticPositions(e2) == [[4, 18]])
    }

    @Test func aSyntaxErrorIsAtItsPosition() throws {
        let source = """
            struct K: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) {
                    value += (nextValue()
                }
            }
            """
        let e = thrown { _ = try ScriptKeyCompiler().compileKey(named: "K", source: source) }
        #expect(e?.code == .compileError)
        let positions = diagnosticPositions(e)
        #expect(!positions.isEmpty)
        #expect(positions.allSatisfy { $0[0] >= 4 && $0[0] <= 6 && $0[1] >= 1 }, "\(positions)")
    }

    @Test func aProgramWithoutTheNamedKeyOrWithoutReduceDoesNotCompile() throws {
        let e1 = thrown { _ = try ScriptKeyCompiler().compileKey(named: "OtherKey", source: counter) }
        #expect(e1?.code == .compileError)
        #expect(diagnosticPositions(e1) == [[1, 1]])
        let noReduce = """
            struct K: PreferenceKey {
                static var defaultValue = 0
            }
            """
        let e2 = thrown { _ = try ScriptKeyCompiler().compileKey(named: "K", source: noReduce) }
        #expect(e2?.code == .compileError)
        #expect(diagnosticPositions(e2).first?[0] == 1)
    }

    @Test func aDefaultValueOfAnotherTypeThanReduceTakesDoesNotCompile() throws {
        let source = """
            struct K: PreferenceKey {
                static var defaultValue = "none"
                static func reduce(value: inout Int, nextValue: () -> Int) {
                    value += nextValue()
                }
            }
            """
        let e = thrown { _ = try ScriptKeyCompiler().compileKey(named: "K", source: source) }
        #expect(e?.code == .compileError)
        #expect(diagnosticPositions(e) == [[3, 5]], "\(e?.details ?? [:])")
        let typed = """
            struct K: PreferenceKey {
                static var defaultValue: [Int] = "none"
                static func reduce(value: inout [Int], nextValue: () -> [Int]) {}
            }
            """
        let e2 = thrown { _ = try ScriptKeyCompiler().compileKey(named: "K", source: typed) }
        #expect(e2?.code == .compileError)
        #expect(diagnosticPositions(e2) == [[2, 38]], "\(e2?.details ?? [:])")
    }

    @Test func aDeclareKeyThatDoesNotCompileRejectsItsBatch() throws {
        var k = try KeyTree(["CountKey": counter], [writer("a", 1, key: "CountKey")])
        let e = thrown {
            try k.apply([
                .setPreference(node: "a", key: "CountKey", value: 2),
                .declareKey(KeyDeclaration(key: "CountKey", swift: "struct CountKey: PreferenceKey { static var defaultValue = 0 }")),
            ])
        }
        #expect(e?.code == .compileError)
        #expect(e?.op == 1)
        #expect(k.value("CountKey") == 1)
    }

    @Test func swiftTransformAddsTen() throws {
        let key = "CountKey"
        let shifted = Node(
            id: "g", type: "Group", modifiers: [.transformPreference(key: key, transform: .swift("{ $0 += 10 }"))],
            children: [writer("b", 2, key: key), writer("c", 3, key: key)])
        var k = try KeyTree([key: counter], [writer("a", 1, key: key), shifted])
        #expect(k.value(key) == 16)
        try k.set("c", 30, key: key)
        #expect(k.value(key) == 43)
        // With nothing inside, the closure runs on the default.
        try k.apply([.remove(node: "b"), .remove(node: "c")])
        #expect(k.value(key) == 11)
        // A closure in the `value in` form, replacing the first.
        try k.apply([
            .setModifiers(node: "g", modifiers: [
                .transformPreference(key: key, transform: .swift("{ value in\n    value = value * 2 + 1\n}"))
            ])
        ])
        #expect(k.value(key) == 2)
    }

    @Test func aTransformThatDoesNotCompileHasItsOwnPositions() throws {
        let key = "CountKey"
        var k = try KeyTree([key: counter], [writer("a", 1, key: key)])
        let bad = Node(
            id: "g", type: "Group", modifiers: [.transformPreference(key: key, transform: .swift("{ $0 += missing }"))])
        let e = thrown { try k.apply([.insert(parent: "root", node: bad, position: .end)]) }
        #expect(e?.code == .compileError)
        #expect(diagnosticPositions(e) == [[1, 9]], "\(e?.details ?? [:])")
        #expect(k.value(key) == 1)
    }
}
