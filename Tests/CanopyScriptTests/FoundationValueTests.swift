import CanopyCore
import Testing

@testable import CanopyScript

/// `Date`, `UUID`, random values and formatting with the transaction's inputs: what `print` shows, checked against
/// what swiftc 6.3.1 printed for the same values with `en_US_POSIX` and UTC set explicitly.
@Suite struct FoundationValueTests {
    /// 2026-11-28 08:46:20.75 UTC.
    static let inputs = ProgramInputs(time: 1_795_855_580.75, seed: 42)

    func output(_ body: String, helpers: String = "", inputs: ProgramInputs? = Self.inputs) throws -> String {
        let s = try Script.compile("\(helpers)\nfunc main() {\n\(body)\n}")
        let (out, fault) = s.run(inputs: inputs)
        if let fault { throw fault }
        return out
    }

    func fault(_ body: String, helpers: String = "", inputs: ProgramInputs? = Self.inputs) throws -> String? {
        let s = try Script.compile("\(helpers)\nfunc main() {\n\(body)\n}")
        return s.run(inputs: inputs).fault?.message
    }

    func diagnostics(_ source: String) -> [String] {
        do {
            _ = try Script.compile(source)
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    @Test func dateIsTheTransactionsTime() throws {
        #expect(try output("print(Date())") == "2026-11-28 08:46:20 +0000\n")
        #expect(try output("print(Date.now.timeIntervalSince1970)") == "1795855580.75\n")
        #expect(try output("print(Date(timeIntervalSinceNow: 60))") == "2026-11-28 08:47:20 +0000\n")
        #expect(try output("let d = Date(); print(d.timeIntervalSinceNow == 0, Date() == d)") == "true true\n")
    }

    @Test func withoutInputsTheTimeIsRefused() throws {
        let message = try #require(try fault("print(Date())", inputs: nil))
        #expect(message.contains("Date() reads the current time"))
        #expect(try fault("print(Int.random(in: 1...6))", inputs: nil)?.contains("random value is an input") == true)
    }

    @Test func aConstantCannotReadTheTimeButDrawsTheSameUUIDsEveryRun() throws {
        #expect(diagnostics("let launched = Date()\nfunc main() { print(launched) }").first?.contains("a constant cannot read") == true)
        let source = """
            struct Item: Identifiable { let id = UUID(); let name: String }
            struct Samples { static let items = [Item(name: "a"), Item(name: "b")] }
            func main() { print(Samples.items.map(\\.id.uuidString)) }
            """
        let a = try Script.compile(source).run(inputs: Self.inputs).output
        let b = try Script.compile(source + "\n").run(inputs: ProgramInputs(time: 0, seed: 1)).output
        #expect(a == b)
        #expect(a.count > 80)
    }

    @Test func randomIntegersStayInTheirRange() throws {
        let out = try output("var seen = Set<Int>(); for _ in 0..<400 { seen.insert(Int.random(in: 1...6)) }; print(seen.sorted())")
        #expect(out == "[1, 2, 3, 4, 5, 6]\n")
        let open = try output("var seen = Set<Int>(); for _ in 0..<400 { seen.insert(Int.random(in: 0..<3)) }; print(seen.sorted())")
        #expect(open == "[0, 1, 2]\n")
        #expect(try output("print(Int.random(in: 5...5), Int.random(in: -3..<(-2)))") == "5 -3\n")
        #expect(try fault("print(Int.random(in: 3..<3))")?.contains("Range requires") == true)
    }

    @Test func theSameSeedDrawsTheSameValues() throws {
        let body = "print((0..<5).map { _ in Int.random(in: 0...1_000_000) }, [1, 2, 3, 4, 5].shuffled(), UUID())"
        #expect(try output(body) == (try output(body)))
        #expect(try output(body) != (try output(body, inputs: ProgramInputs(time: 0, seed: 43))))
    }

    @Test func doublesBoolsElementsAndShuffles() throws {
        let out = try output("""
            var ok = true
            for _ in 0..<200 {
                let d = Double.random(in: 2.0..<3.0)
                let c = Double.random(in: 0...1)
                ok = ok && d >= 2 && d < 3 && c >= 0 && c <= 1
            }
            var bools = Set<Bool>()
            for _ in 0..<50 { bools.insert(Bool.random()) }
            let a = [10, 20, 30]
            var b = a
            b.shuffle()
            print(ok, bools.count, a.contains(a.randomElement()!), b.sorted() == a, a.shuffled().count)
            let none: [Int] = []
            print(none.randomElement() == nil, (1...3).randomElement()! <= 3, "abc".shuffled().count)
            """)
        #expect(out == "true 2 true true 3\ntrue true 3\n")
    }

    @Test func uuidsHaveVersionFourShape() throws {
        let out = try output("let u = UUID(); print(u.uuidString); print(u == u, u == UUID(), [u].count)")
        let lines = out.split(separator: "\n")
        let text = Array(lines[0])
        #expect(text.count == 36)
        #expect([8, 13, 18, 23].allSatisfy { text[$0] == "-" })
        #expect(text[14] == "4")
        #expect(["8", "9", "A", "B"].contains(text[19]))
        #expect(lines[0].uppercased() == lines[0])
        #expect(lines[1] == "true false 1")
    }

    /// swiftc, `Date(timeIntervalSince1970: 1795855580.75)` with `Locale(identifier: "en_US_POSIX")` and UTC.
    @Test func formattingUsesEnUSPOSIXInUTC() throws {
        let nnbsp = "\u{202F}"
        #expect(try output("print(Date().formatted())") == "11/28/2026, 8:46\(nnbsp)AM\n")
        #expect(try output("print(Date().formatted(date: .abbreviated, time: .omitted))") == "Nov 28, 2026\n")
        #expect(
            try output("print(Date().formatted(date: .complete, time: .complete))")
                == "Saturday, November 28, 2026 at 8:46:20\(nnbsp)AM GMT\n")
        #expect(
            try output("let f = DateFormatter(); f.dateStyle = .medium; f.timeStyle = .short; print(f.string(from: Date()))")
                == "Nov 28, 2026 at 8:46\(nnbsp)AM\n")
        #expect(
            try output("let f = DateFormatter(); f.dateFormat = \"EEE d MMM yyyy HH:mm\"; print(f.string(from: Date()))")
                == "Sat 28 Nov 2026 08:46\n")
        #expect(try output("print(Calendar.current.component(.hour, from: Date()))") == "8\n")
    }

    @Test func whatIsNotCoveredIsNamed() throws {
        #expect(try fault("_ = TimeZone(identifier: \"Europe/Paris\")")?.contains("UTC only") == true)
        #expect(try fault("_ = Locale(identifier: \"fr_FR\")")?.contains("en_US_POSIX only") == true)
        #expect(
            try fault("let f = DateFormatter(); f.dateFormat = \"w\"; print(f.string(from: Date()))")?
                .contains("the date format letter 'w'") == true)
        #expect(try fault("print(DateComponents(year: 1))")?.contains("printing a DateComponents") == true)
        #expect(try fault("print(Date(timeIntervalSince1970: -20_000_000_000))")?.contains("1582") == true)
        #expect(diagnostics("func main() { print(Date().formatted(.dateTime)) }").first?.contains("dateTime") == true)
        #expect(diagnostics("func main() { _ = Calendar(identifier: .buddhist) }").isEmpty == false)
    }
}
