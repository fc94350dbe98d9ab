import CanopyCore
import CanopyLayout
import CanopyScript

/// A question a body asked the layout (`proxy.size`, `proxy.frame(in:)`, `proxy.safeAreaInsets`, an anchor made or
/// resolved) and the answer it got: after each layout the question is asked again, and a different answer runs that
/// body again (LAYOUT.md §1).
struct GeometryRead {
    var node: String
    var question: GeometryQuestion
    var answer: GeometryRect
}

/// What a body can ask about a view's box.
enum GeometryQuestion: Equatable {
    /// Its frame in a space.
    case frame(GeometrySpace)
    /// Its safe-area insets.
    case insets
    /// A unit point of it in canvas coordinates (an `Anchor<CGPoint>` made).
    case point(x: Double, y: Double)
    /// A canvas rect or point in its coordinates (an anchor resolved by its proxy).
    case resolve(GeometryRect, point: Bool)
}

/// Geometry as programs see it, and the layout rounds of a transaction.
extension ProgramTree: GeometryHost {
    /// The most layout passes in one round before geometry is taken as it is (SwiftUI stops a size feedback loop
    /// too, with "Bound preference … tried to update multiple times per frame").
    static let maxLayoutPasses = 16

    func geometryFrame(of node: String, in space: GeometrySpace) -> GeometryRect {
        ask(.frame(space), of: node)
    }

    func geometryInsets(of node: String) -> GeometryRect {
        ask(.insets, of: node)
    }

    func geometryResolve(of node: String, _ rect: GeometryRect, point: Bool) -> GeometryRect {
        ask(.resolve(rect, point: point), of: node)
    }

    /// Answers a question of the running body, and records it.
    func ask(_ question: GeometryQuestion, of node: String) -> GeometryRect {
        let answer = layout.answer(question, of: node)
        current?.geometryReads.append(GeometryRead(node: node, question: question, answer: answer))
        return answer
    }

    /// Lays the tree out and runs again the bodies whose geometry changed, until nothing changes (at most
    /// `maxLayoutPasses` times); the bodies' new output joins `ops`.
    func settleLayout(_ ops: inout [Op], warnings: inout [String]) throws(ScriptFault) {
        guard let rootNode else { return }
        var pass = 0
        while true {
            pass += 1
            layout.build(rootNode) { self.program.encode($0).encoded() }
            let changed = try layout.run(trace: log.tracing ? { fields in self.log.step(fields) } : nil)
            for w in layout.takeWarnings() where !warnings.contains(w) { warnings.append(w) }
            if !changed.isEmpty || layout.rebuiltGeometry { markGeometryReaders() }
            guard !dirty.isEmpty else { return try runGeometryWatches() }
            if pass >= Self.maxLayoutPasses {
                warnings.append(
                    "stopped after \(Self.maxLayoutPasses) layout passes: geometry kept changing (a GeometryReader's "
                        + "content changes the size it reads)")
                return
            }
            try processDirty(&ops)
        }
    }

    /// Marks dirty every instance whose geometry questions now have other answers.
    func markGeometryReaders() {
        for inst in geometryReaders.values where !inst.isDirty && instances[inst.id] === inst {
            for read in inst.geometryReads where layout.answer(read.question, of: read.node) != read.answer {
                markDirty(inst, because: "geometry")
                break
            }
        }
    }
}

/// An `onGeometryChange` shown at `node`: what it computes from a proxy, what it runs, and the value it last saw.
struct GeometryWatch {
    var node: String
    var of: Value
    var action: Value
    var last: Value?
}

extension ProgramTree {
    /// Runs each `onGeometryChange`'s `of` closure on its box as laid out now; an action whose value changed (or
    /// that sees its first value) is queued like an `onChange` closure, with the old and the new value.
    func runGeometryWatches() throws(ScriptFault) {
        guard !geometryWatches.isEmpty, let proxy = program.type(named: "GeometryProxy") else { return }
        for key in geometryWatches.keys.sorted() {
            guard var watch = geometryWatches[key] else { continue }
            guard let node = nodes[watch.node], node.view.modifiers.contains(where: { $0.name == "onGeometryChange" }) else {
                geometryWatches[key] = nil
                continue
            }
            let box = layout.anchorBoxes[key] ?? node.id
            let value = try machine.call(
                value: watch.of, [.record(proxy.id, [.string(box)])], site: machine.sourceLocation(of: watch.of) ?? machine.site)
            guard watch.last.map({ !$0.sameInput(as: value) }) ?? true else { continue }
            pendingOnChange.append((watch.node, watch.action, watch.last ?? value, value))
            watch.last = value
            geometryWatches[key] = watch
        }
    }
}

/// Anchors and the views made from a preference's value.
extension ProgramTree {
    /// The `Anchor` an `anchorPreference` at modifier `index` of `owner` hands its transform: the rect (or point)
    /// of the box inside that modifier in canvas coordinates, as last laid out (asked as geometry, so the body runs
    /// again when it moves).
    func anchorValue(_ source: Value, owner: String, index: Int) throws(ScriptFault) -> Value {
        guard let anchor = program.type(named: "Anchor") else { throw ScriptFault(.runtime, "Anchor is missing", at: .unknown) }
        let box = layout.anchorBoxes["\(owner)#\(index)"] ?? owner
        if case .string("bounds") = source.unboxed {
            return .record(anchor.id, [try machine.makeRect(geometryFrame(of: box, in: .global)), .bool(false)])
        }
        // A unit point by name (`.center`), or a `UnitPoint` value where the program has the Layout prelude's.
        guard let unit = LayoutValues.unitPoint(source) else {
            if case .string(let name) = source.unboxed {
                throw ScriptFault(.runtime, "anchorPreference: unknown anchor source .\(name)", at: .unknown)
            }
            throw ScriptFault(.runtime, "anchorPreference: expected .bounds or a unit point such as .center", at: .unknown)
        }
        // The unit point of the box carried to the canvas (through the effects around it: a point, not the
        // bounding box's corner).
        let point = ask(.point(x: unit.x, y: unit.y), of: box)
        return .record(anchor.id, [try machine.makeRect(point), .bool(true)])
    }

    /// The instance of an `overlayPreferenceValue`'s content at `id`: its body is the closure, run with the key's
    /// value once the engine has reduced it (`syncPreferenceValues` gives it that value and keeps it current).
    func preferenceValueInstance(
        key: TypeID, content: Value, id: String, reader: String, environment: [String: Value], local: [String: Value],
        owner: ViewInstance?, reuse: [String: ViewInstance]
    ) throws(ScriptFault) -> ViewInstance {
        if let old = reusedClosureInstance(id, content, environment: environment, local: local, owner: owner, reuse: reuse) {
            return old
        }
        let inst = try newClosureInstance(
            id, typeID: key, content, environment: environment, local: local, owner: owner,
            at: machine.sourceLocation(of: content) ?? .unknown)
        inst.contentKind = "PreferenceValue"
        inst.argument = compiled.keysByName[keyName(key)]?.defaultScriptValue ?? .null
        if let known = lastReaders[reader] {
            // A hot reload or a view made again: the reader's value is known.
            if let value = known { inst.argument = compiled.keysByName[keyName(key)]?.decodeValue(value) ?? inst.argument }
            try runBody(inst)
        } else {
            // Its closure first runs once the engine has reduced the key below it (SwiftUI's does not see a value
            // that is not there yet: `anchors["tab"]!` must not fault on a first pass).
            inst.awaitingValue = true
            awaitingPreference[id] = inst
        }
        return inst
    }

    /// Gives the content of every preference-value overlay whose reader's value changed its new value.
    func syncPreferenceValues(_ readers: [ReaderValue]) {
        for r in readers {
            lastReaders[r.reader] = .some(r.value)
            guard let node = nodes[r.node], let hash = r.reader.lastIndex(of: "#"),
                let index = Int(r.reader[r.reader.index(after: hash)...])
            else { continue }
            let vi = node.viewModifierIndex(index)
            guard vi >= 0, vi < node.view.modifiers.count,
                case .preferenceValue(let overlay, let key, _, _) = node.view.modifiers[vi]
            else { continue }
            let id = "\(node.id)/@\(vi):\(overlay ? "overlay" : "background")PreferenceValue"
            guard let inst = instances[id] else { continue }
            let scriptKey = compiled.keysByName[keyName(key)]
            let value = r.value.map { scriptKey?.decodeValue($0) ?? .null } ?? scriptKey?.defaultScriptValue ?? .null
            if inst.awaitingValue || !value.sameInput(as: inst.argument) {
                inst.argument = value
                inst.awaitingValue = false
                awaitingPreference[id] = nil
                markDirty(inst, because: "preference")
            }
        }
    }
}
