@testable import CanopyCore

// The reducer catalog rewritten as custom reducers: each body is the SwiftUI `reduce` of SEMANTICS.md §5 in plain
// Swift, calling `next()` exactly where that body calls `nextValue()`. With `SwiftCatalog.Compiler`, a tree can run
// any catalog key as a custom one; the differential test runs every tree both ways.

enum SwiftCatalog {
    /// `catalog <reducer> <default as JSON>`: the stand-in "Swift source" of a catalog key run as a custom one.
    static func source(_ d: KeyDeclaration) -> String {
        "catalog \(d.catalogReducer!.rawValue) \(d.defaultValue.encoded())"
    }

    /// The declaration as an uncompiled Swift key, for a tree with `Compiler`.
    static func declaration(_ d: KeyDeclaration) -> KeyDeclaration { KeyDeclaration(key: d.key, swift: source(d)) }

    /// A catalog transform as the "Swift" closure `SwiftCatalogKey.compileTransform` understands; `set` and
    /// `reduce` stay as they are (they work on custom keys).
    static func transform(_ t: Transform) -> Transform {
        switch t {
        case .add, .multiply, .append, .merge: return .swift(t.json.encoded())
        default: return t
        }
    }

    static func modifier(_ m: Modifier) -> Modifier {
        switch m {
        case .transformPreference(let k, let t): return .transformPreference(key: k, transform: transform(t))
        case .background(let n): return .background(node(n))
        case .overlay(let n): return .overlay(node(n))
        default: return m
        }
    }

    static func node(_ n: Node) -> Node {
        Node(id: n.id, type: n.type, props: n.props, modifiers: n.modifiers.map(modifier), children: n.children.map(node))
    }

    static func op(_ op: Op) -> Op {
        switch op {
        case .insert(let p, let n, let at): return .insert(parent: p, node: node(n), position: at)
        case .setModifiers(let n, let mods): return .setModifiers(node: n, modifiers: mods.map(modifier))
        case .declareKey(let d): return .declareKey(declaration(d))
        default: return op
        }
    }

    /// Compiles `catalog …` sources; counts compilations.
    final class Compiler: KeyCompiler, @unchecked Sendable {  // test-only; the counter is read on the test's thread
        var compiled = 0

        func compileKey(named key: String, source: String) throws(CanopyError) -> any CustomReducer {
            let parts = source.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3, parts[0] == "catalog", let r = Reducer(rawValue: parts[1]),
                let d = try? JSONParser.parse(parts[2])
            else {
                throw CanopyError(
                    .compileError, "cannot compile", details: ["diagnostics": [["line": 1, "message": "bad source"]]])
            }
            let declaration = KeyDeclaration(key: key, reducer: r, defaultValue: d)
            try declaration.validate()
            compiled += 1
            return SwiftCatalogKey(declaration, source: source)
        }
    }
}

/// A catalog reducer written as a custom one. Each reduce and transform costs one unit of fuel.
final class SwiftCatalogKey: CustomReducer {
    let declaration: KeyDeclaration
    let reducer: Reducer
    let source: String
    var defaultValue: JSON { declaration.defaultValue }
    var reduceLine: Int? { 1 }

    init(_ declaration: KeyDeclaration, source: String) {
        self.declaration = declaration
        self.reducer = declaration.catalogReducer!
        self.source = source
    }

    func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        try spend(context)
        switch reducer {
        case .last:
            value = next()
        case .first:
            break
        case .sum:
            value = Self.add(value, next())
        case .max:
            let n = next()
            if (n.number ?? 0) > (value.number ?? 0) { value = n }
        case .min:
            let n = next()
            if (n.number ?? 0) < (value.number ?? 0) { value = n }
        case .and:
            value = .bool(value.bool == true && next().bool == true)
        case .or:
            value = .bool(value.bool == true || next().bool == true)
        case .append:
            value = .array((value.array ?? []) + (next().array ?? []))
        case .merge:
            var o = value.object ?? [:]
            o.merge(next().object ?? [:])
            value = .object(o)
        case .firstNonNull:
            if value.isNull { value = next() }
        case .priority:
            guard let e = Self.message(value), !e.content.isEmpty else {
                value = next()
                return
            }
            let n = next()
            guard let m = Self.message(n), !m.content.isEmpty, m.priority > e.priority else { return }
            value = n
        case .nest:
            value = .string("(" + (value.string ?? "") + " " + (next().string ?? "") + ")")
        }
    }

    func mismatch(_ value: JSON) -> String? { declaration.mismatch(value) }

    /// Understands `{"add": 1}` and the other catalog transforms as JSON, and `{ $0 += N }` for a number key.
    func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform {
        if source.hasPrefix("{ $0 += "), source.hasSuffix(" }"),
            let n = Int64(source.dropFirst(8).dropLast(2))
        {
            return CatalogTransform(.add(.int(n)), reducer: reducer, source: source)
        }
        guard let json = try? JSONParser.parse(source), let t = try? Transform(json: json) else {
            throw CanopyError(.compileError, "cannot compile closure", details: ["diagnostics": []])
        }
        try t.check(for: declaration)
        return CatalogTransform(t, reducer: reducer, source: source)
    }

    private func spend(_ context: ReducerContext) throws(CanopyError) {
        context.fuel -= 1
        if context.fuel < 0 { throw CanopyError(.tooExpensive, "out of fuel") }
    }

    static func add(_ a: JSON, _ b: JSON) -> JSON {
        if case .int(let x) = a, case .int(let y) = b {
            let (r, overflow) = x.addingReportingOverflow(y)
            if !overflow { return .int(r) }
        }
        return .double((a.number ?? 0) + (b.number ?? 0))
    }

    static func message(_ v: JSON) -> (priority: Double, content: String)? {
        guard let o = v.object, let p = o["priority"]?.number, let c = o["content"]?.string else { return nil }
        return (p, c)
    }
}

/// A catalog transform run as a compiled Swift closure.
final class CatalogTransform: CustomTransform {
    let transform: Transform
    let reducer: Reducer
    let source: String

    init(_ transform: Transform, reducer: Reducer, source: String) {
        self.transform = transform
        self.reducer = reducer
        self.source = source
    }

    func apply(_ value: inout JSON, context: ReducerContext) throws(CanopyError) {
        context.fuel -= 1
        if context.fuel < 0 { throw CanopyError(.tooExpensive, "out of fuel") }
        value = transform.apply(to: value, reducer: reducer)
    }
}
