import CanopyCore

/// A program tree's state with its class instances as a graph (docs/programs.md, "Objects in state"): every object
/// the cells reach is written once, in an object table by id — `{"1":{"class":"Node","fields":{…}}}` — and a value
/// that holds it says `{"$object":1}`. Two cells that share an object share its id, and a cycle is a reference back
/// to an id already written, so encoding never follows it.
package struct ObjectGraphEncoder {
    /// Which objects the table gets.
    package enum Scope {
        /// Every object the values reach: a whole state (snapshot, restart, inspector).
        case all
        /// Objects without an id before, and those passed to `include`: what a transaction changed.
        case changes
    }

    let program: Program
    package private(set) var ids: ObjectIDs
    let scope: Scope
    let maxDepth: Int
    let maxObjects: Int
    /// Objects whose entries the table gets, in the order they were reached.
    private var pending: [(id: Int, object: Instance)] = []
    private var queued: Set<Int> = []
    /// Ids this encoder gave.
    private var added: [Int] = []

    /// `maxDepth` bounds the nesting of each value and object entry, `maxObjects` the objects `ids` may hold.
    package init(program: Program, ids: ObjectIDs, scope: Scope, maxDepth: Int = .max, maxObjects: Int = .max) {
        self.program = program
        self.ids = ids
        self.scope = scope
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
    }

    /// `v` as JSON, its objects as references.
    package mutating func encode(_ v: Value) throws(CodingLimit) -> JSON {
        try program.encode(v, depth: 0, maxDepth: maxDepth) { o, _ throws(CodingLimit) in try reference(o) }
    }

    /// Writes `o`'s entry too, if it has an id (an object a transaction changed).
    package mutating func include(_ o: Instance) {
        if let id = ids.id(of: o) { queue(id, o) }
    }

    /// The entries of the objects queued and of every new object their properties reach, by id.
    package mutating func table() throws(CodingLimit) -> JSONObject {
        var entries: [(id: Int, entry: JSON)] = []
        var i = 0
        while i < pending.count {
            let (id, o) = pending[i]
            i += 1
            let info = program.types[o.type]
            var fields: [(key: String, value: JSON)] = []
            fields.reserveCapacity(o.fields.count)
            for (k, f) in info.fields.enumerated() where k < o.fields.count {
                do {
                    let value = try program.encode(o.fields[k], depth: 1, maxDepth: maxDepth) { o, _ throws(CodingLimit) in
                        try reference(o)
                    }
                    fields.append((f.name, value))
                } catch where error.tooDeep {
                    throw CodingLimit(tooDeep: true, problem: "the \(f.name) of object \(id) (\(info.name)) \(error.problem)")
                }
            }
            entries.append((id, ["class": .string(info.name), "fields": .object(JSONObject(uniqueMembers: fields))]))
        }
        pending = []
        entries.sort { $0.id < $1.id }
        return JSONObject(uniqueMembers: entries.map { (String($0.id), $0.entry) })
    }

    /// Forgets the objects the values did not reach (a whole state: they are not stored any more).
    package mutating func forgetUnreached() {
        ids.keep(only: queued)
    }

    /// The ids as they were before this encoder gave any (the encoding is not stored).
    package func idsBefore() -> ObjectIDs {
        var before = ids
        for id in added { before.remove(id) }
        return before
    }

    private mutating func reference(_ o: Instance) throws(CodingLimit) -> JSON {
        let id: Int
        if let known = ids.id(of: o) {
            id = known
            if scope == .all { queue(id, o) }
        } else {
            guard ids.count < maxObjects else {
                throw CodingLimit(tooDeep: false, problem: "it would hold more than \(maxObjects) objects")
            }
            id = ids.add(o)
            added.append(id)
            queue(id, o)
        }
        return ["$object": .int(Int64(id))]
    }

    private mutating func queue(_ id: Int, _ o: Instance) {
        if queued.insert(id).inserted { pending.append((id, o)) }
    }
}

/// The ids of a program tree's stored objects: given when an object is first stored and kept while the state
/// reaches it (a restored object keeps its id); never given twice in one tree's life, so a later diff's id cannot
/// name an earlier, forgotten object.
package struct ObjectIDs {
    private var byObject: [ObjectIdentifier: Int] = [:]
    /// The objects by id; holding them keeps their `ObjectIdentifier`s from being reused.
    private var objects: [Int: Instance] = [:]
    /// The next id to give.
    package private(set) var next = 1

    package init() {}

    package var count: Int { objects.count }

    package func id(of o: Instance) -> Int? { byObject[ObjectIdentifier(o)] }

    package mutating func add(_ o: Instance) -> Int {
        let id = next
        restore(o, as: id)
        return id
    }

    /// `o` has id `id` (read back from a stored state).
    package mutating func restore(_ o: Instance, as id: Int) {
        byObject[ObjectIdentifier(o)] = id
        objects[id] = o
        next = max(next, id + 1)
    }

    /// No id is ever given below `id` again.
    package mutating func reserve(through id: Int) { next = max(next, id + 1) }

    mutating func remove(_ id: Int) {
        guard let o = objects.removeValue(forKey: id) else { return }
        byObject[ObjectIdentifier(o)] = nil
    }

    mutating func keep(only kept: Set<Int>) {
        for id in Array(objects.keys) where !kept.contains(id) { remove(id) }
    }
}
