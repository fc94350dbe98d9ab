import CanopyCore

/// Where running code gets what is not in its source: the time (`Date()`) and random words (`Int.random(in:)`,
/// `UUID()`, `shuffled()`). A program tree gives each transaction's (recorded with it); a program's constants and
/// preview contexts get a fixed seed and no time; a key's `reduce` gets nothing. The interpreter never reads a clock.
package protocol InputSource: AnyObject {
    /// Seconds since 1970, or a fault saying why there is no time here.
    func time(_ m: Machine) throws(ScriptFault) -> Double
    /// 64 random bits, or a fault saying why there are none here.
    func randomWord(_ m: Machine) throws(ScriptFault) -> UInt64
}

/// Inputs that do not change while they are used: an optional time and one generator.
package final class FixedInputs: InputSource {
    let timeValue: Double?
    var generator: SplitMix64?
    /// Why there is no time (or no randomness) here.
    let refusal: String

    package init(time: Double?, seed: UInt64?, refusal: String) {
        timeValue = time
        generator = seed.map { SplitMix64(seed: $0) }
        self.refusal = refusal
    }

    package func time(_ m: Machine) throws(ScriptFault) -> Double {
        guard let timeValue else { throw m.fault("Date() reads the current time, which \(refusal)") }
        return timeValue
    }

    package func randomWord(_ m: Machine) throws(ScriptFault) -> UInt64 {
        guard generator != nil else { throw m.fault("a random value is an input, which \(refusal)") }
        return generator!.next()
    }
}

extension Machine {
    /// The time the running code sees: the transaction's.
    package func now() throws(ScriptFault) -> Double {
        guard let inputs else {
            throw fault("Date() reads the current time, which only a program tree's transaction has (it is recorded with it)")
        }
        return try inputs.time(self)
    }

    package func randomWord() throws(ScriptFault) -> UInt64 {
        guard let inputs else {
            throw fault("a random value is an input that only a program tree's transaction has (it is recorded with it)")
        }
        return try inputs.randomWord(self)
    }

    /// A uniform integer in `0..<bound` (`bound` > 0), without modulo bias: words above the largest multiple of
    /// `bound` are drawn again.
    package func random(below bound: UInt64) throws(ScriptFault) -> UInt64 {
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let w = try randomWord()
            if w < limit { return w % bound }
        }
    }

    /// A uniform integer in `lo...hi`.
    package func random(from lo: Int, through hi: Int) throws(ScriptFault) -> Int {
        let span = UInt64(bitPattern: Int64(hi &- lo))
        if span == UInt64.max { return Int(Int64(bitPattern: try randomWord())) }
        return lo &+ Int(Int64(bitPattern: try random(below: span + 1)))
    }

    /// A uniform double in `0..<1` with 53 random bits.
    package func randomUnit() throws(ScriptFault) -> Double {
        Double(try randomWord() >> 11) * 0x1p-53
    }
}
