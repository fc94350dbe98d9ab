import CanopyLayout
import CanopyScript

/// Runs a program's `Layout`s for its layout tree (LAYOUT.md §4): the engine asks a `.custom(id)` node's size and
/// placements, and this calls the layout value's `sizeThatFits(proposal:subviews:cache:)` and
/// `placeSubviews(in:proposal:subviews:cache:)` on the tree's machine, under the transaction's fuel, handing it
/// `LayoutSubview`s that ask the engine back (`LayoutCallHost`). The cache is made by `makeCache(subviews:)` (Void
/// without one), kept while the layout value and its subviews stay the same, and updated by
/// `updateCache(_:subviews:)` (made again without one) when the subviews change, as in SwiftUI.
final class ScriptLayoutHost: CustomLayoutHost, LayoutCallHost {
    private let machine: Machine

    /// A layout node's layout: the value its view was made with (and by which program), its cache, and the
    /// subviews the cache was made for.
    private struct Entry {
        var node: String
        var layout: Value
        var program: ObjectIdentifier
        var cache: Value?
        var subviews: [String] = []
    }

    private var entries: [Int: Entry] = [:]
    private var idByNode: [String: Int] = [:]
    private var nextID = 1
    /// The subviews of each layout call under way (a nested layout's call runs inside its container's).
    private var calls: [Int: LayoutSubviews] = [:]
    private var nextCall = 1

    init(machine: Machine) {
        self.machine = machine
    }

    /// The id of `node`'s layout: the same while the value (and program) is the same, a new one otherwise, so that
    /// the layout tree sizes a changed layout afresh.
    func id(for node: String, layout: Value) -> Int {
        let program = ObjectIdentifier(machine.program)
        if let id = idByNode[node], let e = entries[id], e.program == program, e.layout.sameInput(as: layout) { return id }
        if let old = idByNode[node] { entries[old] = nil }
        let id = nextID
        nextID += 1
        idByNode[node] = id
        entries[id] = Entry(node: node, layout: layout, program: program)
        return id
    }

    /// The name of a type of the running program.
    func typeName(_ id: TypeID) -> String { machine.program.types[id].name }

    /// A layout node went away.
    func forget(_ node: String) {
        guard let id = idByNode.removeValue(forKey: node) else { return }
        entries[id] = nil
    }

    // MARK: CustomLayoutHost

    func sizeThatFits(layout id: Int, proposal: ProposedSize, subviews: LayoutSubviews) throws -> LayoutSize {
        let result = try run(id, "sizeThatFits(proposal:subviews:cache:)", subviews) { (call: Int) throws(ScriptFault) -> [Value] in
            [try proposalValue(proposal), try subviewsValue(call, subviews.count)]
        }
        let size = try machine.sizeFields(result)
        return LayoutSize(width: Self.length(size.width), height: Self.length(size.height))
    }

    func placeSubviews(layout id: Int, in bounds: LayoutRect, proposal: ProposedSize, subviews: LayoutSubviews) throws {
        _ = try run(id, "placeSubviews(in:proposal:subviews:cache:)", subviews) { (call: Int) throws(ScriptFault) -> [Value] in
            [
                try machine.makeRect(GeometryRect(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height)),
                try proposalValue(proposal), try subviewsValue(call, subviews.count),
            ]
        }
    }

    /// A size a layout returned, as the engine takes it: NaN and negative lengths are 0.
    private static func length(_ x: Double) -> Double { x.isNaN || x < 0 ? 0 : x }

    /// Calls `method` of layout `id` with `arguments` and its cache (written back), inside a call of its own.
    private func run(
        _ id: Int, _ method: String, _ subviews: LayoutSubviews, arguments: (Int) throws(ScriptFault) -> [Value]
    ) throws(ScriptFault) -> Value {
        guard var entry = entries[id], case .record(let typeID, _) = entry.layout.unboxed else {
            throw ScriptFault(.runtime, "layout \(id) is not known", at: .unknown)
        }
        let type = machine.program.types[typeID]
        guard let f = type.methods[method] else {
            throw ScriptFault(.runtime, "type '\(type.name)' does not conform to protocol 'Layout': add \(method)", at: type.location)
        }
        let call = nextCall
        nextCall += 1
        calls[call] = subviews
        defer { calls[call] = nil }
        let keys = subviews.map(\.key)
        var cache = try self.cache(&entry, type, call, keys)
        var args = try arguments(call) + [cache]
        let result = try machine.invoke(f, captures: [], receiver: entry.layout, &args, site: f.location)
        cache = args[args.count - 1]
        entry.cache = cache
        entry.subviews = keys
        entries[id] = entry
        return result
    }

    /// The layout's cache for these subviews: made at first, updated when the subviews changed.
    private func cache(_ entry: inout Entry, _ type: TypeInfo, _ call: Int, _ keys: [String]) throws(ScriptFault)
        -> Value
    {
        if let cache = entry.cache, entry.subviews == keys { return cache }
        let subviews = try subviewsValue(call, keys.count)
        if let cache = entry.cache, let update = type.methods["updateCache(_:subviews:)"] {
            var args = [cache, subviews]
            _ = try machine.invoke(update, captures: [], receiver: entry.layout, &args, site: update.location)
            return args[0]
        }
        guard let make = type.methods["makeCache(subviews:)"] else { return .null }
        var args = [subviews]
        return try machine.invoke(make, captures: [], receiver: entry.layout, &args, site: make.location)
    }

    private func proposalValue(_ p: ProposedSize) throws(ScriptFault) -> Value {
        guard let t = machine.program.type(named: "ProposedViewSize") else {
            throw ScriptFault(.runtime, "ProposedViewSize is missing", at: .unknown)
        }
        return .record(t.id, [p.width.map(Value.double) ?? .null, p.height.map(Value.double) ?? .null])
    }

    private func subviewsValue(_ call: Int, _ count: Int) throws(ScriptFault) -> Value {
        guard let t = machine.program.type(named: "LayoutSubview") else {
            throw ScriptFault(.runtime, "LayoutSubview is missing", at: .unknown)
        }
        return .array((0..<count).map { .record(t.id, [.int(call), .int($0)]) })
    }

    // MARK: LayoutCallHost

    private func subview(_ call: Int, _ index: Int) throws(ScriptFault) -> LayoutSubview {
        guard let subviews = calls[call] else {
            throw machine.fault("this LayoutSubview belongs to a layout call that has ended: ask it only inside the sizeThatFits, placeSubviews or makeCache it was handed to")
        }
        guard subviews.indices.contains(index) else { throw machine.fault("subview index \(index) is out of range") }
        return subviews[index]
    }

    private static func proposal(_ width: Double?, _ height: Double?) -> ProposedSize {
        ProposedSize(width: width, height: height)
    }

    func subviewSize(call: Int, index: Int, width: Double?, height: Double?) throws(ScriptFault) -> (width: Double, height: Double) {
        let size = try subview(call, index).sizeThatFits(Self.proposal(width, height))
        return (size.width, size.height)
    }

    func subviewDimensions(call: Int, index: Int, width: Double?, height: Double?) throws(ScriptFault) -> SubviewDimensions {
        let d = try subview(call, index).dimensions(Self.proposal(width, height))
        return SubviewDimensions(
            width: d.size.width, height: d.size.height, firstBaseline: d.firstBaseline, lastBaseline: d.lastBaseline)
    }

    func placeSubview(
        call: Int, index: Int, x: Double, y: Double, anchorX: Double, anchorY: Double, width: Double?, height: Double?
    ) throws(ScriptFault) {
        try subview(call, index).place(
            at: LayoutPoint(x: x, y: y), anchor: UnitPoint(x: anchorX, y: anchorY), proposal: Self.proposal(width, height))
    }

    func subviewPriority(call: Int, index: Int) throws(ScriptFault) -> Double {
        try subview(call, index).priority
    }

    func subviewSpacing(call: Int, index: Int) throws(ScriptFault) -> (top: Double?, leading: Double?, bottom: Double?, trailing: Double?) {
        try subview(call, index).spacing
    }
}
