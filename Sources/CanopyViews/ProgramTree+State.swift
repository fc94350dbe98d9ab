import CanopyCore
import CanopyScript

/// The tree's state as it is stored (docs/programs.md, "Objects in state"): the cells' values with the class instances
/// they reach as a graph — all of it for snapshots, restarts and rollbacks, what a transaction changed for its diff —
/// and read back into cells and objects when the tree starts again.
extension ProgramTree {
    /// Every cell's node, name and value, in tree order of their views (top-level `var`s first, node "").
    var cellValues: [(node: String, name: String, value: Value)] {
        var out: [(node: String, name: String, value: Value)] = []
        for (i, g) in program.globalVariables.enumerated() {
            if let box = globalBoxes[i] { out.append(("", g.name, box.value)) }
        }
        func visit(_ inst: ViewInstance) {
            for c in inst.cells { out.append((inst.id, c.name, c.box.value)) }
            for n in inst.output { visitNode(n) }
        }
        func visitNode(_ n: RenderedNode) {
            // Background and overlay content first, as the modifiers come before the children in a node.
            for a in n.attached { visitNode(a) }
            if let i = n.instance {
                visit(i)
            } else {
                for c in n.children { visitNode(c) }
            }
        }
        if let rootNode { visitNode(rootNode) }
        return out
    }

    /// Every cell and every object the cells reach. Objects no cell reaches any more lose their ids.
    var state: ProgramState {
        do {
            return try encodeState(cellValues, limited: false)
        } catch {
            // Not limited, the encoding has nothing to refuse.
            preconditionFailure("an unlimited state encoding failed: \(error.message)")
        }
    }

    /// `values` as a whole state. `limited`: checked against the limits (values a transaction has not checked yet).
    func encodeState(_ values: [(node: String, name: String, value: Value)], limited: Bool) throws(CanopyError)
        -> ProgramState
    {
        var encoder = ObjectGraphEncoder(
            program: program, ids: objectIDs, scope: .all, maxDepth: limited ? limits.maxDepth : .max,
            maxObjects: limited ? machine.maxCount : .max)
        objectIDs = ObjectIDs()  // the encoder's copy is the only one: adding to it copies nothing
        do {
            var cells: [StateCell] = []
            cells.reserveCapacity(values.count)
            for c in values { cells.append(try stored(c.node, c.name, c.value, &encoder)) }
            let objects = try table(&encoder)
            encoder.forgetUnreached()
            objectIDs = encoder.ids
            return ProgramState(cells: cells, objects: objects)
        } catch {
            objectIDs = encoder.idsBefore()
            throw error
        }
    }

    /// What the transaction stores: the cells it created, changed or dropped, and the objects to store with them —
    /// those it assigned properties of, and those the values reach that were not stored before. Over the limits it is
    /// `too_deep` or `too_large` (and nothing is stored: the ids it gave are taken back).
    func publish() throws(CanopyError) -> (cells: [StateCell], objects: JSONObject) {
        var encoder = ObjectGraphEncoder(
            program: program, ids: objectIDs, scope: .changes, maxDepth: limits.maxDepth, maxObjects: machine.maxCount)
        objectIDs = ObjectIDs()
        do {
            var cells: [StateCell] = []
            let created = Set(log.created.map { ObjectIdentifier($0.box) })
            let dropped = Set(log.dropped.map { ObjectIdentifier($0.box) })
            for c in log.created where !dropped.contains(ObjectIdentifier(c.box)) {
                cells.append(try stored(c.node, c.name, c.box.value, &encoder))
            }
            for (box, _) in log.undo {
                let id = ObjectIdentifier(box)
                guard !created.contains(id), !dropped.contains(id), let (node, name) = box.cell else { continue }
                cells.append(try stored(node, name, box.value, &encoder))
            }
            for d in log.dropped where !created.contains(ObjectIdentifier(d.box)) {
                cells.append(StateCell(node: d.node, name: d.name, value: .null, dropped: true))
            }
            for w in objectWrites.changed { encoder.include(w.object) }
            let objects = try table(&encoder)
            objectIDs = encoder.ids
            return (cells, objects)
        } catch {
            objectIDs = encoder.idsBefore()
            throw error
        }
    }

    /// A node's cells and the objects they reach, for an inspector; the ids are the stored ones, and nothing changes.
    func inspectedCells(_ cells: [(name: String, box: StateBox)]) -> (cells: [JSON], objects: JSONObject) {
        var encoder = ObjectGraphEncoder(program: program, ids: objectIDs, scope: .all)
        do {
            var out: [JSON] = []
            for c in cells { out.append(["name": .string(c.name), "value": try encoder.encode(c.box.value)]) }
            return (out, try encoder.table())
        } catch {
            preconditionFailure("an unlimited state encoding failed: \(error.problem)")
        }
    }

    /// Cell `name` of `node` as stored: its value, with the cell named in the error.
    private func stored(_ node: String, _ name: String, _ value: Value, _ encoder: inout ObjectGraphEncoder)
        throws(CanopyError) -> StateCell
    {
        do {
            return StateCell(node: node, name: name, value: try encoder.encode(value))
        } catch {
            let cell = node.isEmpty ? "top-level var \(name)" : "cell \(name) of \(node)"
            let what = error.tooDeep ? "the value of \(cell) \(error.problem)" : error.problem
            throw CanopyError(error.code, "the state cannot be stored: \(what)")
        }
    }

    private func table(_ encoder: inout ObjectGraphEncoder) throws(CanopyError) -> JSONObject {
        do {
            return try encoder.table()
        } catch {
            throw CanopyError(error.code, "the state cannot be stored: \(error.problem)")
        }
    }

    // MARK: Restoring

    /// Prepares to restore `state`: its cells are taken as their views appear (`restoredValue`), its objects read
    /// now with this program. `strict`: the state is this program's own (a restart, a rollback), so an object or a
    /// reference that does not fit is an error; after a hot reload the cells that refer to one start over instead.
    func beginRestoring(_ state: ProgramState, strict: Bool) throws(CanopyError) {
        restoring = [:]
        for c in state.cells where !c.dropped { restoring[Self.cellKey(c.node, c.name)] = c.value }
        restoringObjects = nil
        restoringStrict = strict
        restoreProblem = nil
        guard !state.objects.isEmpty else { return }
        let decoder: ObjectGraphDecoder
        do {
            decoder = try ObjectGraphDecoder(program: program, table: state.objects, maxObjects: machine.maxCount)
        } catch {
            throw CanopyError(.badMessage, "the stored objects cannot be read: the table \(error.problem)")
        }
        if strict, let first = decoder.broken.min(by: { $0.key < $1.key }) {
            throw CanopyError(.badMessage, "the stored objects do not fit the program: \(first.value)")
        }
        restoringObjects = decoder
    }

    /// The stored value of cell `name` of `node` as a `type`, taken from what is being restored; nil when there is
    /// none or it does not fit (the cell starts over, or, strict, a reference that did not resolve is an error).
    func restoredValue(_ node: String, _ name: String, as type: TypeRef) -> Value? {
        guard let saved = restoring.removeValue(forKey: Self.cellKey(node, name)) else { return nil }
        let unresolved = restoringObjects?.unresolved ?? 0
        switch program.decode(saved, as: type, objects: restoringObjects) {
        case .success(let v): return v
        case .failure(let e):
            if restoringStrict, restoreProblem == nil, (restoringObjects?.unresolved ?? 0) > unresolved {
                restoreProblem = (node.isEmpty ? "top-level var \(name): " : "cell \(name) of \(node): ") + e.message
            }
            return nil
        }
    }

    /// The cells are made: the objects read keep their ids (new ones come after every id this tree gave), or the
    /// reference that did not resolve is `bad_message`.
    func endRestoring() throws(CanopyError) {
        if let restoreProblem {
            throw CanopyError(.badMessage, "the stored state does not fit the program: \(restoreProblem)")
        }
        guard let decoder = restoringObjects else { return }
        let next = objectIDs.next
        objectIDs = ObjectIDs()
        for (id, o) in decoder.objects { objectIDs.restore(o, as: id) }
        objectIDs.reserve(through: max(decoder.largestID, next - 1))
    }

    /// Forgets what was being restored.
    func clearRestoring() {
        restoring = [:]
        restoringObjects = nil
        restoreProblem = nil
    }
}

extension CodingLimit {
    /// The protocol's code for this limit.
    var code: ErrorCode { tooDeep ? .tooDeep : .tooLarge }
}
