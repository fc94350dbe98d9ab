import CanopyInflection

/// A string literal cut into segments the way the interpreter cuts `AttributedString(localized:)`'s argument.
struct LocalizedLiteral: ExpressibleByStringInterpolation {
    var segments: [LocalizedSegment]

    init(stringLiteral value: String) {
        segments = [.literal(value)]
    }

    init(stringInterpolation: Interpolation) {
        segments = stringInterpolation.segments
    }

    struct Interpolation: StringInterpolationProtocol {
        var segments: [LocalizedSegment] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { segments.append(.literal(literal)) }
        }

        mutating func appendInterpolation(_ value: Int) {
            segments.append(.argument(text: String(value), number: Double(value)))
        }

        mutating func appendInterpolation(_ value: Double) {
            segments.append(.argument(text: String(value), number: value))
        }

        mutating func appendInterpolation(_ value: String) {
            segments.append(.argument(text: value, number: nil))
        }
    }
}

/// The characters `Inflection.render` gives for the literal.
func render(_ literal: LocalizedLiteral) -> String {
    Inflection.render(literal.segments)
}
