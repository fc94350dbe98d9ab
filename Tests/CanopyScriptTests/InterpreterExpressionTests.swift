import CanopyCore
import Testing

@testable import CanopyScript

/// Operators, optionals, literals and strings of PROGRAMS.md §2.
@Suite struct InterpreterExpressionTests {
    @Test func arithmeticComparisonAndLogicalOperators() throws {
        let source = """
            func f() -> [Int] {
                let a = 17, b = 5
                let bools = [a > b, a < b, a >= 17, b <= 4, a == 17, a != 17, !(a > b), a > b && b > a, a > b || b > a]
                var bits = 0
                for i in 0..<bools.count where bools[i] { bits += 1 << i }
                return [a + b, a - b, a * b, a / b, a % b, -a / b, -a % b, -a, +a, bits, a & b, a | b, a ^ b, ~a, a >> 1]
            }
            """
        #expect(result(source) == [22, 12, 85, 3, 2, -3, -2, -17, 17, 0b1_0001_0101, 1, 21, 20, -18, 8])
    }

    @Test func doubleArithmeticAndMixedLiterals() throws {
        let source = """
            func f() -> [Double] {
                let x = 7.0
                let y: Double = 2
                return [x / y, x * 2, x - 0.5, 1 / 4, -x, -(-x)]
            }
            """
        #expect(result(source) == [3.5, 14, 6.5, 0.25, -7, 7])
    }

    @Test func compoundAssignmentIncludingArrays() throws {
        let source = """
            func f() -> [Int] {
                var n = 10
                n += 5; n -= 3; n *= 2; n /= 4; n %= 4
                var a = [1]
                a += [2, 3]
                a += []
                var s = "a"
                s += "b"
                var d = 1.5
                d *= 2
                a.append(n)
                a.append(s == "ab" ? 1 : 0)
                a.append(d == 3 ? 1 : 0)
                return a
            }
            """
        #expect(result(source) == [1, 2, 3, 2, 1, 1])
    }

    @Test func cgFloatAndDoubleConvertImplicitlyAndLiteralsTakeTheirType() throws {
        let source = """
            func half(_ x: Double) -> CGFloat { x / 2 }
            func g() -> CGFloat {
                let x: CGFloat = 1
                return x
            }
            func f() -> [CGFloat] {
                let a: CGFloat = 3
                let d: Double = a + 1
                let c: CGFloat = d * 2
                var size = CGSize(width: 4, height: 2)
                size.width += d
                return [half(a), d, c, size.width, CGFloat.zero + 2]
            }
            """
        let script = try Script.compile(source)
        let g = try script.call("g")
        #expect(g == 1)
        #expect(isDouble(g))
        let r = try script.call("f")
        #expect(r == [1.5, 4, 8, 8, 2])
        #expect(r.array?.allSatisfy(isDouble) == true)
    }

    @Test func nilCoalescingTernaryForceUnwrapAndOptionalChains() throws {
        let source = """
            struct Node { var value: Int; var next: Inner? }
            struct Inner { var value: Int; var label: String? }
            func f() -> [Int] {
                let none: Int? = nil
                let some: Int? = 4
                var n: Node? = Node(value: 1, next: Inner(value: 2, label: nil))
                let empty: Node? = nil
                let a = none ?? 9
                let b = some ?? 9
                let c = n?.next?.value ?? -1
                let d = empty?.next?.value ?? -1
                let e = n!.next!.value
                n?.next?.value = 20
                n?.value += 5
                var missing: Node? = nil
                missing?.value = 99
                let g = (n?.next?.label ?? "x") == "x" ? 1 : 0
                return [a, b, c, d, e, n!.next!.value, n!.value, missing == nil ? 1 : 0, g, some! > 3 ? 1 : 0]
            }
            """
        #expect(result(source) == [9, 4, 2, -1, 2, 20, 6, 1, 1, 1])
    }

    @Test func optionalMapAndFlatMap() throws {
        let source = """
            func f() -> [Int?] {
                let a: Int? = 3
                let b: Int? = nil
                return [a.map { $0 * 2 }, b.map { $0 * 2 }, a.flatMap { $0 > 2 ? $0 : nil }]
            }
            """
        #expect(result(source) == [6, .null, 3])
    }

    @Test func rangesAndTheirContents() throws {
        let source = """
            func f() -> [Int] {
                var out: [Int] = []
                let r = 2..<5
                let c = 1...3
                for i in r { out.append(i) }
                for i in c { out.append(i * 10) }
                let a = [9, 8, 7, 6]
                for x in a[1...2] { out.append(x) }
                return out
            }
            """
        #expect(result(source) == [2, 3, 4, 10, 20, 30, 8, 7])
    }

    @Test func stringInterpolationAndMultiLineStrings() throws {
        let source = #"""
            struct P { var x = 1 }
            func f() -> String {
                let name = "Ann"
                let n = 3
                let d = 2.5
                let text = """
                    Hello, \(name)!
                      You have \(n + 1) items at \(d) each,
                    ok: \(true) \(P().x) "quoted" \\ end
                    """
                return text
            }
            """#
        #expect(result(source) == "Hello, Ann!\n  You have 4 items at 2.5 each,\nok: true 1 \"quoted\" \\ end")
    }

    @Test func arrayAndDictionaryLiteralsAndSubscripts() throws {
        let source = """
            func f() -> [String: [Int]] {
                var d: [String: [Int]] = ["a": [1, 2], "b": []]
                d["c"] = [3]
                d["a"]![0] = 10
                d["b"]?.append(7)
                d["zzz"]?.append(1)
                var nested = [[1, 2], [3]]
                nested[1][0] = 30
                d["n"] = nested[1]
                d["a"] = nil
                return d
            }
            """
        #expect(result(source) == ["b": [7], "c": [3], "n": [30]])
    }

    @Test func emptyCollectionAndZeroInitializers() throws {
        let source = """
            struct T { var a = 0 }
            func f() -> [Int] {
                var a = [T]()
                var d = [String: Int]()
                var e = Array<Int>()
                let r = CGRect()
                a.append(T(a: 5))
                d["x"] = 2
                e.append(1)
                return [a[0].a, d["x"]!, e.count, r.width == 0 ? 0 : 1]
            }
            """
        #expect(result(source) == [5, 2, 1, 0])
    }

    @Test func cgGeometry() throws {
        let source = """
            func f() -> [CGFloat] {
                let a = CGRect(x: 0, y: 0, width: 10, height: 20)
                let b = CGRect(origin: CGPoint(x: 5, y: 5), size: CGSize(width: 10, height: 10))
                let u = a.union(b)
                let i = a.insetBy(dx: 1, dy: 2)
                return [u.width, u.height, u.maxX, a.midX, a.midY, i.minX, i.height, b.contains(CGPoint(x: 6, y: 6)) ? 1 : 0,
                        CGSize.zero.width, CGRect.zero.maxY]
            }
            """
        #expect(result(source) == [15, 20, 15, 5, 10, 1, 16, 1, 0, 0])
    }

    @Test
    func metatypeOfAKey() throws {
        let source = """
            struct K: PreferenceKey {
                static var defaultValue = 7
                static func reduce(value: inout Int, nextValue: () -> Int) {}
            }
            func read<T: PreferenceKey>(_ key: T.Type) -> T.Value { key.defaultValue }
            func f() -> Int { read(K.self) }
            """
        #expect(result(source) == 7)
    }

    @Test func metatypeValuesCompareAndPass() throws {
        let source = """
            struct K: PreferenceKey {
                static var defaultValue = 7
                static func reduce(value: inout Int, nextValue: () -> Int) {}
            }
            func same<T>(_ a: T.Type, _ b: T.Type) -> Bool { true }
            func f() -> Int { same(K.self, K.self) ? K.defaultValue : 0 }
            """
        #expect(result(source) == 7)
    }

    @Test func attributedStringLocalizedInflects() throws {
        let source = """
            func f(_ n: Int) -> AttributedString {
                AttributedString(localized: "There ^[is \\(n) error](inflect: true)")
            }
            func g(_ n: Int) -> AttributedString {
                AttributedString(localized: "^[\\(n) file](inflect: true) left")
            }
            """
        let script = try Script.compile(source)
        #expect(try script.call("f", [2]) == "There are 2 errors")
        #expect(try script.call("f", [1]) == "There is 1 error")
        #expect(try script.call("g", [3]) == "3 files left")
    }

    /// A seed's status line: the count interpolated as `agreeWithArgument`'s value is the number "is" agrees with.
    @Test func attributedStringLocalizedAgreesWithAnInterpolatedArgument() throws {
        let source = """
            func f(_ errorCount: Int) -> AttributedString {
                let status = AttributedString(
                    localized: "^[There is](agreeWithArgument: \\(errorCount)) ^[\\(errorCount) error](inflect: true)")
                return status
            }
            func g(_ count: Int) -> AttributedString {
                AttributedString(localized: "^[\\(count) file](inflect: true) ^[was](agreeWithArgument: \\(count)) saved")
            }
            """
        let script = try Script.compile(source)
        #expect(try script.call("f", [0]) == "There are 0 errors")
        #expect(try script.call("f", [1]) == "There is 1 error")
        #expect(try script.call("f", [2]) == "There are 2 errors")
        #expect(try script.call("f", [3]) == "There are 3 errors")
        #expect(try script.call("g", [1]) == "1 file was saved")
        #expect(try script.call("g", [2]) == "2 files were saved")
    }
}
