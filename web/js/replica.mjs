// A local copy of one tree, kept in step with the daemon by applying the normalized ops of each diff in version
// order (PROTOCOL.md "Ops"). The daemon is authoritative: the replica never guesses, and a gap in versions makes
// the caller resubscribe.

/** Node types whose fold is always present (SEMANTICS.md §1). */
export const DYNAMIC_TYPES = new Set(['ForEach', 'If', 'AnyView']);

/** Attached-subtree modifier kinds. */
export const ATTACHING = new Set(['background', 'overlay']);

let replicas = 0;

export class Replica {
    /** Builds the replica from a `snapshot` message. */
    constructor(snapshot) {
        this.epoch = ++replicas; // tells views that every node object is new
        this.tree = snapshot.tree;
        this.title = snapshot.title || '';
        this.description = snapshot.description || '';
        this.version = snapshot.version;
        this.keys = new Map();
        for (const k of snapshot.keys || []) this.keys.set(k.key, { ...k });
        this.nodes = new Map();
        this.rootId = this.#build(snapshot.root, null, null);
        this.readerValues = new Map();
        for (const r of snapshot.readers || []) {
            this.readerValues.set(r.reader, { present: r.present, value: r.value });
        }
    }

    get size() {
        return this.nodes.size;
    }

    node(id) {
        return this.nodes.get(id);
    }

    /** Adds `json` and its descendants (children and attached subtrees); returns its id. */
    #build(json, parent, attach) {
        const node = {
            id: json.id,
            type: json.type,
            props: { ...(json.props || {}) },
            modifiers: [],
            children: [],
            parent,
            attach,
        };
        this.nodes.set(node.id, node);
        node.modifiers = this.#buildModifiers(node.id, json.modifiers || []);
        for (const child of json.children || []) node.children.push(this.#build(child, node.id, null));
        return node.id;
    }

    #buildModifiers(hostId, modifiers) {
        return modifiers.map((m, index) => {
            if (ATTACHING.has(m.kind) && m.node) {
                return { kind: m.kind, node: this.#build(m.node, null, { host: hostId, index, kind: m.kind }) };
            }
            return { ...m };
        });
    }

    /** Forgets a node and everything under it. */
    #drop(id) {
        const node = this.nodes.get(id);
        if (!node) return;
        for (const m of node.modifiers) if (ATTACHING.has(m.kind)) this.#drop(m.node);
        for (const c of node.children) this.#drop(c);
        this.nodes.delete(id);
    }

    #need(id) {
        const node = this.nodes.get(id);
        if (!node) throw new Error(`replica has no node "${id}"`);
        return node;
    }

    #unlink(node) {
        const parent = this.#need(node.parent);
        const at = parent.children.indexOf(node.id);
        parent.children.splice(at, 1);
    }

    #renumberAttachments(node) {
        node.modifiers.forEach((m, index) => {
            if (ATTACHING.has(m.kind)) this.nodes.get(m.node).attach = { host: node.id, index, kind: m.kind };
        });
    }

    #replaceModifiers(node, modifiers) {
        for (const m of node.modifiers) if (ATTACHING.has(m.kind)) this.#drop(m.node);
        node.modifiers = this.#buildModifiers(node.id, modifiers);
    }

    /**
     * Applies one diff. Returns `{ touched, structural }`: the ids whose rows changed (for flashing), and whether
     * an op changed which nodes are shown where (insert, remove, move, setModifiers); throws if the diff does not
     * follow the replica's version (the caller resubscribes).
     */
    apply(diff) {
        if (diff.version !== this.version + 1) {
            throw new Error(`diff ${diff.version} does not follow version ${this.version}`);
        }
        const touched = new Set();
        let structural = false;
        for (const op of diff.ops) if (this.#applyOp(op, touched)) structural = true;
        for (const c of diff.changes || []) {
            if (c.present) this.readerValues.set(c.reader, { present: true, value: c.value });
            else this.readerValues.set(c.reader, { present: false });
            touched.add(c.node);
        }
        this.version = diff.version;
        // A row's look depends on its node: bump the revision of every node whose row may have changed.
        for (const id of touched) {
            const node = this.nodes.get(id);
            if (node) node.rev = (node.rev ?? 0) + 1;
        }
        return { touched, structural };
    }

    /** Applies one op; returns true if it changed the display structure (which nodes are shown, and where). */
    #applyOp(op, touched) {
        switch (op.op) {
            case 'insert': {
                const parent = this.#need(op.parent);
                const id = this.#build(op.node, parent.id, null);
                parent.children.splice(op.index ?? parent.children.length, 0, id);
                touched.add(id);
                touched.add(parent.id);
                return true;
            }
            case 'remove': {
                const node = this.#need(op.node);
                this.#unlink(node);
                touched.add(node.parent);
                this.#drop(node.id);
                this.#forgetReaders();
                return true;
            }
            case 'move': {
                const node = this.#need(op.node);
                touched.add(node.parent);
                this.#unlink(node);
                const parent = this.#need(op.parent);
                parent.children.splice(op.index ?? parent.children.length, 0, node.id);
                node.parent = parent.id;
                touched.add(node.id);
                touched.add(parent.id);
                return true;
            }
            case 'setProps': {
                const node = this.#need(op.node);
                for (const [k, v] of Object.entries(op.props || {})) {
                    if (v === null) delete node.props[k];
                    else node.props[k] = v;
                }
                touched.add(node.id);
                break;
            }
            case 'setModifiers': {
                const node = this.#need(op.node);
                this.#replaceModifiers(node, op.modifiers || []);
                this.#forgetReaders();
                touched.add(node.id);
                return true;
            }
            case 'setPreference': {
                const node = this.#need(op.node);
                let w = -1;
                node.modifiers.forEach((m, i) => {
                    if (m.kind === 'preference' && m.key === op.key) w = i;
                });
                if (w >= 0) node.modifiers[w] = { kind: 'preference', key: op.key, value: op.value };
                else node.modifiers.push({ kind: 'preference', key: op.key, value: op.value });
                touched.add(node.id);
                break;
            }
            case 'removePreference': {
                const node = this.#need(op.node);
                const kept = node.modifiers.filter((m) => !(m.kind === 'preference' && m.key === op.key));
                if (kept.length !== node.modifiers.length) {
                    node.modifiers = kept;
                    this.#renumberAttachments(node);
                    this.#forgetReaders();
                }
                touched.add(node.id);
                break;
            }
            case 'declareKey':
                // A Swift key travels as its source (docs/protocol.md, "Keys written in Swift").
                this.keys.set(op.key, typeof op.swift === 'string' ? { key: op.key, swift: op.swift }
                    : { key: op.key, reducer: op.reducer, default: op.default });
                break;
            default:
                throw new Error(`unknown op "${op.op}"`);
        }
        return false;
    }

    /** Drops the values of readers that no longer exist (their node or modifier position went away). */
    #forgetReaders() {
        for (const id of [...this.readerValues.keys()]) {
            const r = this.readerAt(id);
            if (!r) this.readerValues.delete(id);
        }
    }

    /** The name of the reader at modifier `index` of `node`: `NODE#INDEX`. */
    readerId(node, index) {
        return `${node.id}#${index}`;
    }

    /** The reader named `NODE#INDEX`, or null. */
    readerAt(readerId) {
        const hash = readerId.lastIndexOf('#');
        const node = this.nodes.get(readerId.slice(0, hash));
        const m = node?.modifiers[Number(readerId.slice(hash + 1))];
        return m && m.kind === 'onPreferenceChange' ? { node: node.id, key: m.key } : null;
    }

    /** Every reader in tree order with its current value: `{reader, node, key, present, value}`. */
    readers() {
        const out = [];
        this.walk((node) => {
            node.modifiers.forEach((m, i) => {
                if (m.kind !== 'onPreferenceChange') return;
                const reader = this.readerId(node, i);
                const v = this.readerValues.get(reader) || { present: false };
                out.push({ reader, node: node.id, key: m.key, present: v.present, value: v.value });
            });
        });
        return out;
    }

    /**
     * Visits every node in tree order: a node, then its attached subtrees (in modifier order), then its children.
     * `visit(node, depth)` may return false to skip what is under the node.
     */
    walk(visit, from = this.rootId) {
        const stack = [[from, 0]];
        while (stack.length) {
            const [id, depth] = stack.pop();
            const node = this.nodes.get(id);
            if (visit(node, depth) === false) continue;
            const under = this.under(node);
            for (let i = under.length - 1; i >= 0; i--) stack.push([under[i], depth + 1]);
        }
    }

    /** What is shown under a node: attached roots first (in modifier order), then children. */
    under(node) {
        const attached = [];
        for (const m of node.modifiers) if (ATTACHING.has(m.kind)) attached.push(m.node);
        return attached.length ? attached.concat(node.children) : node.children;
    }

    /** The node above `id` in the display: its parent, or the host it is attached to. */
    above(id) {
        const node = this.nodes.get(id);
        if (!node) return null;
        return node.parent ?? node.attach?.host ?? null;
    }

    /** The node as protocol JSON (empty fields omitted), for comparisons and for copying subtrees. */
    toJSON(id = this.rootId) {
        const node = this.nodes.get(id);
        const out = { id: node.id, type: node.type };
        if (Object.keys(node.props).length) out.props = node.props;
        if (node.modifiers.length) out.modifiers = this.modifiersJSON(node);
        if (node.children.length) out.children = node.children.map((c) => this.toJSON(c));
        return out;
    }

    /** A node's modifiers as protocol JSON (attached subtrees included), without serialising its children. */
    modifiersJSON(node) {
        return node.modifiers.map((m) => (ATTACHING.has(m.kind) ? { kind: m.kind, node: this.toJSON(m.node) } : m));
    }
}
