import CanopyCore

/// Reads back an object table `ObjectGraphEncoder` wrote: one instance per id, each made before any property is read,
/// so references — shared or cyclic — resolve to the same instance, and a subclass comes back as itself. Values given
/// to `Program.decode(_:as:objects:)` then resolve `{"$object":id}` through it.
///
/// An object whose class the program does not have, whose properties do not decode, or that refers to such an
/// object, is `broken`: a value that refers to it does not decode (a hot reload starts that cell over; a restart
/// refuses the state). A table that is not `{"ID":{"class","fields"}}` is refused whole.
package final class ObjectGraphDecoder {
    let program: Program
    private var instances: [Int: Instance] = [:]
    /// Why each broken object could not be read, by id.
    package private(set) var broken: [Int: String] = [:]
    /// How many references in decoded values did not resolve (to an object of the class their place needs): a
    /// decode failure that raised it is about the graph, not about the value's type.
    package private(set) var unresolved = 0
    /// Ids the entry being read refers to.
    private var referenced: [Int] = []

    /// Reads `table` with `program`'s classes; at most `maxObjects` entries.
    package init(program: Program, table: JSONObject, maxObjects: Int = .max) throws(CodingMismatch) {
        self.program = program
        guard table.count <= maxObjects else {
            throw CodingMismatch(problem: "has \(table.count) objects, more than \(maxObjects)")
        }
        var entries: [(id: Int, info: TypeInfo, fields: JSONObject)] = []
        for m in table.members {
            guard let id = Int(m.key), id > 0, String(id) == m.key, instances[id] == nil, broken[id] == nil else {
                throw CodingMismatch(problem: "has the object id \"\(m.key)\" (a positive integer, once)")
            }
            guard let entry = m.value.object, let name = entry["class"]?.string, let fields = entry["fields"]?.object else {
                throw CodingMismatch(problem: "has object \(id) as \(m.value.typeName), expected {\"class\",\"fields\"}")
            }
            guard let info = program.type(named: name), info.isClass else {
                broken[id] = "object \(id) is a \(name), which is not a class of the program"
                continue
            }
            instances[id] = Instance(type: info.id, fields: [])
            entries.append((id, info, fields))
        }
        // Every instance exists: now the properties, whose references resolve to them.
        var referrers: [Int: [Int]] = [:]
        for (id, info, fields) in entries {
            referenced = []
            switch program.decodeFields(fields, of: info, objects: self) {
            case .success(let values): instances[id]!.fields = values
            case .failure(let e): broken[id] = "object \(id) (\(info.name)): " + e.message
            }
            for r in referenced { referrers[r, default: []].append(id) }
        }
        // An object that refers to a broken one is broken too.
        var work = Array(broken.keys)
        while let b = work.popLast() {
            for r in referrers[b] ?? [] where broken[r] == nil {
                broken[r] = "object \(r) refers to object \(b), which cannot be read"
                work.append(r)
            }
        }
        for id in broken.keys { instances[id] = nil }
        referenced = []
        unresolved = 0
    }

    /// The objects read, by id.
    package var objects: [(id: Int, object: Instance)] { instances.map { ($0.key, $0.value) } }

    /// The largest id the table has, broken objects included.
    package var largestID: Int { max(instances.keys.max() ?? 0, broken.keys.max() ?? 0) }

    /// What a value in a class's place holds: `{"$object":id}` of an instance of that class or a subclass. An object
    /// of stored properties instead is a state stored before objects were kept as a graph: a new instance of them.
    package func reference(_ json: JSON, to info: TypeInfo) -> Result<Value, CodingMismatch> {
        guard let id = Self.id(in: json) else {
            guard let o = json.object else {
                return .failure(CodingMismatch(problem: "is \(json.typeName), expected {\"$object\":ID} for \(info.name)"))
            }
            return program.decodeFields(o, of: info, objects: self).map { .object(Instance(type: info.id, fields: $0)) }
        }
        referenced.append(id)
        guard let o = instances[id] else {
            let why = broken[id] == nil ? "which is not stored" : "which cannot be read"
            return fail("refers to object \(id), \(why)")
        }
        guard o.type == info.id || program.isSubclass(o.type, of: info.id) else {
            return fail("refers to object \(id), a \(program.types[o.type].name), where a \(info.name) is expected")
        }
        return .success(.object(o))
    }

    /// A value of no known type (`Any`, a protocol, a generic parameter): references resolve, any other JSON object
    /// is a `[String: …]`.
    package func untyped(_ json: JSON) -> Result<Value, CodingMismatch> {
        if let id = Self.id(in: json) {
            referenced.append(id)
            guard let o = instances[id] else { return fail("refers to object \(id), which cannot be read") }
            return .success(.object(o))
        }
        switch json {
        case .array(let items):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                switch untyped(item) {
                case .success(let v): out.append(v)
                case .failure(let f): return .failure(f.inside("[\(i)]"))
                }
            }
            return .success(.array(out))
        case .object(let o):
            var d = OrderedDictionary()
            for m in o.members {
                switch untyped(m.value) {
                case .success(let v): d[.string(m.key)] = v
                case .failure(let f): return .failure(f.inside("[\"\(m.key)\"]"))
                }
            }
            return .success(.dictionary(d))
        default: return .success(program.plain(json))
        }
    }

    private func fail(_ problem: String) -> Result<Value, CodingMismatch> {
        unresolved += 1
        return .failure(CodingMismatch(problem: problem))
    }

    /// The id of a reference `{"$object":id}`.
    static func id(in json: JSON) -> Int? {
        guard let o = json.object, o.count == 1, case .int(let n)? = o["$object"], n > 0, n <= Int64(Int.max) else {
            return nil
        }
        return Int(n)
    }
}
