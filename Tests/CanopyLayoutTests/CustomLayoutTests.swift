import Testing

@testable import CanopyLayout

/// A user Layout reached through CustomLayoutHost: a row that puts its subviews side by side at their ideal sizes,
/// bottom-aligned (layout 1), and one that throws (layout 2).
private final class RowHost: CustomLayoutHost {
    struct Failure: Error, Equatable {}
    var sized = 0

    func sizeThatFits(layout id: Int, proposal: ProposedSize, subviews: LayoutSubviews) throws -> LayoutSize {
        if id == 2 { throw Failure() }
        sized += 1
        let sizes = subviews.map { $0.sizeThatFits(.unspecified) }
        return LayoutSize(width: sizes.map(\.width).reduce(0, +), height: sizes.map(\.height).max() ?? 0)
    }

    func placeSubviews(layout id: Int, in bounds: LayoutRect, proposal: ProposedSize, subviews: LayoutSubviews) throws {
        var x = bounds.minX
        for subview in subviews {
            let size = subview.sizeThatFits(.unspecified)
            subview.place(at: LayoutPoint(x: x, y: bounds.maxY), anchor: .bottomLeading, proposal: .unspecified)
            x += size.width
        }
    }
}

@Suite struct CustomLayoutTests {
    @Test func aCustomLayoutSizesAndPlacesThroughItsHost() throws {
        let host = RowHost()
        let b = TreeBuilder()
        b.tree.customHost = host
        let first = b.box(30, 10)
        let second = b.box(20, 40)
        let row = b.node(.custom(1), [first, second])
        try b.layout(row)
        #expect(close(b.frame(row), rect(515.0 / 3, 406, 50, 40)))
        #expect(close(b.exact(first), rect(171.5, 436, 30, 10)))
        #expect(close(b.exact(second), rect(201.5, 406, 20, 40)))
        // Cached: a second layout does not ask the host again.
        let before = host.sized
        try b.tree.layout()
        #expect(host.sized == before)
    }

    @Test func theHostsErrorsAreThrownByLayout() throws {
        let host = RowHost()
        let b = TreeBuilder()
        b.tree.customHost = host
        let failing = b.node(.custom(2), [b.color()])
        let outer = b.node(.custom(1), [failing])
        b.tree.setRoot(outer)
        #expect(throws: RowHost.Failure()) { try b.tree.layout() }
    }

    @Test func withoutAHostACustomLayoutIsAZStack() throws {
        let b = TreeBuilder()
        let box = b.box(30, 10)
        let custom = b.node(.custom(7), [box])
        try b.layout(b.frame(custom, width: 100, height: 100))
        #expect(close(b.exact(box), rect(181.5, 421, 30, 10)))
    }
}
