import Foundation
import CanopyCore
import CanopyViews

/// `canopy-bench --layout-programs`, part 3: a program's own `Layout` against SwiftUI's VStack on the same rows.
/// `ColumnLayout` is a vertical stack written with the Layout protocol (8 apart, centred); both programs give the
/// same frames (checked), so the difference is what interpreting sizeThatFits and placeSubviews costs. Each event
/// toggles the first row's height, so every row below moves.
enum CustomLayoutBench {
    static func source(rows: Int, custom: Bool) -> String {
        let container = custom ? "ColumnLayout" : "VStack(spacing: 8)"
        return """
            import SwiftUI

            struct ColumnLayout: Layout {
                func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                    var width: CGFloat = 0
                    var height: CGFloat = 0
                    for subview in subviews {
                        let size = subview.sizeThatFits(ProposedViewSize(width: proposal.width, height: nil))
                        width = max(width, size.width)
                        height += size.height
                    }
                    return CGSize(width: width, height: height + 8 * CGFloat(max(0, subviews.count - 1)))
                }

                func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
                    var y = bounds.minY
                    for subview in subviews {
                        let size = subview.sizeThatFits(ProposedViewSize(width: proposal.width, height: nil))
                        subview.place(at: CGPoint(x: bounds.midX, y: y), anchor: .top, proposal: ProposedViewSize(size))
                        y += size.height + 8
                    }
                }
            }

            struct Rows: View {
                @State private var tall = false
                var body: some View {
                    ScrollView {
                        \(container) {
                            Button("Toggle") { tall.toggle() }.frame(width: 80, height: tall ? 60 : 30)
                            ForEach(0..<\(rows)) { i in
                                Color.blue.frame(width: CGFloat(100 + i % 50), height: 20)
                            }
                        }
                    }
                }
            }
            """
    }

    static func run(rows: Int, events: Int) {
        say("== a program's Layout against VStack, \(rows) rows: creation and one height change (µs) ==")
        say(row([("layout", 14), ("created ms", 11), ("median", 9), ("p90", 9), ("p99", 9), ("frames", 7)]))
        var tables: [[String: [Double]]] = []
        for custom in [false, true] {
            let spec = ProgramSpec(source: source(rows: rows, custom: custom), view: "Rows", canvas: CanvasSpec.standard)
            let t0 = nowNanos()
            let started: ProgramStart
            do { started = try ViewRuntime().start(spec, cells: [], version: 0, limits: .default, trace: false) } catch {
                say("canopy-bench: the \(custom ? "ColumnLayout" : "VStack") program does not start: \(error)")
                exit(1)
            }
            let created = nowNanos() - t0
            guard let button = LayoutProgramBench.find(started.tree.root, type: "Button") else { exit(1) }
            var tree = started.tree
            var times: [UInt64] = []
            var moved = 0
            for _ in 0..<events {
                let t1 = nowNanos()
                do {
                    let t = try started.program.handle(ProgramEvent(node: button, event: "tap"), tree: &tree, trace: false)
                    moved = t.frames.count
                } catch {
                    say("canopy-bench: a tap failed: \(error)")
                    exit(1)
                }
                times.append(nowNanos() - t1)
            }
            let st = Stats(times)
            say(row([
                (custom ? "ColumnLayout" : "VStack", 14), (fmt(Double(created) / 1e6), 11), (fmt(st.medianNs / 1e3), 9),
                (fmt(st.p90Ns / 1e3), 9), (fmt(st.p99Ns / 1e3), 9), ("\(moved)", 7),
            ]))
            tables.append(started.program.frameTable?.frames.mapKeys { $0.replacingOccurrences(of: "ColumnLayout", with: "VStack") } ?? [:])
        }
        if tables.count == 2, Array(tables[0].values.sorted { $0.lexicographicallyPrecedes($1) })
            != Array(tables[1].values.sorted { $0.lexicographicallyPrecedes($1) })
        {
            say("canopy-bench: ColumnLayout's frames differ from VStack's")
            exit(1)
        }
        say("(frames of both programs are the same; \"frames\" is how many a tap's diff carries)")
    }
}

extension Dictionary {
    fileprivate func mapKeys(_ f: (Key) -> Key) -> [Key: Value] {
        Dictionary(uniqueKeysWithValues: map { (f($0.key), $0.value) })
    }
}
