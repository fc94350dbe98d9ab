import CanopyCore

/// A compiled Swift program, for running its functions directly (tests, tools): arguments and results cross as
/// JSON (PROGRAMS.md §5).
public struct Script: @unchecked Sendable {  // the program is immutable once compiled
    let program: Program

    /// Compiles `source`; every diagnostic at once on failure.
    public static func compile(_ source: String) throws(CompileFailure) -> Script {
        Script(program: try Compiler.compile(source))
    }

    /// Calls the top-level function `name` (a full name such as `f(_:x:)`, or a base name when it is unique)
    /// with `arguments` decoded to its parameter types; returns its result encoded.
    /// `inputs` give `Date()` its time and random draws their seed; without them reading either faults.
    public func call(_ name: String, _ arguments: [JSON] = [], fuel: Int = 10_000_000, inputs: ProgramInputs? = nil)
        throws(ScriptFault) -> JSON
    {
        guard let f = program.functions[name] ?? program.functions.filter({ $0.key.hasPrefix(name + "(") }).min(by: { $0.key < $1.key })?.value
        else {
            throw ScriptFault(.runtime, "no function \(name)", at: .unknown)
        }
        var args: [Value] = []
        for (i, a) in arguments.enumerated() {
            let t = i < f.parameterTypes.count ? f.parameterTypes[i] : .unknown
            switch program.decode(a, as: t) {
            case .success(let v): args.append(v)
            case .failure(let e): throw ScriptFault(.runtime, "argument \(i): \(e.message)", at: .unknown)
            }
        }
        let m = Machine(fuel: fuel)
        m.program = program
        m.inputs = Self.source(inputs)
        let r = try m.call(f, &args, site: f.location)
        return program.encode(r)
    }

    /// Runs the top-level function `name` (no arguments) and returns what it printed, and the fault that stopped
    /// it, if one did: the differential test's view of a program, as a terminal shows a `swiftc` build's run.
    public func run(_ name: String = "main", fuel: Int = 10_000_000, inputs: ProgramInputs? = nil)
        -> (output: String, fault: ScriptFault?)
    {
        guard let f = program.functions[name + "()"] else {
            return ("", ScriptFault(.runtime, "no function \(name)()", at: .unknown))
        }
        let m = Machine(fuel: fuel)
        m.program = program
        m.inputs = Self.source(inputs)
        m.output = ""
        var args: [Value] = []
        do {
            _ = try m.call(f, &args, site: f.location)
            return (m.output ?? "", nil)
        } catch {
            return (m.output ?? "", error)
        }
    }

    private static func source(_ inputs: ProgramInputs?) -> (any InputSource)? {
        inputs.map { FixedInputs(time: $0.time, seed: $0.seed, refusal: "") }
    }

    /// The value of a static property or top-level constant, encoded.
    public func constant(_ name: String, of type: String? = nil) -> JSON? {
        if let type {
            guard let t = program.type(named: type), let i = t.staticConstants[name] else { return nil }
            return program.cells[i].value.map { program.encode($0) }
        }
        return program.cells.first { $0.name == name }?.value.map { program.encode($0) }
    }

    /// The names of the `PreferenceKey`s the program declares.
    public var preferenceKeys: [String] {
        program.types.filter { $0.kind != .protocolType && $0.conforms(to: "PreferenceKey") && $0.location.line > 0 }
            .map(\.name)
    }
}
