import CanopyCore
import CanopyScript

/// What a node shows: props from a view's arguments or a view struct's properties, and its modifiers.
extension ProgramTree {
    /// A SwiftUI view's props: its arguments by label, bindings as their current value, closures left out.
    func libraryProps(_ v: ViewValue) throws(ScriptFault) -> JSONObject {
        var o = JSONObject()
        for (label, value) in v.props {
            guard let j = try propJSON(value) else { continue }
            o[label] = j
        }
        return o
    }

    /// A value as a prop: `nil` for what props leave out (closures).
    func propJSON(_ value: Value) throws(ScriptFault) -> JSON? {
        switch value {
        case .function, .metatype: return nil
        case .binding: return program.encode(try machine.unwrapProperty(value, at: machine.site))
        case .view(let v):
            if let color = v.colorJSON(program.encode) { return color }
            var o: JSONObject = ["type": .string(v.type)]
            if v.kind == .library, !v.props.isEmpty { o["props"] = .object(try libraryProps(v)) }
            return .object(o)
        default: return program.encode(value)
        }
    }

    /// A view struct's props: its stored properties that are not property wrappers.
    func customProps(_ record: Value) -> JSONObject {
        guard case .record(let t, let fields) = record else { return [:] }
        var o = JSONObject()
        for (i, f) in program.types[t].fields.enumerated() where i < fields.count && f.wrapper == nil {
            switch fields[i] {
            case .function, .metatype: continue
            case .view(let v): o[f.name] = v.colorJSON(program.encode) ?? .string(v.type)
            default: o[f.name] = program.encode(fields[i])
            }
        }
        return o
    }

    /// A modifier as the engine and clients see it: one modifier, or for `overlayPreferenceValue` two (a reader of
    /// the key and the overlay its closure makes).
    /// `engineIndex` is the index the first of them takes among the node's engine modifiers.
    func modifierJSON(
        _ m: ViewModifier, owner: String, index: Int, engineIndex: Int, environment: [String: Value],
        local: [String: Value], instance: ViewInstance?, reuse: [String: ViewInstance], attached: inout [RenderedNode]
    ) throws(ScriptFault) -> [Modifier] {
        switch m {
        case .anchorPreference(let key, let source, let transform, let merging):
            let anchor = try anchorValue(source, owner: owner, index: index)
            if merging {
                guard let scriptKey = compiled.keysByName[keyName(key)] else {
                    throw ScriptFault(.runtime, "transformAnchorPreference: no key \(keyName(key))", at: .unknown)
                }
                let t = AnchorTransform(compiled: compiled, key: scriptKey, closure: transform, anchor: anchor)
                return [.transformPreference(key: keyName(key), transform: .custom(t))]
            }
            let value = try machine.call(value: transform, [anchor], site: machine.sourceLocation(of: transform) ?? machine.site)
            return [.preference(key: keyName(key), value: program.encode(value))]
        case .preferenceValue(let overlay, let key, _, let content):
            let id = "\(owner)/@\(index):\(overlay ? "overlay" : "background")PreferenceValue"
            let inst = try preferenceValueInstance(
                key: key, content: content, id: id, reader: "\(owner)#\(engineIndex)", environment: environment,
                local: local, owner: instance, reuse: reuse)
            let node = RenderedNode(
                id: id, view: ViewValue(.library, "PreferenceValue", at: .unknown), type: "PreferenceValue", props: [:],
                modifiers: [], children: [], instance: inst)
            nodes[id] = node
            attached.append(node)
            let reader = Modifier.onPreferenceChange(key: keyName(key))
            return [reader, overlay ? .overlay(node.fullNode) : .background(node.fullNode)]
        case .geometryChange(let of, let action):
            let key = "\(owner)#\(index)"
            geometryWatches[key] = GeometryWatch(node: owner, of: of, action: action, last: geometryWatches[key]?.last)
            return [.other(kind: "onGeometryChange", args: [:])]
        default:
            return [try singleModifierJSON(
                m, owner: owner, index: index, environment: environment, local: local, instance: instance, reuse: reuse,
                attached: &attached)]
        }
    }

    private func singleModifierJSON(
        _ m: ViewModifier, owner: String, index: Int, environment: [String: Value], local: [String: Value],
        instance: ViewInstance?, reuse: [String: ViewInstance], attached: inout [RenderedNode]
    ) throws(ScriptFault) -> Modifier {
        switch m {
        case .anchorPreference, .preferenceValue, .geometryChange:
            throw ScriptFault(.runtime, "\(m.name) is made by modifierJSON", at: .unknown)
        case .preference(let key, let value):
            return .preference(key: keyName(key), value: program.encode(value))
        case .onPreferenceChange(let key, _):
            return .onPreferenceChange(key: keyName(key))
        case .transformPreference(let key, let source):
            let json: JSON = ["kind": "transformPreference", "key": .string(keyName(key)), "transform": ["swift": .string(source)]]
            do { return try Modifier(json: json) } catch {
                throw ScriptFault(.runtime, "transformPreference: \(error.message)", at: .unknown)
            }
        case .attached(let kind, let view, _):
            // The engine's background and overlay carry their subtree only: `alignment:` is not shown.
            let id = childID(owner, view, position: "@\(index)")
            let node = try render(view, id: id, environment: environment, local: local, owner: instance, reuse: reuse)
            attached.append(node)
            return kind == "overlay" ? .overlay(node.fullNode) : .background(node.fullNode)
        case .environment(let key, let value):
            return .other(kind: "environment", args: ["key": .string(key), "value": program.encode(value)])
        case .onChange(let value, _, let initial):
            var args: JSONObject = ["of": program.encode(value)]
            if initial { args["initial"] = true }
            return .other(kind: "onChange", args: args)
        case .onReceive(let name, _):
            return .other(kind: "onReceive", args: ["name": .string(name)])
        case .action(let kind, _):
            return .other(kind: kind, args: [:])
        case .other(let name, let args):
            var o = JSONObject()
            for (label, v) in args {
                if let j = try propJSON(v) { o[label] = j }
            }
            return .other(kind: name, args: o)
        }
    }

    func keyName(_ t: TypeID) -> String { compiled.keyNames[t] ?? program.types[t].name }
}
