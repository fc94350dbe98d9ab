@testable import CanopyScript
import Testing

@Suite struct LibraryNumberTests {
    let l = Lib()

    @Test func intInitializerTruncatesAndTraps() throws {
        #expect(same(try l.type("Int", "init(_:)", [.double(3.9)]), .int(3)))
        #expect(same(try l.type("Int", "init(_:)", [.double(-3.9)]), .int(-3)))
        #expect(try l.type("Int", "init(_:)", [.string("42")]) == .int(42))
        #expect(try l.type("Int", "init(_:)", [.string("+7")]) == .int(7))
        #expect(try l.type("Int", "init(_:)", [.string("4.2")]) == .null)
        #expect(try l.type("Int", "init(_:)", [.string(" 4")]) == .null)
        #expect(l.fault { l throws(ScriptFault) in try l.type("Int", "init(_:)", [.double(.infinity)]) }
            == "Double value cannot be converted to Int because it is either infinite or NaN")
        #expect(l.fault { l throws(ScriptFault) in try l.type("Int", "init(_:)", [.double(.nan)]) }
            == "Double value cannot be converted to Int because it is either infinite or NaN")
        #expect(l.fault { l throws(ScriptFault) in try l.type("Int", "init(_:)", [.double(1e19)]) }
            == "Double value cannot be converted to Int because the result would be greater than Int.max")
        #expect(l.fault { l throws(ScriptFault) in try l.type("Int", "init(_:)", [.double(-1e19)]) }
            == "Double value cannot be converted to Int because the result would be less than Int.min")
        #expect(try l.type("Int", "init(_:)", [.double(-9_223_372_036_854_775_808.0)]) == .int(.min))
        #expect(try l.type("Int", "init(exactly:)", [.double(2.5)]) == .null)
        #expect(same(try l.type("Int", "init(exactly:)", [.double(2)]), .int(2)))
        #expect(try l.type("Int", "init(_:radix:)", [.string("ff"), .int(16)]) == .int(255))
    }

    @Test func doubleAndCGFloatInitializers() throws {
        #expect(same(try l.type("Double", "init(_:)", [.int(3)]), .double(3)))
        #expect(same(try l.type("Double", "init(_:)", [.string("2.5")]), .double(2.5)))
        #expect(try l.type("Double", "init(_:)", [.string("abc")]) == .null)
        #expect(same(try l.type("CGFloat", "init(_:)", [.int(4)]), .double(4)))
        #expect(try l.type("Bool", "init(_:)", [.string("true")]) == .bool(true))
        #expect(try l.type("Bool", "init(_:)", [.string("yes")]) == .null)
    }

    @Test func constants() {
        let c = Library.shared.typeConstants
        #expect(c["Int"]?["max"] == .int(.max))
        #expect(c["Int"]?["min"] == .int(.min))
        #expect(same(c["Int"]?["zero"] ?? .null, .int(0)))
        for t in ["Double", "CGFloat"] {
            #expect(same(c[t]?["zero"] ?? .null, .double(0)))
            #expect(c[t]?["pi"] == .double(.pi))
            #expect(c[t]?["infinity"] == .double(.infinity))
            #expect(c[t]?["greatestFiniteMagnitude"] == .double(.greatestFiniteMagnitude))
        }
    }

    @Test func doubleMembers() throws {
        #expect(try l.get(.double(0), "isZero") == .bool(true))
        #expect(try l.get(.double(-0.5), "isZero") == .bool(false))
        #expect(try l.get(.double(-2.5), "magnitude") == .double(2.5))
        #expect(try l.call(.double(2.5), "rounded") == .double(3))
        #expect(try l.call(.double(-2.5), "rounded") == .double(-3))
        #expect(try l.call(.double(2.1), "rounded", [nil], [.string("up")]) == .double(3))
        #expect(try l.call(.double(2.9), "rounded", [nil], [.string("down")]) == .double(2))
        #expect(try l.call(.double(2.5), "rounded", [nil], [.string("toNearestOrEven")]) == .double(2))
        #expect(try l.call(.double(-2.9), "rounded", [nil], [.string("towardZero")]) == .double(-2))
        #expect(try l.call(.double(9), "squareRoot") == .double(3))
        #expect(try l.get(.double(1.5), "description") == .string("1.5"))
        #expect(try l.call(.double(7.5), "truncatingRemainder", ["dividingBy"], [.double(2)]) == .double(1.5))
        #expect(try l.get(.double(.infinity), "isFinite") == .bool(false))
        var x = Value.double(2.6)
        _ = try l.mutate(&x, "round")
        #expect(x == .double(3))
        // A CGFloat that holds an Int still answers Double's members, as a Double.
        #expect(same(try l.call(.int(9), "squareRoot"), .double(3)))
    }

    @Test func intMembers() throws {
        #expect(try l.get(.int(-7), "magnitude") == .int(7))
        #expect(try l.call(.int(-7), "signum") == .int(-1))
        #expect(try l.call(.int(0), "signum") == .int(0))
        #expect(try l.call(.int(12), "isMultiple", ["of"], [.int(4)]) == .bool(true))
        #expect(try l.call(.int(12), "isMultiple", ["of"], [.int(5)]) == .bool(false))
        #expect(try l.call(.int(0), "isMultiple", ["of"], [.int(0)]) == .bool(true))
        #expect(try l.get(.int(42), "description") == .string("42"))
        #expect(try l.call(.int(-7), "quotientAndRemainder", ["dividingBy"], [.int(2)])
            == .tuple([.int(-3), .int(-1)]))
        #expect(l.fault { l throws(ScriptFault) in try l.get(.int(.min), "magnitude") } == "arithmetic overflow")
        #expect(l.fault { l throws(ScriptFault) in
            try l.call(.int(1), "quotientAndRemainder", ["dividingBy"], [.int(0)])
        } == "Division by zero")
    }

    @Test func bitsAndSteps() throws {
        #expect(try l.get(.int(255), "nonzeroBitCount") == .int(8))
        #expect(try l.get(.int(-1), "nonzeroBitCount") == .int(64))
        #expect(try l.get(.int(8), "trailingZeroBitCount") == .int(3))
        #expect(try l.get(.int(0), "trailingZeroBitCount") == .int(64))
        #expect(try l.get(.int(1), "leadingZeroBitCount") == .int(63))
        #expect(try l.get(.int(5), "bitWidth") == .int(64))
        var x = Value.int(5)
        _ = try l.mutate(&x, "negate")
        #expect(x == .int(-5))
        var d = Value.double(2.5)
        _ = try l.mutate(&d, "negate")
        #expect(same(d, .double(-2.5)))
        #expect(l.fault { l throws(ScriptFault) in
            var m = Value.int(.min)
            return try l.mutate(&m, "negate")
        } == "arithmetic overflow")
        #expect(try l.call(.int(3), "distance", ["to"], [.int(10)]) == .int(7))
        #expect(try l.call(.int(10), "advanced", ["by"], [.int(-4)]) == .int(6))
        #expect(same(try l.call(.double(1.5), "distance", ["to"], [.double(4)]), .double(2.5)))
        #expect(l.fault { l throws(ScriptFault) in try l.call(.int(.max), "advanced", ["by"], [.int(1)]) }
            == "arithmetic overflow")
        #expect(l.fault { l throws(ScriptFault) in try l.call(.int(.min), "distance", ["to"], [.int(1)]) }
            == "arithmetic overflow")
    }

    @Test func reportingOverflow() throws {
        #expect(try l.call(.int(.max), "addingReportingOverflow", [nil], [.int(1)]) == .tuple([.int(.min), .bool(true)]))
        #expect(try l.call(.int(.min), "subtractingReportingOverflow", [nil], [.int(1)])
            == .tuple([.int(.max), .bool(true)]))
        #expect(try l.call(.int(6), "multipliedReportingOverflow", ["by"], [.int(7)]) == .tuple([.int(42), .bool(false)]))
        #expect(try l.call(.int(10), "dividedReportingOverflow", ["by"], [.int(0)]) == .tuple([.int(10), .bool(true)]))
        #expect(try l.call(.int(10), "remainderReportingOverflow", ["dividingBy"], [.int(0)])
            == .tuple([.int(10), .bool(true)]))
        let r = try l.call(.int(.min), "dividedReportingOverflow", ["by"], [.int(-1)])
        #expect(try l.get(r, "partialValue") == .int(.min))
        #expect(try l.get(r, "overflow") == .bool(true))
        #expect(try l.get(.bool(true), "description") == .string("true"))
        #expect(try l.get(.bool(false), "description") == .string("false"))
    }
}
