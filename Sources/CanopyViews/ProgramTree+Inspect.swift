import CanopyCore
import CanopyScript

/// What one node of a program tree holds and sees, for an inspector (the `inspect` request): the view struct it is
/// an instance of, its `@State` cells, its bindings with the cell each one ultimately writes, and the environment it
/// sees with the node that set each value. Nothing changes: Swift code run to read a value cannot write a cell.
extension ProgramTree {
    func inspect(node id: String) throws(CanopyError) -> JSONObject {
        guard let node = nodes[id] else { throw CanopyError(.noSuchNode, "no node \"\(id)\" in this program tree") }
        var out = JSONObject()
        if let inst = node.instance, inst.content == nil { out["view"] = .string(program.types[inst.typeID].name) }
        let (cells, objects) = inspectedCells(node.instance?.cells ?? [])
        out["cells"] = .array(cells)
        if !objects.isEmpty { out["objects"] = .object(objects) }
        readOnly = true
        machine.fuel = limits.fuel
        objectWrites.forget()
        defer {
            readOnly = false
            objectWrites.undo()  // nor can it change an object
        }
        do {
            out["bindings"] = .array(try bindings(of: node))
        } catch {
            machine.reset()
            throw error.canopyError
        }
        out["environment"] = .array(environment(of: node))
        return out
    }

    /// An instance's `@Binding` properties, or a SwiftUI view's binding arguments (`text`, `isOn`, `value`…).
    func bindings(of node: RenderedNode) throws(ScriptFault) -> [JSON] {
        var named: [(String, BindingValue)] = []
        if let inst = node.instance {
            guard case .record(_, let fields) = inst.record else { return [] }
            for (i, f) in program.types[inst.typeID].fields.enumerated() where f.wrapper == "Binding" && i < fields.count {
                if case .binding(let b) = fields[i] { named.append((f.name, b)) }
            }
        } else {
            for (label, value) in node.view.props {
                if case .binding(let b) = value { named.append((label, b)) }
            }
        }
        var out: [JSON] = []
        for (name, b) in named {
            var o: JSONObject = ["name": .string(name), "value": program.encode(try b.get(machine))]
            switch target(of: b) {
            case .cell(let box, let path):
                if let (node, cell) = box.cell {
                    o["cell"] = ["node": .string(node), "name": .string(cell)]
                    if !path.isEmpty { o["path"] = .array(path) }
                }
            case .computed: o["computed"] = true
            case .constant: o["constant"] = true
            }
            out.append(.object(o))
        }
        return out
    }

    /// What a binding ultimately writes.
    enum BindingTarget {
        /// A cell, through a path of properties and subscripts (`$model.name`, `$items[2]`).
        case cell(StateBox, path: [JSON])
        /// `Binding(get:set:)`: its closures decide.
        case computed
        /// `.constant(v)`: nothing.
        case constant
    }

    func target(of b: BindingValue) -> BindingTarget {
        func deeper(_ parent: BindingValue, _ step: JSON) -> BindingTarget {
            guard case .cell(let box, let path) = target(of: parent) else { return target(of: parent) }
            return .cell(box, path: path + [step])
        }
        switch b.source {
        case .cell(let box, let path): return .cell(box, path: path.map { .string($0) })
        case .closures: return .computed
        case .constant: return .constant
        case .member(let parent, let name): return deeper(parent, .string(name))
        case .element(let parent, let key): return deeper(parent, program.encode(key))
        }
    }

    /// The environment the node sees: every key an `.environment(\.k, v)` on it or an ancestor set (the nearest
    /// wins, `from` names it), then the keys its instance reads through `@Environment` that nobody set (their
    /// defaults, no `from`); sorted by key.
    func environment(of node: RenderedNode) -> [JSON] {
        var set: [String: (value: Value, from: String)] = [:]
        var path = node.id
        while true {
            // Ancestors by id: a child's id is its parent's plus one `/POSITION:Type` step (attached subtrees too).
            if let n = nodes[path] {
                var here: [String: Value] = [:]
                for m in n.view.modifiers.reversed() {  // the innermost of a key wins, as when rendering
                    if case .environment(let key, let value) = m { here[key] = value }
                }
                for (key, value) in here where set[key] == nil { set[key] = (value, path) }
            }
            guard let slash = path.lastIndex(of: "/") else { break }
            path = String(path[..<slash])
        }
        var entries: [(key: String, json: JSON)] = set.map { key, found in
            (key, ["key": .string(key), "value": program.encode(found.value), "from": .string(found.from)])
        }
        if let inst = node.instance {
            for f in program.types[inst.typeID].fields where f.wrapper == "Environment" {
                let key = f.environmentKey ?? f.name
                guard set[key] == nil, !entries.contains(where: { $0.key == key }) else { continue }
                let value = inst.environmentBoxes[key]?.value ?? environmentDefault(key)
                entries.append((key, ["key": .string(key), "value": program.encode(value)]))
            }
        }
        return entries.sorted { $0.key < $1.key }.map(\.json)
    }
}
