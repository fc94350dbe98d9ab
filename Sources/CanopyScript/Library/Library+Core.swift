extension Library {
    /// The members every collection has, and the global `min`, `max`, `abs`.
    func registerCore() {
        typeConstant("Double", "infinity", .double(.infinity))
        typeConstant("Double", "zero", .double(0))
        typeConstant("Double", "pi", .double(.pi))
        typeConstant("Double", "greatestFiniteMagnitude", .double(.greatestFiniteMagnitude))
        typeConstant("Int", "max", .int(.max))
        typeConstant("Int", "min", .int(.min))
        typeConstant("Int", "zero", .int(0))
        typeConstant("Optional", "none", .null)
        // `isOn.toggle()`: the usual way a SwiftUI button flips a flag.
        member([.bool], "toggle", mutating: true, result: .void) { _, v, _ throws(ScriptFault) in
            if case .bool(let b) = v { v = .bool(!b) }
            return .null
        }
        member([.array], "count", property: true, result: .int) { _, v, _ throws(ScriptFault) in
            guard case .array(let a) = v else { return .null }
            return .int(a.count)
        }
        member([.array], "isEmpty", property: true, result: .bool) { _, v, _ throws(ScriptFault) in
            guard case .array(let a) = v else { return .null }
            return .bool(a.isEmpty)
        }
        member([.array], "append", [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            guard case .array(var a) = v else { return .null }
            v = .null
            a.append(args[0])
            try m.checkCount(a.count)
            v = .array(a)
            return .null
        }
        member([.array], "append", ["contentsOf"], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            guard case .array(var a) = v else { return .null }
            let more = try m.elements(args[0], at: m.site)
            try m.chargeLibrary(more.count)
            v = .null
            a.append(contentsOf: more)
            try m.checkCount(a.count)
            v = .array(a)
            return .null
        }
        // Swift's tie rules: max returns its second argument when equal, min its first. A Double next to an Int
        // makes the result a Double (the literal would have been typed so).
        function("max(_:_:)") { m, args throws(ScriptFault) in
            let (a, b) = Library.widened(args[0], args[1])
            return try m.less(b, a, at: m.site) ? a : b
        }
        function("min(_:_:)") { m, args throws(ScriptFault) in
            let (a, b) = Library.widened(args[0], args[1])
            return try m.less(b, a, at: m.site) ? b : a
        }
        function("abs(_:)") { m, args throws(ScriptFault) in
            switch args[0] {
            case .int(let i):
                if i == Int.min { throw m.fault("arithmetic overflow") }
                return .int(abs(i))
            case .double(let d): return .double(abs(d))
            default: throw m.fault("abs needs a number")
            }
        }
        function("fatalError(_:)") { m, args throws(ScriptFault) in
            throw m.fault("Fatal error: " + (args.first.map { m.describe($0) } ?? ""))
        }
        function("fatalError()") { m, _ throws(ScriptFault) in throw m.fault("Fatal error") }
    }

    /// Two numbers of one kind: an Int beside a Double becomes a Double.
    static func widened(_ a: Value, _ b: Value) -> (Value, Value) {
        switch (a, b) {
        case (.int(let x), .double): return (.double(Double(x)), b)
        case (.double, .int(let y)): return (a, .double(Double(y)))
        default: return (a, b)
        }
    }
}
