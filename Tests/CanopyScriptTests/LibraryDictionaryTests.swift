@testable import CanopyScript
import Testing

func dict(_ pairs: [(String, Int)]) -> Value {
    var d = OrderedDictionary()
    for (k, v) in pairs { d[.string(k)] = .int(v) }
    return .dictionary(d)
}

func pair(_ k: String, _ v: Int) -> Value { .tuple([.string(k), .int(v)]) }

@Suite struct LibraryDictionaryTests {
    let l = Lib()
    let d = dict([("a", 1), ("b", 2), ("c", 3)])

    @Test func properties() throws {
        #expect(try l.get(d, "count") == .int(3))
        #expect(try l.get(dict([]), "isEmpty") == .bool(true))
        #expect(try l.get(d, "keys") == strings(["a", "b", "c"]))
        #expect(try l.get(d, "values") == ints([1, 2, 3]))
        #expect(try l.get(d, "first") == pair("a", 1))
    }

    @Test func transforms() throws {
        #expect(try l.call(d, "mapValues", [nil], [double]) == dict([("a", 2), ("b", 4), ("c", 6)]))
        let valueIsEven = closure { a in
            guard case .tuple(let kv) = a[0], case .int(let v) = kv[1] else { return .bool(false) }
            return .bool(v % 2 == 0)
        }
        #expect(try l.call(d, "filter", [nil], [valueIsEven]) == dict([("b", 2)]))
        let key = closure { a in a[0].tupleItems?[0] ?? .null }
        #expect(try l.call(d, "map", [nil], [key]) == strings(["a", "b", "c"]))
        #expect(try l.call(d, "compactMapValues", [nil], [closure { a in a[0] == .int(2) ? .null : a[0] }])
            == dict([("a", 1), ("c", 3)]))
        #expect(try l.call(d, "contains", ["where"], [valueIsEven]) == .bool(true))
        #expect(try l.call(d, "first", ["where"], [valueIsEven]) == pair("b", 2))
        let byValueDescending = closure { a in
            guard case .int(let x) = a[0].tupleItems?[1], case .int(let y) = a[1].tupleItems?[1] else {
                return .bool(false)
            }
            return .bool(x > y)
        }
        #expect(try l.call(d, "sorted", ["by"], [byValueDescending])
            == .array([pair("c", 3), pair("b", 2), pair("a", 1)]))
        #expect(try l.call(d, "min", ["by"], [byValueDescending]) == pair("c", 3))
        #expect(try l.call(d, "max", ["by"], [byValueDescending]) == pair("a", 1))
    }

    @Test func merging() throws {
        let other = dict([("b", 10), ("d", 4)])
        let merged = try l.call(d, "merging", [nil, "uniquingKeysWith"], [other, add])
        #expect(merged == dict([("a", 1), ("b", 12), ("c", 3), ("d", 4)]))
        #expect(try l.get(merged, "keys") == strings(["a", "b", "c", "d"]))
        var m = d
        let keepOld = closure { a in a[0] }
        _ = try l.mutate(&m, "merge", [nil, "uniquingKeysWith"], [.array([pair("b", 20), pair("e", 5)]), keepOld])
        #expect(m == dict([("a", 1), ("b", 2), ("c", 3), ("e", 5)]))
    }

    @Test func mutations() throws {
        var m = d
        #expect(try l.mutate(&m, "removeValue", ["forKey"], [.string("b")]) == .int(2))
        #expect(try l.mutate(&m, "removeValue", ["forKey"], [.string("z")]) == .null)
        #expect(try l.mutate(&m, "updateValue", [nil, "forKey"], [.int(9), .string("a")]) == .int(1))
        #expect(try l.mutate(&m, "updateValue", [nil, "forKey"], [.int(7), .string("q")]) == .null)
        #expect(try l.get(m, "keys") == strings(["a", "c", "q"]))
        #expect(m == dict([("a", 9), ("c", 3), ("q", 7)]))
        _ = try l.mutate(&m, "removeAll")
        #expect(m == dict([]))
    }

    @Test func initializers() throws {
        let pairs = Value.array([pair("x", 1), pair("y", 2)])
        #expect(try l.type("Dictionary", "init(uniqueKeysWithValues:)", [pairs]) == dict([("x", 1), ("y", 2)]))
        #expect(l.fault { l throws(ScriptFault) in
            try l.type("Dictionary", "init(uniqueKeysWithValues:)", [.array([pair("x", 1), pair("x", 2)])])
        } == "Fatal error: Duplicate values for key: 'x'")
        let dup = Value.array([pair("x", 1), pair("x", 2)])
        #expect(try l.type("Dictionary", "init(_:uniquingKeysWith:)", [dup, add]) == dict([("x", 3)]))
        // A trailing closure arrives unlabelled.
        #expect(try l.type("Dictionary", "init(_:_:)", [dup, closure { a in a[1] }]) == dict([("x", 2)]))
        let parity = closure { a in
            guard case .int(let i) = a[0] else { return .null }
            return .string(i % 2 == 0 ? "even" : "odd")
        }
        let grouped = try l.type("Dictionary", "init(grouping:by:)", [ints([1, 2, 3, 4, 5]), parity])
        var expected = OrderedDictionary()
        expected[.string("odd")] = ints([1, 3, 5])
        expected[.string("even")] = ints([2, 4])
        #expect(grouped == .dictionary(expected))
        #expect(try l.get(grouped, "keys") == strings(["odd", "even"]))
    }
}

@Suite struct LibrarySetTests {
    let l = Lib()

    func set(_ xs: [Int]) -> Value {
        var s = OrderedSet()
        for x in xs { s.insert(.int(x)) }
        return .set(s)
    }

    @Test func membership() throws {
        var a = set([1, 2])
        #expect(try l.mutate(&a, "insert", [nil], [.int(3)]) == .tuple([.bool(true), .int(3)]))
        #expect(try l.mutate(&a, "insert", [nil], [.int(1)]) == .tuple([.bool(false), .int(1)]))
        #expect(try l.get(try l.mutate(&a, "insert", [nil], [.int(1)]), "inserted") == .bool(false))
        #expect(a == set([1, 2, 3]))
        #expect(try l.get(a, "count") == .int(3))
        #expect(try l.call(a, "contains", [nil], [.int(2)]) == .bool(true))
        #expect(try l.mutate(&a, "remove", [nil], [.int(2)]) == .int(2))
        #expect(try l.mutate(&a, "remove", [nil], [.int(2)]) == .null)
        #expect(try l.call(a, "contains", [nil], [.int(2)]) == .bool(false))
        #expect(try l.get(set([]), "isEmpty") == .bool(true))
    }

    @Test func algebra() throws {
        let a = set([1, 2, 3])
        #expect(try l.call(a, "union", [nil], [ints([3, 4])]) == set([1, 2, 3, 4]))
        #expect(try l.call(a, "intersection", [nil], [set([2, 3, 9])]) == set([2, 3]))
        #expect(try l.call(a, "subtracting", [nil], [set([2])]) == set([1, 3]))
        #expect(try l.call(a, "symmetricDifference", [nil], [set([3, 4])]) == set([1, 2, 4]))
        var b = a
        _ = try l.mutate(&b, "formUnion", [nil], [ints([7])])
        #expect(b == set([1, 2, 3, 7]))
        #expect(try l.call(set([1, 2]), "isSubset", ["of"], [a]) == .bool(true))
        #expect(try l.call(a, "isSubset", ["of"], [set([1, 2])]) == .bool(false))
        #expect(try l.call(a, "isSuperset", ["of"], [set([1])]) == .bool(true))
        #expect(try l.call(a, "isDisjoint", ["with"], [set([5])]) == .bool(true))
        #expect(try l.type("Set", "init(_:)", [ints([3, 1, 3])]) == set([1, 3]))
        #expect(try l.call(set([3, 1, 2]), "sorted") == ints([1, 2, 3]))
        #expect(try l.call(a, "filter", [nil], [isEven]) == set([2]))
        #expect(try l.call(set([2]), "map", [nil], [double]) == ints([4]))
    }

    @Test func ranges() throws {
        let r = Value.range(2, 6, closed: false)
        #expect(try l.get(r, "count") == .int(4))
        #expect(try l.get(r, "lowerBound") == .int(2))
        #expect(try l.get(r, "upperBound") == .int(6))
        #expect(try l.get(r, "isEmpty") == .bool(false))
        #expect(try l.get(.range(3, 3, closed: false), "isEmpty") == .bool(true))
        #expect(try l.call(r, "contains", [nil], [.int(5)]) == .bool(true))
        #expect(try l.call(r, "contains", [nil], [.int(6)]) == .bool(false))
        #expect(try l.call(r, "map", [nil], [double]) == ints([4, 6, 8, 10]))
        #expect(try l.call(r, "reversed") == ints([5, 4, 3, 2]))
        #expect(try l.call(r, "filter", [nil], [isEven]) == ints([2, 4]))
        #expect(try l.call(r, "reduce", [nil, nil], [.int(0), add]) == .int(14))
        #expect(try l.get(r, "first") == .int(2))
        #expect(try l.get(r, "last") == .int(5))
        #expect(try l.call(r, "dropFirst") == .range(3, 6, closed: false))
        #expect(try l.call(r, "prefix", [nil], [.int(2)]) == .range(2, 4, closed: false))
        let closed = Value.doubleRange(0, 1, closed: true)
        #expect(try l.call(closed, "contains", [nil], [.double(1)]) == .bool(true))
        #expect(try l.call(.doubleRange(0, 1, closed: false), "contains", [nil], [.double(1)]) == .bool(false))
        #expect(try l.call(closed, "contains", [nil], [.double(0.5)]) == .bool(true))
        #expect(try l.get(closed, "upperBound") == .double(1))
        // `first(where:)` stops early, so a huge range costs only what it visits.
        #expect(try l.call(.range(0, .max, closed: false), "first", ["where"], [closure { a in .bool(a[0] == .int(10)) }])
            == .int(10))
    }
}
