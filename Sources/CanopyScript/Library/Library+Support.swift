/// Helpers the natives share: reading arguments, calling closures, a stable sort that can fault.
extension Machine {
    /// A closure argument, checked: a function or a key path used as one (`map(\.name)`).
    func callable(_ v: Value) throws(ScriptFault) -> Value {
        switch v.unboxed {
        case .function, .keyPath: return v.unboxed
        default: throw fault("this argument must be a function")
        }
    }

    /// Calls a closure argument from inside a native, at the native's call site.
    @inline(__always)
    func apply(_ c: Value, _ args: Value...) throws(ScriptFault) -> Value {
        try call(value: c, args, site: site)
    }

    /// Calls a predicate closure.
    @inline(__always)
    func test(_ c: Value, _ args: Value...) throws(ScriptFault) -> Bool {
        try truth(call(value: c, args, site: site), at: site)
    }

    func int(_ v: Value, _ what: String = "argument") throws(ScriptFault) -> Int {
        if case .int(let i) = v.unboxed { return i }
        throw fault("\(what) must be an Int")
    }

    func string(_ v: Value) throws(ScriptFault) -> String {
        if case .string(let s) = v.unboxed { return s }
        throw fault("argument must be a String")
    }

    func double(_ v: Value) throws(ScriptFault) -> Double {
        if let d = v.unboxed.number { return d }
        throw fault("argument must be a number")
    }

    /// Stable merge sort with a comparator that may fault; charges n log n.
    func sortStable(_ a: [Value], _ less: (Value, Value) throws(ScriptFault) -> Bool) throws(ScriptFault) -> [Value] {
        let n = a.count
        if n < 2 { return a }
        var levels = 0
        var w = 1
        while w < n {
            levels += 1
            w *= 2
        }
        try chargeLibrary(n * levels)
        var src = a
        var dst = a
        var width = 1
        while width < n {
            var lo = 0
            while lo < n {
                let mid = min(lo + width, n)
                let hi = min(lo + 2 * width, n)
                var i = lo
                var j = mid
                var k = lo
                while i < mid && j < hi {
                    // Take from the right only when strictly smaller, so equal elements keep their order.
                    if try less(src[j], src[i]) {
                        dst[k] = src[j]
                        j += 1
                    } else {
                        dst[k] = src[i]
                        i += 1
                    }
                    k += 1
                }
                while i < mid {
                    dst[k] = src[i]
                    i += 1
                    k += 1
                }
                while j < hi {
                    dst[k] = src[j]
                    j += 1
                    k += 1
                }
                lo = hi
            }
            swap(&src, &dst)
            width *= 2
        }
        return src
    }

    /// Sorts by `<`, or by a closure argument when one is given.
    func sorted(_ a: [Value], by closure: Value?) throws(ScriptFault) -> [Value] {
        if let closure {
            let c = try callable(closure)
            return try sortStable(a) { (x: Value, y: Value) throws(ScriptFault) -> Bool in try test(c, x, y) }
        }
        return try sortStable(a) { (x: Value, y: Value) throws(ScriptFault) -> Bool in try less(x, y, at: site) }
    }

    /// The smallest (or largest) element, the first one among equals, as Swift's `min()`/`max()`.
    func extreme(_ a: [Value], largest: Bool, by closure: Value?) throws(ScriptFault) -> Value {
        guard var best = a.first else { return .null }
        try chargeLibrary(a.count)
        var c: Value?
        if let closure { c = try callable(closure) }
        for e in a.dropFirst() {
            let (x, y) = largest ? (best, e) : (e, best)
            let before: Bool
            if let c { before = try test(c, x, y) } else { before = try less(x, y, at: site) }
            if before { best = e }
        }
        return best
    }

    /// `v.name` computed by a program's extension of `v`'s library type, nil when it declares none.
    func extensionProperty(of v: Value, _ name: String) throws(ScriptFault) -> Value? {
        guard let t = program.builtinType(of: v), let getter = program.types[t].methods[name] else { return nil }
        return try call(BoundMethod(getter, receiver: v.unboxed), [], site: site)
    }

    /// The characters of a string as one-character strings.
    func characters(_ s: String) throws(ScriptFault) -> [Value] {
        try chargeLibrary(s.utf8.count)
        return s.map { .string(String($0)) }
    }
}

extension Value {
    /// The items of a tuple (dictionary elements are `(key, value)` tuples).
    var tupleItems: [Value]? {
        if case .tuple(let t) = unboxed { return t }
        return nil
    }
}
