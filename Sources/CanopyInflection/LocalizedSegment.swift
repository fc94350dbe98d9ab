/// One piece of a localized string literal: literal text (which may contain the markup) or an interpolated argument,
/// with the text it shows and, when it is a number, its value.
package enum LocalizedSegment: Sendable, Equatable {
    case literal(String)
    case argument(text: String, number: Double?)
}
