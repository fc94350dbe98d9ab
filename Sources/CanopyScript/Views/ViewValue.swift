import CanopyCore
/// A view as a body produced it (PROGRAMS.md §3): a SwiftUI view with its arguments, handlers and content, a view
/// of the program (its struct value), or a builder's structure (`If`, `ForEach`, a group of several views). Built
/// fresh by every body run and never changed afterwards; modifiers make a new value.
package final class ViewValue {
    package enum Kind {
        /// A SwiftUI view (`Text`, `VStack`, `Color`…), its arguments in `props`.
        case library
        /// A view struct of the program: `record` holds its properties; its `body` runs in its own instance.
        case custom
        /// Several views a builder produced together; flattened into the enclosing view's children.
        case group
        /// `if`/`else`, `if let` or `switch` in a builder: `branch` is the branch taken (-1: none).
        case conditional
        /// `ForEach`: `childKeys` are the elements' ids.
        case forEach
    }

    package let kind: Kind
    package let type: String
    package var record: Value = .null
    /// Arguments by label: bindings stay bindings (the node shows their current value).
    package var props: [(String, Value)] = []
    /// Closures by role: `action`, `onEditingChanged`, `onCommit`, `onIncrement`, `onDecrement`, `get`/`set`.
    package var handlers: [(String, Value)] = []
    package var children: [ViewValue] = []
    package var childKeys: [String] = []
    package var branch = -1
    package var modifiers: [ViewModifier] = []
    /// `.id(x)`: the identity it takes instead of its position.
    package var explicitID: String?
    package let location: SourceLocation

    package init(_ kind: Kind, _ type: String, at location: SourceLocation) {
        self.kind = kind
        self.type = type
        self.location = location
    }

    /// A copy with one more modifier (outermost last).
    package func adding(_ m: ViewModifier) -> ViewValue {
        let v = copy()
        v.modifiers.append(m)
        return v
    }

    package func copy() -> ViewValue {
        let v = ViewValue(kind, type, at: location)
        v.record = record
        v.props = props
        v.handlers = handlers
        v.children = children
        v.childKeys = childKeys
        v.branch = branch
        v.modifiers = modifiers
        v.explicitID = explicitID
        return v
    }

    /// The views a group stands for, or the view itself.
    package var flattened: [ViewValue] {
        kind == .group ? children.flatMap(\.flattened) : [self]
    }

    package func prop(_ label: String) -> Value? { props.first { $0.0 == label }?.1 }
    package func handler(_ role: String) -> Value? { handlers.first { $0.0 == role }?.1 }

    /// Structural equality: what a body produced, compared before emitting ops (closures by identity).
    package func same(as o: ViewValue) -> Bool {
        if self === o { return true }
        guard kind == o.kind, type == o.type, branch == o.branch, explicitID == o.explicitID,
            childKeys == o.childKeys, props.count == o.props.count, handlers.count == o.handlers.count,
            children.count == o.children.count, modifiers.count == o.modifiers.count, record.sameInput(as: o.record)
        else { return false }
        for i in props.indices where props[i].0 != o.props[i].0 || !props[i].1.sameInput(as: o.props[i].1) { return false }
        for i in handlers.indices where handlers[i].0 != o.handlers[i].0 || !handlers[i].1.sameInput(as: o.handlers[i].1) {
            return false
        }
        for i in children.indices where !children[i].same(as: o.children[i]) { return false }
        for i in modifiers.indices where !modifiers[i].same(as: o.modifiers[i]) { return false }
        return true
    }
}

/// A modifier applied to a view, innermost first (PROGRAMS.md §3).
package enum ViewModifier {
    /// `.preference(key: K.self, value: v)`.
    case preference(key: TypeID, value: Value)
    /// `.onPreferenceChange(K.self) { … }`: a reader and its closure.
    case onPreferenceChange(key: TypeID, perform: Value)
    /// `.transformPreference(K.self) { … }`: the closure's source, compiled as a Swift transform of the key.
    case transformPreference(key: TypeID, source: String)
    /// `.background(v)`, `.overlay(v)`.
    case attached(kind: String, view: ViewValue, args: [(String, Value)])
    /// `.environment(\.k, v)`.
    case environment(key: String, value: Value)
    /// `.onChange(of: v) { … }`.
    case onChange(value: Value, action: Value, initial: Bool)
    /// `.onReceive(NotificationCenter.default.publisher(for: X)) { … }`: `name` as written in the source.
    case onReceive(name: String, action: Value)
    /// `.onSubmit { … }`, `.onAppear { … }`, `.task { … }`: closures the runtime calls.
    case action(kind: String, action: Value)
    /// `.anchorPreference(key:value:transform:)`: `source` is `.bounds` or a unit point by name (`"center"`);
    /// the transform runs with the anchor of the view's box once it is laid out. `merging`:
    /// `.transformAnchorPreference`, whose transform changes the value inside the view in place (`(inout Value,
    /// Anchor) -> Void`) instead of making one.
    case anchorPreference(key: TypeID, source: Value, transform: Value, merging: Bool)
    /// `.overlayPreferenceValue(K.self) { value in … }` (`overlay`) or `.backgroundPreferenceValue`: a view made
    /// from the key's value inside the modified view.
    case preferenceValue(overlay: Bool, key: TypeID, alignment: Value?, content: Value)
    /// `.onGeometryChange(for:of:action:)`: after each layout, `of` runs with a proxy of the box inside the
    /// modifier; when its value changes (and on the first layout) `action` runs with it.
    case geometryChange(of: Value, action: Value)
    /// Any other modifier, kept and shown.
    case other(name: String, args: [(String, Value)])

    package var name: String {
        switch self {
        case .preference: return "preference"
        case .onPreferenceChange: return "onPreferenceChange"
        case .transformPreference: return "transformPreference"
        case .attached(let kind, _, _): return kind
        case .environment: return "environment"
        case .onChange: return "onChange"
        case .onReceive: return "onReceive"
        case .action(let kind, _): return kind
        case .anchorPreference(_, _, _, let merging): return merging ? "transformAnchorPreference" : "anchorPreference"
        case .preferenceValue(let overlay, _, _, _): return overlay ? "overlayPreferenceValue" : "backgroundPreferenceValue"
        case .geometryChange: return "onGeometryChange"
        case .other(let name, _): return name
        }
    }

    package func same(as o: ViewModifier) -> Bool {
        switch (self, o) {
        case (.preference(let k1, let v1), .preference(let k2, let v2)): return k1 == k2 && v1 == v2
        case (.onPreferenceChange(let k1, let p1), .onPreferenceChange(let k2, let p2)): return k1 == k2 && p1 == p2
        case (.transformPreference(let k1, let s1), .transformPreference(let k2, let s2)): return k1 == k2 && s1 == s2
        case (.attached(let a, let v1, let x1), .attached(let b, let v2, let x2)):
            return a == b && v1.same(as: v2) && x1.count == x2.count
                && zip(x1, x2).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.environment(let k1, let v1), .environment(let k2, let v2)): return k1 == k2 && v1 == v2
        case (.onChange(let v1, let a1, let i1), .onChange(let v2, let a2, let i2)):
            return v1 == v2 && a1 == a2 && i1 == i2
        case (.onReceive(let n1, let a1), .onReceive(let n2, let a2)): return n1 == n2 && a1 == a2
        case (.action(let k1, let a1), .action(let k2, let a2)): return k1 == k2 && a1 == a2
        case (.anchorPreference(let k1, let s1, let t1, let m1), .anchorPreference(let k2, let s2, let t2, let m2)):
            return k1 == k2 && s1 == s2 && t1.sameInput(as: t2) && m1 == m2
        case (.preferenceValue(let o1, let k1, let a1, let c1), .preferenceValue(let o2, let k2, let a2, let c2)):
            return o1 == o2 && k1 == k2 && a1 == a2 && c1.sameInput(as: c2)
        case (.geometryChange(let o1, let a1), .geometryChange(let o2, let a2)):
            return o1.sameInput(as: o2) && a1.sameInput(as: a2)
        case (.other(let n1, let x1), .other(let n2, let x2)):
            return n1 == n2 && x1.count == x2.count && zip(x1, x2).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}

extension Value {
    /// Equality for deciding whether a view's inputs changed: as `==`, except that two closures are the same when they
    /// run the same code over equal captured values (each body run makes new closure objects).
    package func sameInput(as o: Value) -> Bool {
        switch (self, o) {
        case (.function(let x), .function(let y)):
            if x === y { return true }
            if x.kind == .closure, y.kind == .closure {
                let a = unsafeDowncast(x, to: Closure.self)
                let b = unsafeDowncast(y, to: Closure.self)
                return a.function === b.function && a.captures.count == b.captures.count
                    && zip(a.captures, b.captures).allSatisfy { $0 === $1 || $0.value.sameInput(as: $1.value) }
            }
            if x.kind == .bound, y.kind == .bound {
                let a = unsafeDowncast(x, to: BoundMethod.self)
                let b = unsafeDowncast(y, to: BoundMethod.self)
                return a.function === b.function && a.receiver.sameInput(as: b.receiver)
            }
            return false
        case (.record(let t, let a), .record(let u, let b)):
            return t == u && a.count == b.count && zip(a, b).allSatisfy { $0.sameInput(as: $1) }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameInput(as: $1) }
        case (.tuple(let a), .tuple(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameInput(as: $1) }
        case (.enumCase(let t, let c, let a), .enumCase(let u, let d, let b)):
            return t == u && c == d && a.count == b.count && zip(a, b).allSatisfy { $0.sameInput(as: $1) }
        case (.box(let x), _): return x.value.sameInput(as: o)
        case (_, .box(let y)): return sameInput(as: y.value)
        default: return self == o
        }
    }
}

extension ViewValue {
    /// A `Color` where a color is expected (`.foregroundColor(Color.red)`, `.fill(tint)`): its data, as an implicit
    /// member's name is kept (`"red"`), or its initializer's arguments (`{"red":1,"green":0,"blue":0}`), with the
    /// modifiers applied to it (`Color.red.opacity(0.5)`). `nil` for every other view.
    package func colorJSON(_ encode: (Value) -> JSON) -> JSON? {
        guard kind == .library, type == "Color", children.isEmpty else { return nil }
        var base: JSON
        if props.count == 1, props[0].0 == "_0" {
            base = encode(props[0].1)
        } else {
            var o = JSONObject()
            for (label, value) in props { o[label] = encode(value) }
            base = .object(o)
        }
        guard !modifiers.isEmpty else { return base }
        var applied: [JSON] = []
        for m in modifiers {
            guard case .other(let name, let args) = m else { return nil }
            var o = JSONObject()
            for (label, value) in args { o[label] = encode(value) }
            applied.append(["kind": .string(name), "args": .object(o)])
        }
        return ["color": base, "modifiers": .array(applied)]
    }
}

extension Value {
    /// What a closure is, as text: its code's place and its captured values' JSON — equal for two closures exactly
    /// when `sameInput` holds for values that encode (`nil` for anything but a closure).
    package func closureFingerprint(_ program: Program) -> String? {
        guard case .function(let c) = unboxed, c.kind == .closure else { return nil }
        let closure = unsafeDowncast(c, to: Closure.self)
        let captures = JSON.array(closure.captures.map { program.encode($0.value) })
        return "\(closure.function.location) \(captures.encoded())"
    }
}
