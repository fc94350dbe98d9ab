import SwiftSyntax

/// String literals: escapes, interpolation, multi-line indentation.
extension Compiler {
    // MARK: Strings

    func stringLiteral(_ s: StringLiteralExprSyntax) -> Expr {
        let at = loc(s)
        let parts = stringParts(s)
        if parts.allSatisfy({ $0.argument == nil }) {
            return LiteralExpr(at, .string(parts.compactMap(\.literal).joined()), .string)
        }
        var exprs: [Expr] = []
        for p in parts {
            if let l = p.literal, !l.isEmpty { exprs.append(LiteralExpr(at, .string(l), .string)) }
            if let a = p.argument { exprs.append(a) }
        }
        return InterpolationExpr(at, exprs)
    }

    /// A literal's text pieces (escapes processed, multi-line indentation removed) and interpolated arguments.
    func stringParts(_ s: StringLiteralExprSyntax) -> [(literal: String?, argument: Expr?)] {
        if s.openingPounds != nil { error(s, "raw strings are not part of Canopy's Swift subset") }
        let multiline = s.openingQuote.text == "\"\"\""
        var out: [(literal: String?, argument: Expr?)] = []
        var indent = ""
        if multiline, case .stringSegment(let last)? = s.segments.last {
            let raw = last.content.text
            if let nl = raw.lastIndex(of: "\n") { indent = String(raw[raw.index(after: nl)...]) }
            else if s.segments.count == 1 { indent = raw }
        }
        for (index, seg) in s.segments.enumerated() {
            switch seg {
            case .stringSegment(let t):
                var raw = t.content.text
                if multiline {
                    var lines = raw.components(separatedByNewline: ())
                    for j in lines.indices where j > 0 || atLineStart(s, index) {
                        if lines[j].hasPrefix(indent) { lines[j] = String(lines[j].dropFirst(indent.count)) }
                    }
                    raw = lines.joined(separator: "\n")
                    if index == 0, raw.hasPrefix("\n") { raw.removeFirst() }
                    if index == s.segments.count - 1 {
                        if raw.hasSuffix("\n") { raw.removeLast() } else if raw.allSatisfy({ $0 == " " }) { raw = "" }
                    }
                    raw = raw.replacingAll("\\\n", with: "")
                }
                out.append((unescape(raw, t), nil))
            case .expressionSegment(let x):
                guard let first = x.expressions.first, x.expressions.count == 1, first.label == nil else {
                    error(x, "only '\\(value)' interpolations are part of Canopy's Swift subset")
                    continue
                }
                out.append((nil, expr(first.expression, expected: nil)))
            }
        }
        return out
    }

    private func atLineStart(_ s: StringLiteralExprSyntax, _ index: Int) -> Bool {
        guard index > 0 else { return true }
        if case .stringSegment(let prev) = s.segments[s.segments.index(s.segments.startIndex, offsetBy: index - 1)] {
            return prev.content.text.hasSuffix("\n")
        }
        return false
    }

    private func unescape(_ raw: String, _ node: some SyntaxProtocol) -> String {
        guard raw.contains("\\") else { return raw }
        var out = ""
        var it = raw.makeIterator()
        while let c = it.next() {
            guard c == "\\" else {
                out.append(c)
                continue
            }
            switch it.next() {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\0")
            case "\\": out.append("\\")
            case "\"": out.append("\"")
            case "'": out.append("'")
            case "u":
                _ = it.next()
                var hex = ""
                while let h = it.next(), h != "}" { hex.append(h) }
                if let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) { out.unicodeScalars.append(scalar) }
                else { error(node, "invalid unicode escape") }
            case let other?: out.append(other)
            case nil: break
            }
        }
        return out
    }
}
