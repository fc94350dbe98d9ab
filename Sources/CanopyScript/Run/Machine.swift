import CanopyCore

/// The running state of Swift code: a value stack of frames, fuel, depth, and the call stack for faults.
/// Not shared between threads: one per evaluation (it lives in `ReducerContext.scratch`).
package final class Machine {
    package var stack: [Value] = Array(repeating: .null, count: 256)
    /// First free slot.
    package var sp = 0
    /// Base of the running frame.
    package var fp = 0
    /// The running closure's captured boxes.
    package var captures: [Box] = []
    /// The value a `return` left.
    package var returned: Value = .null
    /// Work left; every statement, call and loop pass costs one, library calls their size.
    package var fuel: Int
    package let maxDepth: Int
    package var depth = 0
    /// Function name and call site of every running frame, outermost first.
    package var frames: [(function: Function, site: SourceLocation)] = []
    /// The call site a library function was entered from, for faults raised inside it.
    package var site = SourceLocation.unknown
    /// Largest string length or collection count a value may reach.
    package let maxCount: Int
    /// Recycled `nextValue` thunks, one per nesting level of `reduce` calls.
    package var thunks: [NextValueThunk] = []
    package var thunkDepth = 0
    /// The program whose code runs (set by whoever starts a run).
    package var program: Program!
    /// Top-level `var`s when no program tree holds them (`Script.run`): one store per machine.
    package var globals: [Int: StateBox] = [:]
    /// What `print` wrote, when someone listens (`Script.run`); `nil` discards it, as a daemon does.
    package var output: String?
    /// The program tree whose view code runs, if any: it sees state reads and writes.
    package weak var host: (any ViewHost)?
    /// Answers `GeometryProxy`'s questions: the program tree's layout (none for a script run alone).
    package weak var geometry: (any GeometryHost)?
    /// Answers `LayoutSubview`'s questions while a program's `Layout` runs (nil outside a layout call).
    package weak var layoutHost: (any LayoutCallHost)?
    /// The time and random draws code sees (`InputSource`); `nil`: none, and reading them faults.
    package var inputs: (any InputSource)?
    /// Where a program tree notes the objects its code assigns properties of (nil: nobody keeps them).
    package var objectWrites: ObjectWrites?

    package init(fuel: Int = 10_000_000, maxDepth: Int = 200, maxCount: Int = 1_000_000) {
        self.fuel = fuel
        self.maxDepth = maxDepth
        self.maxCount = maxCount
    }

    // MARK: Faults

    /// A runtime fault at `location` with the Swift call stack.
    package func fault(_ message: String, at location: SourceLocation) -> ScriptFault {
        ScriptFault(.runtime, message, at: location, stack: callStack(innermost: location))
    }

    /// A fault inside a library function: at the call site it was entered from.
    package func fault(_ message: String) -> ScriptFault { fault(message, at: site) }

    package func callStack(innermost: SourceLocation) -> [String] {
        var out: [String] = []
        var at = innermost
        for f in frames.reversed() {
            out.append("\(f.function.name) at \(at)")
            at = f.site
        }
        return out
    }

    @inline(__always)
    package func charge(_ units: Int = 1, at location: SourceLocation) throws(ScriptFault) {
        fuel -= units
        if fuel < 0 {
            throw ScriptFault(.outOfFuel, "the work limit was reached", at: location, stack: callStack(innermost: location))
        }
    }

    /// Charges for library work proportional to `units` (elements visited).
    @inline(__always)
    package func chargeLibrary(_ units: Int) throws(ScriptFault) { try charge(units, at: site) }

    /// Faults when a string or collection would grow beyond the size limit.
    @inline(__always)
    package func checkCount(_ n: Int) throws(ScriptFault) { try checkCount(n, at: site) }

    /// The same, for code the interpreter runs itself (operators, interpolation) at `location`.
    @inline(__always)
    package func checkCount(_ n: Int, at location: SourceLocation) throws(ScriptFault) {
        if n > maxCount { throw fault("a value grew beyond \(maxCount) elements", at: location) }
    }

    // MARK: Frames

    /// Reserves a frame of `n` slots above the stack pointer and returns its base.
    @inline(__always)
    package func reserve(_ n: Int) -> Int {
        let base = sp
        sp += n
        if sp > stack.count { stack.append(contentsOf: repeatElement(.null, count: max(sp - stack.count, stack.count))) }
        return base
    }

    /// Pops a frame, dropping its values.
    @inline(__always)
    package func release(_ base: Int) {
        var i = base
        while i < sp {
            stack[i] = .null
            i += 1
        }
        sp = base
    }

    /// Runs `f` on the frame at `base`, whose parameters are already in place. The frame stays reserved, so the
    /// caller can read `inout` parameters back before releasing it.
    package func run(_ f: Function, base: Int, captures: [Box], site: SourceLocation) throws(ScriptFault) -> Value {
        depth += 1
        defer { depth -= 1 }
        if depth > maxDepth {
            throw fault("recursion went deeper than \(maxDepth) calls", at: site)
        }
        try charge(at: site)
        for i in f.boxedParameters { stack[base + i] = .box(Box(stack[base + i])) }
        let savedFP = fp
        let savedCaptures = self.captures
        fp = base
        self.captures = captures
        frames.append((f, site))
        defer {
            fp = savedFP
            self.captures = savedCaptures
            frames.removeLast()
        }
        for s in f.body {
            if case .returned = try s.exec(self) { break }
        }
        let result = returned
        returned = .null
        return result
    }

    /// Calls any callable with `args`; `inout` parameters are written back into `args`.
    package func call(_ c: Callable, _ args: inout [Value], site: SourceLocation) throws(ScriptFault) -> Value {
        switch c.kind {
        case .function:
            return try invoke(unsafeDowncast(c, to: Function.self), captures: [], receiver: nil, &args, site: site)
        case .closure:
            let cl = unsafeDowncast(c, to: Closure.self)
            return try invoke(cl.function, captures: cl.captures, receiver: nil, &args, site: site)
        case .bound:
            let b = unsafeDowncast(c, to: BoundMethod.self)
            return try invoke(b.function, captures: [], receiver: b.receiver, &args, site: site)
        case .native:
            return try callNative(unsafeDowncast(c, to: NativeFunction.self), args, at: site)
        case .nextValue:
            return try unsafeDowncast(c, to: NextValueThunk.self).value(self)
        }
    }

    /// Runs a library member on `receiver`; faults inside it are placed at `location`.
    @inline(__always)
    func callNative(_ native: NativeMember, _ receiver: inout Value, _ args: [Value], at location: SourceLocation)
        throws(ScriptFault) -> Value
    {
        let saved = site
        site = location
        defer { site = saved }
        return try native.body(self, &receiver, args)
    }

    /// Runs a library function; faults inside it are placed at `location`.
    @inline(__always)
    package func callNative(_ function: NativeFunction, _ args: [Value], at location: SourceLocation) throws(ScriptFault)
        -> Value
    {
        let saved = site
        site = location
        defer { site = saved }
        if let arity = function.arity, args.count != arity {
            // `zip(a, b).map(max)`: one pair for a function of two parameters, taken apart as Swift does.
            if args.count == 1, case .tuple(let parts) = args[0].unboxed, parts.count == arity {
                return try function.body(self, parts)
            }
            throw fault("\(function.name) takes \(arity) arguments, not \(args.count)", at: location)
        }
        return try function.body(self, args)
    }

    /// Calls with arguments that need no write-back.
    package func call(_ c: Callable, _ args: [Value], site: SourceLocation) throws(ScriptFault) -> Value {
        var a = args
        return try call(c, &a, site: site)
    }

    /// Calls a value that should be a function.
    package func call(value: Value, _ args: [Value], site: SourceLocation) throws(ScriptFault) -> Value {
        if case .keyPath(let path) = value.unboxed, args.count == 1 {
            var v = args[0]
            for step in path where step.name != "self" {
                v = try member(of: v, step.name, via: step.viaProtocol, throughProtocol: step.throughProtocol, at: site)
            }
            return v
        }
        guard case .function(let c) = value.unboxed else { throw fault("this value is not a function", at: site) }
        return try call(c, args, site: site)
    }

    package func invoke(
        _ f: Function, captures: [Box], receiver: Value?, _ args: inout [Value], site: SourceLocation
    ) throws(ScriptFault) -> Value {
        let base = reserve(f.slotCount)
        defer { release(base) }
        var p = 0
        if f.hasSelf {
            stack[base] = receiver ?? .null
            p = 1
        }
        // A closure of n parameters given one n-tuple takes it apart, as Swift does for `forEach { k, v in }`.
        if args.count == 1, f.parameterCount - p > 1, case .tuple(let items) = args[0], items.count == f.parameterCount - p {
            args = items
        }
        let given = min(args.count, f.parameterCount - p)
        for i in 0..<given {
            // Moved, not copied: an inout accumulator (`reduce(into:)`) must have one owner to grow in place.
            stack[base + p + i] = args[i]
            args[i] = .null
        }
        if given < f.parameterCount - p {
            throw fault("\(f.name) takes \(f.parameterCount - p) arguments, got \(args.count)", at: site)
        }
        let result = try run(f, base: base, captures: captures, site: site)
        for i in f.inoutParameters where i >= p && i - p < args.count { args[i - p] = stack[base + i].unboxed }
        return result
    }

    /// Clears everything a run left behind, so no state carries from one run to the next.
    package func reset() {
        release(0)
        fp = 0
        captures = []
        returned = .null
        frames = []
        depth = 0
        thunkDepth = 0
    }
}

/// `nextValue` as handed to a key's `reduce`: pulls the engine's sibling on the first call and returns the same
/// value on later ones.
package final class NextValueThunk: Callable {
    /// The engine's pull of the next sibling, valid only while its `reduce` runs.
    package var pull: (() -> JSON)?
    /// The key whose `Value` the sibling's JSON decodes to.
    package unowned(unsafe) var key: ScriptKey?
    package var cached: Value?

    package init() { super.init(kind: .nextValue) }

    package override var displayName: String { "nextValue" }

    package func value(_ m: Machine) throws(ScriptFault) -> Value {
        if let cached { return cached }
        guard let pull, let key else { throw m.fault("nextValue was called after its reduce returned") }
        let v = key.decodeTrusted(pull())
        cached = v
        return v
    }
}
