#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `String(format:_:…)`, Foundation's printf-style formatting with the C library's conversions (what Foundation
/// uses underneath), in the POSIX locale: `%d %i %u %x %X %o %c` take an `Int`, `%f %F %e %E %g %G %a %A` a
/// `Double`, `%@` any value as `String(describing:)` shows it (width and flags ignored, as Foundation does), `%%` a percent sign; flags, width, precision and
/// length modifiers (`%05.2f`, `%-8@`, `%ld`) as C reads them. Positional arguments (`%1$@`) and `%s` (a C
/// string) are refused.
extension Library {
    func registerFormat() {
        for n in 0...8 {
            let labels = "format:" + String(repeating: "_:", count: n)
            typeFunction("String", "init(\(labels))") { m, args throws(ScriptFault) in
                .string(try m.format(try m.string(args[0]), Array(args.dropFirst())))
            }
        }
    }
}

extension Machine {
    func format(_ template: String, _ args: [Value]) throws(ScriptFault) -> String {
        var out = ""
        var next = 0
        let chars = Array(template.unicodeScalars)
        var i = 0
        func argument() throws(ScriptFault) -> Value {
            guard next < args.count else { throw fault("String(format:) has more conversions than arguments") }
            defer { next += 1 }
            return args[next].unboxed
        }
        while i < chars.count {
            let c = chars[i]
            guard c == "%" else {
                out.unicodeScalars.append(c)
                i += 1
                continue
            }
            var spec = "%"
            i += 1
            while i < chars.count, "-+ #0123456789.".unicodeScalars.contains(chars[i]) {
                spec.unicodeScalars.append(chars[i])
                i += 1
            }
            while i < chars.count, "lhqLzjt".unicodeScalars.contains(chars[i]) { i += 1 }  // length: Swift's are 64-bit
            guard i < chars.count else { throw fault("String(format:) ends inside a conversion") }
            let conversion = chars[i]
            i += 1
            if spec.contains("$") { throw fault("positional arguments in String(format:) are not part of Canopy's Swift subset") }
            switch conversion {
            case "%": out += "%"
            case "d", "i", "u", "x", "X", "o", "c":
                guard case .int(let v) = try argument() else { throw fault("%\(conversion) in String(format:) needs an Int") }
                out += cFormat(spec + "l" + String(conversion), v)
            case "f", "F", "e", "E", "g", "G", "a", "A":
                guard let v = try argument().number else { throw fault("%\(conversion) in String(format:) needs a Double") }
                out += cFormat(spec + String(conversion), v)
            case "@":
                // Foundation ignores a width or flags on `%@` (`%-8@` of "ab" is "ab").
                out += describe(try argument())
            default:
                throw fault("the conversion %\(conversion) of String(format:) is not part of Canopy's Swift subset")
            }
        }
        return out
    }

    /// One conversion through the C library's `snprintf`.
    private func cFormat(_ spec: String, _ value: some CVarArg) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = withVaList([value]) { vsnprintf(&buffer, buffer.count, spec, $0) }
        if n >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(n) + 1)
            _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, spec, $0) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
