import CanopyCore

extension ReducerContext {
    /// Runs Swift of `program` on this evaluation's interpreter (made at its first use and kept in `scratch`) under
    /// the evaluation's fuel. A nested call (a sibling pulled from inside a reduce) shares the outer call's fuel,
    /// already in the machine; a fault is the protocol's error and leaves the machine clean for the next call.
    package func runSwift<T>(_ program: Program, _ body: (Machine) throws(ScriptFault) -> T) throws(CanopyError) -> T {
        let m: Machine
        if let known = scratch as? Machine {
            m = known
        } else {
            m = Machine(fuel: fuel)
            scratch = m
        }
        let saved = m.program
        m.program = program
        if m.depth == 0 { m.fuel = fuel }
        defer {
            fuel = m.fuel
            m.program = saved
        }
        do {
            return try body(m)
        } catch {
            if m.depth == 0 { m.reset() }
            throw error.canopyError
        }
    }
}
