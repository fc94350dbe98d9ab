import CanopyCore
import Foundation
import Testing

/// A program's own `Layout` is user code in the layout (LAYOUT.md §4, issue 26 item 7): one that never ends runs out
/// of the transaction's fuel and one that faults is a runtime error — either way the batch is rejected and nothing
/// changes, and another tree on the same daemon goes on being served.
@Suite struct ProgramLayoutHostileTests {
    static let source = """
        import SwiftUI

        struct Column: Layout {
            var mode: Int

            func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                var height: CGFloat = 0
                for subview in subviews { height += subview.sizeThatFits(.unspecified).height }
                return CGSize(width: proposal.width ?? 100, height: height)
            }

            func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
                var y = bounds.minY
                if mode == 1 {
                    while y >= bounds.minY { y += 0 }
                }
                if mode == 2 {
                    y += subviews[7].sizeThatFits(.unspecified).height
                }
                for subview in subviews {
                    subview.place(at: CGPoint(x: bounds.minX, y: y), proposal: .unspecified)
                    y += subview.sizeThatFits(.unspecified).height
                }
            }
        }

        struct Lab: View {
            @State private var mode = 0
            @State private var taps = 0

            var body: some View {
                Column(mode: mode) {
                    Button("Spin") { mode = 1 }.frame(width: 80, height: 30)
                    Button("Fault") { mode = 2 }.frame(width: 80, height: 30)
                    Button("Count") { taps += 1 }.frame(width: 80, height: 30)
                }
            }
        }
        """

    static let column = "Lab/0:Column"

    @Test func aLayoutThatSpinsOrFaultsIsRejectedAndOtherTreesGoOn() throws {
        let daemon = try ProgramDaemon(directory: nil) { $0.limits.fuel = 200_000 }
        defer { daemon.stop() }
        let client = try daemon.client("lab")
        for tree in ["a", "b"] {
            let created = try client.request(Wire.create(tree, source: Self.source, view: "Lab"), rid: tree)
            #expect(created["type"] == "created", "\(created.encoded())")
        }
        let before = try client.snapshot("a")
        let frame = Wire.node(Self.column + "/2:Button", in: before["root"])?["frame"]
        #expect(frame != nil)

        let spin = try client.batch(Wire.event("a", seq: 1, Self.column + "/0:Button", "tap"))
        #expect(spin["type"] == "rejected")
        #expect(spin["code"] == "too_expensive", "\(spin.encoded())")
        #expect(Wire.comparable(try client.snapshot("a")) == Wire.comparable(before))

        let fault = try client.batch(Wire.event("a", seq: 2, Self.column + "/1:Button", "tap"))
        #expect(fault["type"] == "rejected")
        #expect(fault["code"] == "runtime_error", "\(fault.encoded())")
        #expect(fault["line"] != nil)
        #expect(Wire.comparable(try client.snapshot("a")) == Wire.comparable(before))

        // Both trees still take events, with their frames.
        for (seq, tree) in [(3, "a"), (4, "b")] {
            let ok = try client.batch(Wire.event(tree, seq: seq, Self.column + "/2:Button", "tap"))
            #expect(ok["type"] == "diff", "\(ok.encoded())")
            #expect(ok["state"] == [["node": "Lab", "name": "taps", "value": 1]])
        }
        #expect(Wire.node(Self.column + "/2:Button", in: try client.snapshot("a")["root"])?["frame"] == frame)
    }
}
