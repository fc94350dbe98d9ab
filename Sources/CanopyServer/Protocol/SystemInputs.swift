import CanopyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// canopyd's program-tree inputs: the wall clock (CLOCK_REALTIME, what Foundation's `Date()` reads) and a seed from
/// the system's random source. Each transaction records what it got (PROGRAMS.md §2, docs/programs.md "Inputs").
public struct SystemInputs: ProgramInputSource {
    public init() {}

    public func next() -> ProgramInputs {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let time = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return ProgramInputs(time: time, seed: UInt64.random(in: 0..<ProgramInputs.seedLimit))
    }
}
