@testable import CanopyScript
import Testing

@Suite struct LibraryArrayTests {
    let l = Lib()

    @Test func mutations() throws {
        var a = ints([1, 2, 3])
        _ = try l.mutate(&a, "insert", [nil, "at"], [.int(0), .int(0)])
        _ = try l.mutate(&a, "insert", [nil, "at"], [.int(9), .int(4)])
        #expect(a == ints([0, 1, 2, 3, 9]))
        #expect(try l.mutate(&a, "remove", ["at"], [.int(1)]) == .int(1))
        #expect(try l.mutate(&a, "removeFirst") == .int(0))
        #expect(try l.mutate(&a, "removeLast") == .int(9))
        #expect(a == ints([2, 3]))
        #expect(try l.mutate(&a, "popLast") == .int(3))
        _ = try l.mutate(&a, "append", [nil], [.int(5)])
        _ = try l.mutate(&a, "insert", ["contentsOf", "at"], [ints([7, 8]), .int(1)])
        #expect(a == ints([2, 7, 8, 5]))
        _ = try l.mutate(&a, "swapAt", [nil, nil], [.int(0), .int(3)])
        #expect(a == ints([5, 7, 8, 2]))
        _ = try l.mutate(&a, "removeAll", ["where"], [isEven])
        #expect(a == ints([5, 7]))
        _ = try l.mutate(&a, "reverse")
        #expect(a == ints([7, 5]))
        _ = try l.mutate(&a, "removeFirst", [nil], [.int(1)])
        #expect(a == ints([5]))
        _ = try l.mutate(&a, "removeAll")
        #expect(a == ints([]))
        #expect(try l.mutate(&a, "popLast") == .null)
    }

    @Test func traps() {
        #expect(l.fault { l throws(ScriptFault) in
            var a = ints([1])
            return try l.mutate(&a, "remove", ["at"], [.int(1)])
        } == "Index out of range")
        #expect(l.fault { l throws(ScriptFault) in
            var a = ints([1])
            return try l.mutate(&a, "remove", ["at"], [.int(-1)])
        } == "Index out of range")
        #expect(l.fault { l throws(ScriptFault) in
            var a = ints([])
            return try l.mutate(&a, "removeLast")
        } == "Can't remove last element from an empty collection")
        #expect(l.fault { l throws(ScriptFault) in
            var a = ints([])
            return try l.mutate(&a, "removeFirst")
        } == "Can't remove first element from an empty collection")
        #expect(l.fault { l throws(ScriptFault) in
            var a = ints([1])
            return try l.mutate(&a, "insert", [nil, "at"], [.int(0), .int(2)])
        } == "Array index is out of range")
        #expect(l.fault { l throws(ScriptFault) in
            var a = ints([1])
            return try l.mutate(&a, "removeLast", [nil], [.int(2)])
        } == "Can't remove more items from a collection than it contains")
        #expect(l.fault { l throws(ScriptFault) in try l.call(ints([1]), "prefix", [nil], [.int(-1)]) }
            == "Can't take a prefix of negative length from a collection")
    }

    @Test func sortingIsStable() throws {
        #expect(try l.call(ints([3, 1, 2, 1]), "sorted") == ints([1, 1, 2, 3]))
        #expect(try l.call(ints([3, 1, 2]), "sorted", ["by"], [greater]) == ints([3, 2, 1]))
        // Pairs sorted by their first item only keep their original order among equals.
        let pairs: Value = .array([(1, 0), (0, 1), (1, 2), (0, 3), (1, 4)].map { .tuple([.int($0), .int($1)]) })
        let byFirst = closure { a in
            guard case .tuple(let x) = a[0], case .tuple(let y) = a[1], case .int(let p) = x[0], case .int(let q) = y[0]
            else { return .bool(false) }
            return .bool(p < q)
        }
        let sorted = try l.call(pairs, "sorted", ["by"], [byFirst])
        #expect(sorted == .array([(0, 1), (0, 3), (1, 0), (1, 2), (1, 4)].map { .tuple([.int($0), .int($1)]) }))
        var a = strings(["b", "c", "a"])
        _ = try l.mutate(&a, "sort")
        #expect(a == strings(["a", "b", "c"]))
        _ = try l.mutate(&a, "sort", ["by"], [closure { a in .bool(a[0] != a[1] && a[0] == .string("b")) }])
        #expect(a == strings(["b", "a", "c"]))
        #expect(l.fault { l throws(ScriptFault) in try l.call(.array([.int(1), .bool(true)]), "sorted") }
            == "these values cannot be compared with <")
    }

    @Test func transforms() throws {
        let a = ints([1, 2, 3, 4])
        #expect(try l.call(a, "map", [nil], [double]) == ints([2, 4, 6, 8]))
        #expect(try l.call(a, "filter", [nil], [isEven]) == ints([2, 4]))
        let evenOrNil = closure { a in a[0] == .int(2) || a[0] == .int(4) ? a[0] : .null }
        #expect(try l.call(a, "compactMap", [nil], [evenOrNil]) == ints([2, 4]))
        let twice = closure { a in .array([a[0], a[0]]) }
        #expect(try l.call(ints([1, 2]), "flatMap", [nil], [twice]) == ints([1, 1, 2, 2]))
        #expect(try l.call(a, "reduce", [nil, nil], [.int(10), add]) == .int(20))
        #expect(try l.call(a, "count", ["where"], [isEven]) == .int(2))
        var seen: [Value] = []
        _ = try l.call(a, "forEach", [nil], [closure { a in seen.append(a[0]); return .null }])
        #expect(seen == [.int(1), .int(2), .int(3), .int(4)])
        #expect(try l.call(strings(["a", "b"]), "enumerated")
            == .array([.tuple([.int(0), .string("a")]), .tuple([.int(1), .string("b")])]))
    }

    @Test func searches() throws {
        let a = ints([5, 2, 8, 2])
        #expect(try l.call(a, "contains", [nil], [.int(8)]) == .bool(true))
        #expect(try l.call(a, "contains", [nil], [.int(7)]) == .bool(false))
        #expect(try l.call(a, "contains", ["where"], [isEven]) == .bool(true))
        #expect(try l.call(a, "allSatisfy", [nil], [isEven]) == .bool(false))
        #expect(try l.call(ints([2, 4]), "allSatisfy", [nil], [isEven]) == .bool(true))
        #expect(try l.call(a, "first", ["where"], [isEven]) == .int(2))
        #expect(try l.call(a, "last", ["where"], [closure { a in .bool(a[0] == .int(5)) }]) == .int(5))
        #expect(try l.call(a, "firstIndex", ["of"], [.int(2)]) == .int(1))
        #expect(try l.call(a, "lastIndex", ["of"], [.int(2)]) == .int(3))
        #expect(try l.call(a, "firstIndex", ["of"], [.int(9)]) == .null)
        #expect(try l.call(a, "firstIndex", ["where"], [isEven]) == .int(1))
        #expect(try l.call(ints([1, 3]), "first", ["where"], [isEven]) == .null)
        #expect(try l.get(a, "first") == .int(5))
        #expect(try l.get(a, "last") == .int(2))
        #expect(try l.get(ints([]), "first") == .null)
        #expect(try l.call(a, "min") == .int(2))
        #expect(try l.call(a, "max") == .int(8))
        #expect(try l.call(ints([]), "max") == .null)
        #expect(try l.call(a, "min", ["by"], [greater]) == .int(8))
        #expect(try l.call(a, "starts", ["with"], [ints([5, 2])]) == .bool(true))
    }

    @Test func slicesAndShapes() throws {
        let a = ints([1, 2, 3, 4, 5])
        #expect(try l.call(a, "prefix", [nil], [.int(2)]) == ints([1, 2]))
        #expect(try l.call(a, "prefix", [nil], [.int(9)]) == a)
        #expect(try l.call(a, "suffix", [nil], [.int(2)]) == ints([4, 5]))
        #expect(try l.call(a, "dropFirst") == ints([2, 3, 4, 5]))
        #expect(try l.call(a, "dropFirst", [nil], [.int(3)]) == ints([4, 5]))
        #expect(try l.call(a, "dropLast") == ints([1, 2, 3, 4]))
        #expect(try l.call(a, "dropLast", [nil], [.int(9)]) == ints([]))
        #expect(try l.call(a, "prefix", ["while"], [closure { a in .bool(a[0] != .int(3)) }]) == ints([1, 2]))
        #expect(try l.call(a, "drop", ["while"], [closure { a in .bool(a[0] != .int(3)) }]) == ints([3, 4, 5]))
        #expect(try l.call(a, "reversed") == ints([5, 4, 3, 2, 1]))
        #expect(try l.get(a, "indices") == .range(0, 5, closed: false))
        #expect(try l.call(strings(["a", "b", "c"]), "joined", ["separator"], [.string(", ")]) == .string("a, b, c"))
        #expect(try l.call(strings(["a", "b"]), "joined") == .string("ab"))
        #expect(try l.call(.array([ints([1]), ints([2, 3])]), "joined") == ints([1, 2, 3]))
        #expect(try l.call(.array([ints([1]), ints([2])]), "joined", ["separator"], [ints([0])]) == ints([1, 0, 2]))
        #expect(try l.type("Array", "init(_:)", [.range(1, 4, closed: false)]) == ints([1, 2, 3]))
        #expect(try l.type("Array", "init(_:)", [.string("hé")]) == strings(["h", "é"]))
        #expect(try l.type("Array", "init(repeating:count:)", [.int(0), .int(3)]) == ints([0, 0, 0]))
    }

    @Test func fuelIsChargedPerElement() throws {
        let big = ints(Array(0..<1000))
        let before = l.m.fuel
        _ = try l.call(big, "contains", [nil], [.int(999)])
        #expect(before - l.m.fuel >= 1000)
        let poor = Lib(fuel: 100)
        #expect(poor.fault { l throws(ScriptFault) in try l.call(big, "sorted") } == "the work limit was reached")
    }

    @Test func growthIsBounded() {
        let small = Lib(maxCount: 3)
        #expect(small.fault { l throws(ScriptFault) in
            var a = ints([1, 2, 3])
            return try l.mutate(&a, "insert", [nil, "at"], [.int(0), .int(0)])
        } == "a value grew beyond 3 elements")
        #expect(small.fault { l throws(ScriptFault) in try l.call(.range(0, 10, closed: false), "map", [nil], [double]) }
            == "a value grew beyond 3 elements")
    }

    @Test func subranges() throws {
        var a = ints([1, 2, 3, 4, 5, 6])
        _ = try l.mutate(&a, "removeSubrange", [nil], [.range(1, 3, closed: false)])
        #expect(a == ints([1, 4, 5, 6]))
        _ = try l.mutate(&a, "removeSubrange", [nil], [.range(2, Int.max, closed: false)])  // `2...`
        #expect(a == ints([1, 4]))
        _ = try l.mutate(&a, "replaceSubrange", [nil, "with"], [.range(0, 1, closed: true), ints([7, 8, 9])])
        #expect(a == ints([7, 8, 9, 4]))
        _ = try l.mutate(&a, "replaceSubrange", [nil, "with"], [.range(4, 4, closed: false), .range(0, 2, closed: false)])
        #expect(a == ints([7, 8, 9, 4, 0, 1]))
        let pastEnd = l.fault { l throws(ScriptFault) in
            var b = ints([1, 2])
            return try l.mutate(&b, "removeSubrange", [nil], [.range(1, 3, closed: false)])
        }
        #expect(pastEnd == "Array replace: subrange extends past the end")
        let negative = l.fault { l throws(ScriptFault) in
            var b = ints([1, 2])
            return try l.mutate(&b, "replaceSubrange", [nil, "with"], [.range(-1, 1, closed: false), ints([])])
        }
        #expect(negative == "Array replace: subrange start is negative")
        let inverted = l.fault { l throws(ScriptFault) in
            var b = ints([1])
            return try l.mutate(&b, "removeSubrange", [nil], [.range(3, Int.max, closed: false)])
        }
        #expect(inverted == "Range requires lowerBound <= upperBound")
    }

    @Test func slicesAtPositions() throws {
        let a = ints([1, 2, 3])
        #expect(try l.call(a, "prefix", ["upTo"], [.int(2)]) == ints([1, 2]))
        #expect(try l.call(a, "prefix", ["through"], [.int(0)]) == ints([1]))
        #expect(try l.call(a, "prefix", ["through"], [.int(-1)]) == ints([]))
        #expect(try l.call(a, "suffix", ["from"], [.int(1)]) == ints([2, 3]))
        #expect(try l.call(a, "suffix", ["from"], [.int(3)]) == ints([]))
        #expect(l.fault { l throws(ScriptFault) in try l.call(a, "prefix", ["upTo"], [.int(4)]) }
            == "Array index is out of range")
        #expect(l.fault { l throws(ScriptFault) in try l.call(a, "prefix", ["upTo"], [.int(-1)]) }
            == "Range requires lowerBound <= upperBound")
        #expect(l.fault { l throws(ScriptFault) in try l.call(a, "suffix", ["from"], [.int(4)]) }
            == "Range requires lowerBound <= upperBound")
        #expect(l.fault { l throws(ScriptFault) in try l.call(a, "suffix", ["from"], [.int(-1)]) }
            == "Negative Array index is out of range")
    }
}
