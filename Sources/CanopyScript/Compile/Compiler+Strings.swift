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
        var out: [(literal: String?, argument: Expr?)] = []
        for seg in s.segments {
            switch seg {
            case .stringSegment(let t):
                // In a multi-line literal swift-syntax keeps each line's indentation, the newline before the closing
                // delimiter and a line-continuing backslash in trivia: the token's text is the literal's own text.
                let raw = t.content.text
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
