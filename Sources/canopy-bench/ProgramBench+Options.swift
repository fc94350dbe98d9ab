import Glibc

/// `--programs`' own flags (see the usage text in main.swift).
func runPrograms(_ args: [String]) {
    var s = ProgramBench.Settings()
    var sourcePath: String?
    var i = 0
    func value() -> String {
        i += 1
        guard i < args.count else { fail("\(args[i - 1]) needs a value") }
        return args[i]
    }
    func positiveInt(_ text: String) -> Int {
        guard let n = Int(text.filter { $0 != "_" }), n > 0 else { fail("not a positive integer: \(text)") }
        return n
    }
    while i < args.count {
        switch args[i] {
        case "--fields": s.fields = positiveInt(value())
        case "--per-section": s.perSection = positiveInt(value())
        case "--keystrokes": s.keystrokes = positiveInt(value())
        case "--creations": s.creations = positiveInt(value())
        case "--binding": s.binding = true
        case "--count-key": s.counts = true
        case "--count-label": s.label = true
        case "--seed":
            guard let seed = UInt64(value()) else { fail("--seed needs an unsigned integer") }
            s.seed = seed
        case "--write-source": sourcePath = value()
        default: fail("unknown argument for --programs: \(args[i])")
        }
        i += 1
    }
    // Sections are all full, so every field id follows the same pattern.
    guard s.fields % s.perSection == 0 else { fail("--fields must be a multiple of --per-section") }
    if let sourcePath {
        let source = FormProgram.source(
            fields: s.fields, perSection: s.perSection, binding: s.binding, counts: s.counts,
            label: s.label)
        guard writeFile(sourcePath, source) else { fail("cannot write \(sourcePath)") }
        say("wrote \(sourcePath): \(s.fields) fields, view BigForm")
        return
    }
    ProgramBench.run(s)
}
