import CanopyCore
import CanopyViews
import Testing

/// Incremental layout is exact: after every event of a seeded random run over each example program, the frames a
/// program tree holds equal those of a layout from scratch of the same views.
@Suite struct LayoutIncrementalTests {
    static let examples = ExamplePrograms.names + ["size-reader", "collapsing-header", "equal-width-columns", "tab-underline", "tag-flow"]

    /// The events a node takes, with a value chosen by `pick`.
    static func events(_ node: Node, _ pick: (Int) -> Int) -> [(String, JSON?)] {
        switch node.type {
        case "Button": return [("tap", nil)]
        case "TextField", "SecureField": return [("setText", .string(["", "a", "ann@example.com", "hello world"][pick(4)]))]
        case "Toggle": return [("setValue", .bool(pick(2) == 0))]
        case "Stepper": return [(pick(2) == 0 ? "increment" : "decrement", nil)]
        case "Slider": return [("setValue", .double(Double(pick(100)) / 100))]
        case "ScrollView": return [("scroll", ["x": 0, "y": .int(Int64(pick(6) * 90 - 50))])]
        default: return []
        }
    }

    static func nodes(_ n: Node) -> [Node] {
        [n] + n.modifiers.compactMap(\.attached).flatMap(nodes) + n.children.flatMap(nodes)
    }

    @Test(arguments: examples)
    func framesEqualALayoutFromScratchAfterEveryEvent(_ name: String) throws {
        var p = try ExamplePrograms.start(name)
        #expect(ViewRuntime.layoutDifference(p.program) == nil, "\(name) at creation")
        var random = SplitMix64(seed: 26 &+ UInt64(name.utf8.count))
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var sent = 0
        for step in 0..<40 {
            let candidates = Self.nodes(p.tree.root).flatMap { node in Self.events(node, pick).map { (node.id, $0.0, $0.1) } }
            guard !candidates.isEmpty else { break }
            let (node, event, value) = candidates[pick(candidates.count)]
            if step % 13 == 12 {
                _ = try? p.send(nil, "resize", ["device": ["iPhone SE", "iPad", "iPhone 15"][pick(3)]])
            } else if (try? p.send(node, event, value)) == nil {
                continue
            }
            sent += 1
            let difference = ViewRuntime.layoutDifference(p.program)
            #expect(difference == nil, "\(name) after \(event) on \(node): \(difference ?? "")")
            if difference != nil { break }
        }
        #expect(sent > 0)
    }
}
