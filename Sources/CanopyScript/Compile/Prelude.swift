/// The part of the library written in Swift itself: SwiftUI's protocols and the geometry types real keys fold.
/// Compiled with every program, so user extensions of `CGSize` or `PreferenceKey` work as in Swift.
enum Prelude {
    static let source = """
        protocol Equatable {}
        protocol Hashable: Equatable {}
        protocol Comparable: Equatable {}
        protocol Identifiable {}
        protocol CaseIterable {}
        protocol Sendable {}
        protocol CustomStringConvertible {}
        protocol Codable {}
        protocol Encodable {}
        protocol Decodable {}
        protocol PreferenceKey {
            associatedtype Value
        }
        protocol EnvironmentKey {
            associatedtype Value
        }
        protocol View {}
        protocol ViewModifier {}
        protocol PreviewModifier {}
        protocol PreviewProvider {}
        struct EnvironmentValues {}
        protocol ValidationRuleBase {}

        struct CGPoint: Equatable, Hashable {
            var x: CGFloat = 0
            var y: CGFloat = 0
            static let zero = CGPoint()
        }

        struct CGSize: Equatable, Hashable {
            var width: CGFloat = 0
            var height: CGFloat = 0
            static let zero = CGSize()
        }

        struct CGRect: Equatable, Hashable {
            var origin: CGPoint = CGPoint()
            var size: CGSize = CGSize()
            static let zero = CGRect()
            static let null = CGRect(x: CGFloat.infinity, y: CGFloat.infinity, width: 0, height: 0)
            init() {}
            init(origin: CGPoint, size: CGSize) {
                self.origin = origin
                self.size = size
            }
            init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
                origin = CGPoint(x: x, y: y)
                size = CGSize(width: width, height: height)
            }
            var width: CGFloat { abs(size.width) }
            var height: CGFloat { abs(size.height) }
            var minX: CGFloat { min(origin.x, origin.x + size.width) }
            var maxX: CGFloat { max(origin.x, origin.x + size.width) }
            var minY: CGFloat { min(origin.y, origin.y + size.height) }
            var maxY: CGFloat { max(origin.y, origin.y + size.height) }
            var midX: CGFloat { (minX + maxX) / 2 }
            var midY: CGFloat { (minY + maxY) / 2 }
            var isNull: Bool { origin.x == CGFloat.infinity || origin.y == CGFloat.infinity }
            var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }
            func union(_ r: CGRect) -> CGRect {
                if isNull { return r }
                if r.isNull { return self }
                let x0 = min(minX, r.minX)
                let y0 = min(minY, r.minY)
                return CGRect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
            }
            func intersection(_ r: CGRect) -> CGRect {
                let x0 = max(minX, r.minX)
                let y0 = max(minY, r.minY)
                let x1 = min(maxX, r.maxX)
                let y1 = min(maxY, r.maxY)
                if x1 < x0 || y1 < y0 { return CGRect.null }
                return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            }
            func intersects(_ r: CGRect) -> Bool { !intersection(r).isNull }
            func insetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
                CGRect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
            }
            func offsetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
                CGRect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
            }
            func contains(_ p: CGPoint) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
        }
        func swap<T>(_ a: inout T, _ b: inout T) {
            let t = a
            a = b
            b = t
        }
        """
}
