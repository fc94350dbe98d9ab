import Testing

@testable import CanopyLayout

/// SplitMix64: a seeded generator, so every run checks the same trees.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random view tree as declarations, so the same tree can be declared again from scratch.
struct RandomTree {
    var declarations: [String: (kind: LayoutKind, children: [String])] = [:]
    var root = ""
    var scrollOffsets: [String: LayoutPoint] = [:]
    var canvas = LayoutTree.Canvas(
        width: 393, height: 852, safeArea: EdgeInsets(top: 59, leading: 0, bottom: 34, trailing: 0))
    private var next = 0

    init(rng: inout SplitMix64) {
        root = grow(depth: 0, rng: &rng)
    }

    enum Arity { case leaf, unary, pair, many }

    static func arity(_ kind: LayoutKind) -> Arity {
        switch kind {
        case .empty, .shape, .text, .control, .spacer: .leaf
        case .background, .overlay: .pair
        case .stack, .zstack, .geometryReader: .many
        default: .unary
        }
    }

    static func alignment(_ rng: inout SplitMix64) -> Alignment {
        Alignment(
            horizontal: [.leading, .center, .trailing].randomElement(using: &rng)!,
            vertical: [.top, .center, .bottom, .firstTextBaseline, .lastTextBaseline].randomElement(using: &rng)!)
    }

    static func unitPoint(_ rng: inout SplitMix64) -> UnitPoint {
        [UnitPoint.center, .topLeading, .bottomTrailing, .top, UnitPoint(x: 0.25, y: 0.75)].randomElement(using: &rng)!
    }

    static func length(_ rng: inout SplitMix64, _ range: ClosedRange<Double> = 0...300) -> Double? {
        Bool.random(using: &rng)
            ? nil : Double(Int.random(in: Int(range.lowerBound)...Int(range.upperBound), using: &rng))
    }

    static func kind(_ arity: Arity, _ rng: inout SplitMix64) -> LayoutKind {
        switch arity {
        case .leaf:
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return .empty
            case 1: return .spacer(minLength: length(&rng, 0...40))
            case 2:
                let words = ["Hello", "World", "a", "layout", "SwiftUI", "Canopy", "engine", "12:30"]
                let count = Int.random(in: 1...6, using: &rng)
                let string = (0..<count).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
                let font = FontSpec.textStyle(FontSpec.textStyles.randomElement(using: &rng)!.name)!
                return .text(TextSpec(string, font: font, lineLimit: Bool.random(using: &rng) ? nil : 2))
            case 3: return .control(ControlKind.allCases.randomElement(using: &rng)!)
            default: return .shape
            }
        case .pair:
            return Bool.random(using: &rng) ? .background(alignment(&rng)) : .overlay(alignment(&rng))
        case .many:
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return .zstack(alignment(&rng))
            case 1: return .geometryReader
            default:
                return .stack(
                    Bool.random(using: &rng) ? .horizontal : .vertical, spacing: length(&rng, 0...20),
                    alignment: alignment(&rng))
            }
        case .unary:
            switch Int.random(in: 0..<13, using: &rng) {
            case 0: return .frame(width: length(&rng), height: length(&rng), alignment: alignment(&rng))
            case 1:
                return .flexibleFrame(
                    minWidth: length(&rng), idealWidth: length(&rng),
                    maxWidth: Bool.random(using: &rng) ? .infinity : length(&rng),
                    minHeight: length(&rng), idealHeight: length(&rng), maxHeight: length(&rng),
                    alignment: alignment(&rng))
            case 2:
                return .padding(
                    EdgeInsets(
                        top: length(&rng, 0...30) ?? 16, leading: length(&rng, 0...30) ?? 16,
                        bottom: length(&rng, 0...30) ?? 16, trailing: length(&rng, 0...30) ?? 16))
            case 3: return .fixedSize(horizontal: Bool.random(using: &rng), vertical: Bool.random(using: &rng))
            case 4: return .layoutPriority(Double(Int.random(in: -1...2, using: &rng)))
            case 5:
                return .offset(
                    x: Double(Int.random(in: -50...50, using: &rng)), y: Double(Int.random(in: -50...50, using: &rng)))
            case 6:
                return .position(
                    x: Double(Int.random(in: 0...300, using: &rng)), y: Double(Int.random(in: 0...300, using: &rng)))
            case 7:
                return .aspectRatio(
                    Bool.random(using: &rng) ? nil : Double(Int.random(in: 1...8, using: &rng)) / 4,
                    fill: Bool.random(using: &rng))
            case 8: return .scrollView(horizontal: Bool.random(using: &rng), vertical: Bool.random(using: &rng))
            case 9:
                let scales = [-1, 0, 1.0 / 3, 0.5, 1, 1.5, 2]
                return .effect(
                    .scale(
                        x: scales.randomElement(using: &rng)!, y: scales.randomElement(using: &rng)!,
                        anchor: unitPoint(&rng)))
            case 10:
                let degrees = [0.0, 90, 180, -90, 30, 45, 17.5].randomElement(using: &rng)!
                return .effect(.rotation(radians: degrees * (.pi / 180), anchor: unitPoint(&rng)))
            case 11:
                return .ignoresSafeArea(
                    [Edges.all, .top, .bottom, .horizontal, [.top, .leading]].randomElement(using: &rng)!)
            default: return .button
            }
        }
    }

    /// Declares a random subtree and returns its key.
    mutating func grow(depth: Int, rng: inout SplitMix64) -> String {
        let arity: Arity =
            depth >= 5 || Int.random(in: 0..<4, using: &rng) == 0
            ? .leaf : [.unary, .unary, .pair, .many].randomElement(using: &rng)!
        let kind = Self.kind(arity, &rng)
        let childCount: Int
        switch arity {
        case .leaf: childCount = Int.random(in: 0..<8, using: &rng) == 0 ? 1 : 0
        case .unary: childCount = 1
        case .pair: childCount = 2
        case .many: childCount = Int.random(in: 0...4, using: &rng)
        }
        let children = (0..<childCount).map { _ in grow(depth: depth + 1, rng: &rng) }
        let key = "k\(next)"
        next += 1
        declarations[key] = (kind, children)
        if case .scrollView = kind { scrollOffsets[key] = .zero }
        return key
    }

    /// The keys reachable from the root, parents before children.
    var reachable: [String] {
        var order: [String] = []
        var stack = [root]
        while let key = stack.popLast() {
            order.append(key)
            stack.append(contentsOf: declarations[key]!.children.reversed())
        }
        return order
    }

    /// Declares the tree from scratch, children first.
    func build() -> LayoutTree {
        let tree = LayoutTree(canvas: canvas)
        for key in reachable.reversed() {
            tree.set(key, kind: declarations[key]!.kind, children: declarations[key]!.children)
        }
        tree.setRoot(root)
        return tree
    }

    /// A random edit, applied to the declarations and to `tree`.
    mutating func edit(_ tree: LayoutTree, rng: inout SplitMix64) {
        let keys = reachable
        let key = keys.randomElement(using: &rng)!
        switch Int.random(in: 0..<5, using: &rng) {
        case 0, 1:
            // Retune: another kind with the same number of children.
            let (kind, children) = declarations[key]!
            let newKind = Self.kind(Self.arity(kind), &rng)
            declarations[key] = (newKind, children)
            tree.set(key, kind: newKind, children: children)
            if case .scrollView = newKind { scrollOffsets[key] = scrollOffsets[key] ?? .zero }
        case 2:
            // Regrow a container's children: a new subtree replaces one, or one is added or dropped.
            let (kind, children) = declarations[key]!
            guard Self.arity(kind) == .many else { return }
            var newChildren = children
            if !newChildren.isEmpty && Bool.random(using: &rng) {
                newChildren.remove(at: Int.random(in: 0..<newChildren.count, using: &rng))
            } else {
                let fresh = grow(depth: 3, rng: &rng)
                for inner in Self.subtree(of: fresh, in: declarations).reversed() {
                    tree.set(inner, kind: declarations[inner]!.kind, children: declarations[inner]!.children)
                }
                newChildren.insert(fresh, at: Int.random(in: 0...newChildren.count, using: &rng))
            }
            declarations[key] = (kind, newChildren)
            tree.set(key, kind: kind, children: newChildren)
        case 3:
            guard let scroll = keys.filter({ scrollOffsets[$0] != nil }).randomElement(using: &rng) else { return }
            let offset = LayoutPoint(
                x: Double(Int.random(in: -20...400, using: &rng)), y: Double(Int.random(in: -20...900, using: &rng)))
            tree.setScrollOffset(scroll, offset)
        default:
            let safeArea =
                Bool.random(using: &rng)
                ? EdgeInsets.zero
                : EdgeInsets(
                    top: Double(Int.random(in: 0...60, using: &rng)),
                    leading: Double(Int.random(in: 0...20, using: &rng)),
                    bottom: Double(Int.random(in: 0...40, using: &rng)), trailing: 0)
            canvas = LayoutTree.Canvas(
                width: Double(Int.random(in: 100...900, using: &rng)),
                height: Double(Int.random(in: 100...900, using: &rng)), safeArea: safeArea,
                scale: Double(Int.random(in: 1...3, using: &rng)))
            tree.canvas = canvas
        }
    }

    static func subtree(of key: String, in declarations: [String: (kind: LayoutKind, children: [String])]) -> [String] {
        var order: [String] = []
        var stack = [key]
        while let current = stack.popLast() {
            order.append(current)
            stack.append(contentsOf: declarations[current]!.children)
        }
        return order
    }
}

/// Invariants over several hundred random trees, as swift-collections checks its own structures.
@Suite struct RandomTreeTests {
    static let seeds: [UInt64] = Array(1...320)

    @Test(arguments: seeds)
    func invariantsHoldAndIncrementalLayoutEqualsAFreshOne(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        var model = RandomTree(rng: &rng)
        let tree = model.build()
        try tree.layout()
        check(tree, model)
        for _ in 0..<6 {
            model.edit(tree, rng: &rng)
            tree._checkInvariants()
            try tree.layout()
            check(tree, model)
            // Nothing changed since: nothing is sized or moved.
            #expect(try tree.layout().isEmpty)
            #expect(tree.laidOut.isEmpty)
            // The same frames as the same tree declared afresh (with the offsets as clamped).
            let fresh = model.build()
            for (key, _) in model.scrollOffsets where fresh.nodes[key] != nil {
                fresh.setScrollOffset(key, tree.scrollOffset(of: key))
            }
            try fresh.layout()
            for key in model.reachable {
                #expect(tree.unroundedFrame(of: key) == fresh.unroundedFrame(of: key), "seed \(seed) key \(key)")
                #expect(tree.proposal(of: key) == fresh.proposal(of: key), "seed \(seed) key \(key)")
                // What a GeometryProxy would read there: its frame in the canvas and in the root's space, its
                // safe-area insets.
                let bounds = LayoutRect(origin: .zero, size: tree.size(of: key) ?? .zero)
                #expect(
                    tree.convert(bounds, from: key, to: nil) == fresh.convert(bounds, from: key, to: nil),
                    "seed \(seed) key \(key)")
                #expect(
                    tree.convert(bounds, from: key, to: model.root) == fresh.convert(bounds, from: key, to: model.root),
                    "seed \(seed) key \(key)")
                #expect(tree.safeAreaInsets(of: key) == fresh.safeAreaInsets(of: key), "seed \(seed) key \(key)")
            }
        }
    }

    /// Sizes are never negative or NaN, frames are finite, and a stack's children tile it along its axis and stay
    /// inside it across when it was proposed a length across.
    private func check(_ tree: LayoutTree, _ model: RandomTree) {
        for entry in tree.laidOut {
            #expect(entry.size.width >= 0 && entry.size.height >= 0)
        }
        for key in model.reachable {
            guard let node = tree.nodes[key], node.isPlaced else { continue }
            let frame = node.frame
            let finite = [frame.x, frame.y, frame.width, frame.height].allSatisfy { $0.isFinite }
            #expect(finite)
            #expect(frame.width >= 0 && frame.height >= 0)
            // (A stack inside an effect is placed at its size rounded to the pixel grid: its children do not tile
            // that.)
            guard case .stack(let axis, _, _) = node.kind,
                node.placedProposal[axis.other] != nil, node.placedProposal[axis] != nil,
                node.sizes.lookup(node.placedProposal) == node.placedSize
            else { continue }
            let children = node.children.filter { !$0.isEmptyView }
            guard !children.isEmpty,
                ([node] + children).allSatisfy({
                    max($0.placedSize.width, $0.placedSize.height) < LayoutTree.largestLength
                })
            else { continue }
            var end = 0.0
            for child in children {
                #expect(child.localOrigin[axis] >= end - 1e-9)
                end = child.localOrigin[axis] + child.placedSize[axis]
                #expect(child.localOrigin[axis.other] >= -1e-9)
                #expect(
                    child.localOrigin[axis.other] + child.placedSize[axis.other] <= node.placedSize[axis.other] + 1e-9)
            }
            #expect(abs(end - node.placedSize[axis]) < 1e-6)
        }
    }
}
