// canopy-client.mjs — a browser client for canopyd, in one ES module with no imports and no build step.
//
//   import { CanopyClient } from 'http://127.0.0.1:7700/js/canopy-client.mjs';
//   const client = new CanopyClient();                 // ws(s)://<this page's host>/ws, or pass a URL
//   const form = client.tree('validated-signup');      // subscribes (again after every reconnect)
//   form.on('change', ({ replica }) => draw(replica)); // a snapshot or a diff was applied
//   client.start();
//   await form.event(fieldId, 'setText', 'ann@example.com'); // resolves with the diff that acknowledged it
//
// The daemon is authoritative: the replica only applies the daemon's snapshots and diffs, in version order
// (PROTOCOL.md, PROGRAMS.md §7), and a gap makes it catch up from the log. Batches (edits, events, source
// changes) stay pending until their diff or rejection arrives and are resent, with the same seq, after a
// reconnect; the daemon applies each (client, seq) at most once. docs/client.md documents the API.

const SUBPROTOCOL = 'canopy.v1';

/** The inspector's default URL: the WebSocket of the daemon that served the page. */
export function pageSocketURL() {
    const scheme = globalThis.location?.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${globalThis.location?.host ?? '127.0.0.1:7700'}/ws`;
}

// MARK: Connection

/**
 * One WebSocket to a daemon, with hello, request/reply matching by `rid`, and automatic reconnection with back-off.
 * Messages that are not replies go to `onMessage`.
 */
export class Connection {
    /**
     * `url` is ws(s)://host:port/ws. Callbacks: onStatus(state, detail), onMessage(msg), onOpen() after a
     * successful hello (subscribe again there), onUnauthorized(message).
     */
    constructor(url, { client, token, onStatus, onMessage, onOpen, onUnauthorized }) {
        this.url = url;
        this.client = client;
        this.token = token;
        this.onStatus = onStatus ?? (() => {});
        this.onMessage = onMessage ?? (() => {});
        this.onOpen = onOpen ?? (() => {});
        this.onUnauthorized = onUnauthorized ?? (() => {});
        this.nextRid = 1;
        this.waiting = new Map();
        this.attempt = 0;
        this.session = null;
        this.timer = null;
        this.stopped = false;
    }

    start() {
        this.stopped = false;
        this.#open();
    }

    /** Closes the socket for good (no reconnection). */
    stop() {
        this.stopped = true;
        clearTimeout(this.timer);
        if (this.ws) {
            this.ws.onclose = null;
            this.ws.close(1000);
        }
        this.#closed({ code: 1000 });
    }

    /** Reconnects now with a new token (after the user typed one). */
    restart(token) {
        this.token = token;
        clearTimeout(this.timer);
        this.attempt = 0;
        if (this.ws && this.ws.readyState <= WebSocket.OPEN) {
            this.ws.onclose = null;
            this.ws.close(1000);
        }
        this.#open();
    }

    get isOpen() {
        return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.session !== null;
    }

    #open() {
        this.session = null;
        this.onStatus(this.attempt ? 'reconnecting' : 'connecting', this.attempt ? `attempt ${this.attempt + 1}` : '');
        let ws;
        try {
            ws = new WebSocket(this.url, SUBPROTOCOL);
        } catch (error) {
            this.onStatus('offline', String(error));
            return;
        }
        this.ws = ws;
        ws.onopen = () => {
            const hello = { type: 'hello', client: this.client };
            if (this.token) hello.token = this.token;
            this.request(hello, { beforeWelcome: true }).then(
                (welcome) => {
                    this.attempt = 0;
                    this.session = welcome.session;
                    this.welcome = welcome;
                    this.onStatus('connected', `${welcome.server} · ${welcome.session} · ${welcome.role}`);
                    this.onOpen();
                },
                () => {},
            );
        };
        ws.onmessage = (event) => this.#receive(event.data);
        ws.onclose = (event) => this.#closed(event);
    }

    #receive(text) {
        let msg;
        try {
            msg = JSON.parse(text);
        } catch {
            console.warn('canopy: a frame that is not JSON', text.slice(0, 200));
            return;
        }
        if (msg.type === 'error' && msg.code === 'unauthorized') {
            this.unauthorized = true;
            this.onUnauthorized(msg.message || 'a token is required');
        }
        if (msg.rid !== undefined && this.waiting.has(msg.rid)) {
            const { resolve, reject } = this.waiting.get(msg.rid);
            this.waiting.delete(msg.rid);
            if (msg.type === 'error') reject(Object.assign(new Error(msg.message || msg.code), { reply: msg }));
            else resolve(msg);
            // Acknowledgements and snapshots are also state changes everyone else sees: pass them on too.
            if (msg.type === 'diff' || msg.type === 'snapshot' || msg.type === 'rejected') this.onMessage(msg);
            return;
        }
        this.onMessage(msg);
    }

    #closed(event) {
        this.session = null;
        for (const { reject } of this.waiting.values()) reject(new Error('connection closed'));
        this.waiting.clear();
        if (this.stopped) {
            this.onStatus('closed', '');
            return;
        }
        if (this.unauthorized) {
            this.unauthorized = false;
            this.onStatus('unauthorized', 'enter a token to connect');
            return;
        }
        this.attempt += 1;
        const delay = Math.min(5000, 250 * 2 ** Math.min(this.attempt, 5));
        const why = event.code === 1008 ? 'too slow: resynchronising' : event.code === 1009 ? 'message too large' : '';
        this.onStatus('reconnecting', `closed (${event.code}${why ? ': ' + why : ''}); retry in ${delay / 1000} s`);
        this.timer = setTimeout(() => this.#open(), delay);
    }

    /** Sends `msg` without waiting for a reply. Returns false when not connected. */
    send(msg) {
        if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
        this.ws.send(JSON.stringify(msg));
        return true;
    }

    /** Sends `msg` with a fresh `rid` and resolves with the reply (rejects on `error`, or when the socket closes). */
    request(msg, { beforeWelcome = false } = {}) {
        if (!beforeWelcome && !this.isOpen) return Promise.reject(new Error('not connected'));
        const rid = this.nextRid++;
        return new Promise((resolve, reject) => {
            this.waiting.set(rid, { resolve, reject });
            if (!this.send({ ...msg, rid })) {
                this.waiting.delete(rid);
                reject(new Error('not connected'));
            }
        });
    }
}

// MARK: Replica

/** Node types whose fold is always present (SEMANTICS.md §1). */
export const DYNAMIC_TYPES = new Set(['ForEach', 'If', 'AnyView']);

/** Attached-subtree modifier kinds. */
export const ATTACHING = new Set(['background', 'overlay']);

let replicas = 0;

/** A node's props and modifiers (an attachment by its kind only) as one string, to tell whether they changed. */
function lookOf(props, modifiers) {
    return JSON.stringify([props || {}, (modifiers || []).map((m) => (ATTACHING.has(m.kind) ? m.kind : m))]);
}

/** The key of a `@State` cell in `Replica.cells`. */
export function cellKey(node, name) {
    return `${node}\u0000${name}`;
}

/**
 * A local copy of one tree, kept in step with the daemon by applying the normalized ops of each diff in version
 * order (PROTOCOL.md "Ops"). A program tree also keeps its source, its `@State` cells and its preview contexts, and,
 * once laid out, its canvas and every node's `frame` and `modifierFrames` (LAYOUT.md §2).
 */
export class Replica {
    // Frames of the nodes a diff's ops dropped, by id: a node rebuilt with the same id (an attachment re-sent by
    // `setModifiers`, a remove and insert) keeps its frame, which the diff lists only if it changed.
    #lostFrames = null;

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
        this.program = snapshot.program ? { ...snapshot.program } : null;
        this.cells = new Map();
        for (const c of snapshot.state || []) this.cells.set(cellKey(c.node, c.name), { node: c.node, name: c.name, value: c.value });
        // The class instances the cells refer to as {"$object":ID}, by id (docs/programs.md, "Objects in state").
        this.objects = new Map(Object.entries(snapshot.objects || {}));
        this.previewContexts = snapshot.previewContexts || [];
        // The screen or window the tree is laid out in, and the versioned model that measured its Text.
        this.canvas = snapshot.canvas ? { ...snapshot.canvas } : null;
        this.textModel = snapshot.textModel ?? null;
        // Each ScrollView's offset [x, y], from the program's spec and every diff's `scroll` (LAYOUT.md §2).
        this.scroll = new Map(Object.entries(snapshot.program?.scroll || {}));
        this.layoutRev = 0; // grows when a frame or the canvas changes, for views that draw them
    }

    get size() {
        return this.nodes.size;
    }

    /** Whether the tree is an instance of a Swift program (PROGRAMS.md). */
    get isProgram() {
        return this.program !== null;
    }

    node(id) {
        return this.nodes.get(id);
    }

    /** The objects the cells reach, by id in numeric order: `[[id, {class, fields}]…]`. */
    reachableObjects() {
        const seen = new Set();
        const work = [...this.cells.values()].map((c) => c.value);
        while (work.length) {
            const v = work.pop();
            if (v === null || typeof v !== 'object') continue;
            const keys = Array.isArray(v) ? null : Object.keys(v);
            if (keys && keys.length === 1 && keys[0] === '$object') {
                const id = String(v.$object);
                const entry = this.objects.get(id);
                if (entry && !seen.has(id)) {
                    seen.add(id);
                    work.push(entry.fields);
                }
                continue;
            }
            for (const x of Array.isArray(v) ? v : Object.values(v)) work.push(x);
        }
        return [...seen].sort((a, b) => Number(a) - Number(b)).map((id) => [id, this.objects.get(id)]);
    }

    /** The `@State` cells of the view instance at `id`, in the order the daemon listed them. */
    cellsOf(id) {
        const out = [];
        for (const c of this.cells.values()) if (c.node === id) out.push(c);
        return out;
    }

    /** Adds `json` and its descendants (children and attached subtrees); returns its id. */
    #build(json, parent, attach) {
        const lost = json.frame === undefined ? this.#lostFrames?.get(json.id) : undefined;
        // Its layout modifiers' boxes stay only if it comes back with the same props and modifiers.
        const same = lost && lost.look === lookOf(json.props, json.modifiers);
        const node = {
            id: json.id,
            type: json.type,
            props: { ...(json.props || {}) },
            modifiers: [],
            children: [],
            parent,
            attach,
            frame: json.frame ?? lost?.frame ?? null, // [x, y, width, height] in canvas coordinates, once laid out
            // [{ modifier: index, frame }] ([] beside a frame: none); null when unknown (a diff moved it and did not say)
            modifierFrames: json.modifierFrames ?? (json.frame ? [] : same ? lost.modifierFrames : null),
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
        if (node.frame && this.#lostFrames) {
            this.#lostFrames.set(id, { frame: node.frame, modifierFrames: node.modifierFrames, look: lookOf(node.props, node.modifiers) });
        }
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
     * Applies one diff. Returns `{ touched, structural, before, frames }`: the ids whose rows changed (for
     * flashing), whether an op changed which nodes are shown where (insert, remove, move, setModifiers), the values
     * the fired readers had before, and how many frames changed (they flash nothing: a resize moves them all);
     * throws if the diff does not follow the replica's version (the caller resubscribes).
     */
    apply(diff) {
        if (diff.version !== this.version + 1) {
            throw new Error(`diff ${diff.version} does not follow version ${this.version}`);
        }
        const touched = new Set();
        let structural = false;
        // The readers' values before this diff, for showing "before → after".
        const before = new Map((diff.changes || []).map((c) => [c.reader, this.readerValues.get(c.reader)]));
        this.#lostFrames = new Map();
        try {
            for (const op of diff.ops || []) if (this.#applyOp(op, touched)) structural = true;
        } finally {
            this.#lostFrames = null;
        }
        for (const c of diff.changes || []) {
            if (c.present) this.readerValues.set(c.reader, { present: true, value: c.value });
            else this.readerValues.set(c.reader, { present: false });
            touched.add(c.node);
        }
        for (const c of diff.state || []) {
            if (c.dropped) this.cells.delete(cellKey(c.node, c.name));
            else this.cells.set(cellKey(c.node, c.name), { node: c.node, name: c.name, value: c.value });
            touched.add(c.node);
        }
        for (const [id, entry] of Object.entries(diff.objects || {})) this.objects.set(id, entry);
        if (typeof diff.source === 'string' && this.program) this.program = { ...this.program, source: diff.source };
        const frames = this.#applyFrames(diff);
        this.version = diff.version;
        // A row's look depends on its node: bump the revision of every node whose row may have changed.
        for (const id of touched) {
            const node = this.nodes.get(id);
            if (node) node.rev = (node.rev ?? 0) + 1;
        }
        return { touched, structural, before, frames };
    }

    /**
     * The frames (and canvas and scroll offsets) a diff changed; a removed node's frame went with it. Returns how many
     * frames changed. A frame entry without `modifierFrames` leaves a node's layout-modifier boxes in doubt: they
     * move with a node that only moved, and are forgotten (null) where they may have changed — on a node that changed
     * size or whose props changed, and on every node above one that changed size (a node that had none still has
     * none) — and on a node whose modifiers changed.
     */
    #applyFrames(diff) {
        let changed = 0;
        const doubtful = new Set();
        const remodified = new Set();
        for (const op of diff.ops || []) {
            if (op.op === 'setProps') doubtful.add(op.node);
            else if (op.op === 'setModifiers') remodified.add(op.node);
        }
        const given = new Set();
        const climbed = new Set(); // nodes whose ancestors are already in doubt
        for (const f of diff.frames || []) {
            const node = this.nodes.get(f.node);
            if (!node) continue;
            const old = node.frame;
            node.frame = f.frame;
            changed += 1;
            if (f.modifierFrames !== undefined) {
                node.modifierFrames = f.modifierFrames;
                given.add(f.node);
            } else if (old && old[2] === f.frame[2] && old[3] === f.frame[3]) {
                const dx = f.frame[0] - old[0];
                const dy = f.frame[1] - old[1];
                node.modifierFrames = node.modifierFrames?.map((m) => ({ ...m, frame: [m.frame[0] + dx, m.frame[1] + dy, m.frame[2], m.frame[3]] })) ?? null;
            } else {
                for (let at = f.node; at != null && !climbed.has(at); at = this.above(at)) {
                    climbed.add(at);
                    doubtful.add(at);
                }
            }
        }
        for (const id of doubtful) {
            const node = this.nodes.get(id);
            if (node?.modifierFrames?.length && !given.has(id)) node.modifierFrames = null;
        }
        for (const id of remodified) {
            const node = this.nodes.get(id);
            if (node && !given.has(id)) node.modifierFrames = null;
        }
        for (const s of diff.scroll || []) {
            if (Array.isArray(s.offset)) this.scroll.set(s.node, s.offset);
            else this.scroll.delete(s.node);
        }
        if (diff.canvas) this.canvas = { ...diff.canvas };
        if (diff.textModel) this.textModel = diff.textModel;
        if (changed || diff.canvas || diff.scroll?.length) this.layoutRev += 1;
        return changed;
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

    /** The first node of `type` in tree order whose props satisfy `match(props)` (for scripts and tests). */
    find(type, match = () => true) {
        let found = null;
        this.walk((node) => {
            if (found) return false;
            if (node.type === type && match(node.props)) found = node;
            return true;
        });
        return found;
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

// MARK: Trees and batches

/** A batch the daemon rejected: `code`, `message` and the details of `reply` (diagnostics, line, stack). */
export class RejectedError extends Error {
    constructor(reply) {
        super(reply.message || reply.code);
        this.code = reply.code;
        this.reply = reply;
    }
}

/**
 * One subscribed tree: its replica and the batches this client sent to it. Events: `snapshot`, `diff`
 * ({ diff, applied }), `change` (after either: { replica, diff? }), `rejected` (the message), `clients`, `deleted`.
 */
export class TreeHandle {
    #client;
    #listeners = new Map();

    constructor(client, id, { trace = false } = {}) {
        this.#client = client;
        this.id = id;
        this.trace = trace;
        this.replica = null;
        this.pending = new Map(); // seq → { msg, resolve, reject }
        this.closed = false;
    }

    /** Adds a listener; returns a function that removes it. */
    on(type, listener) {
        if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
        this.#listeners.get(type).add(listener);
        return () => this.#listeners.get(type).delete(listener);
    }

    #emit(type, value) {
        for (const listener of this.#listeners.get(type) ?? []) {
            try {
                listener(value);
            } catch (error) {
                console.error(`canopy: a "${type}" listener failed`, error);
            }
        }
    }

    /** Sends an `edit` batch of ops (data trees). Resolves with its diff, rejects with a `RejectedError`. */
    edit(ops) {
        return this.#batch({ type: 'edit', ops });
    }

    /**
     * Sends an event to a node of a program tree (PROGRAMS.md §6): `setText`, `tap`, `setValue`, `focus`, `scroll`, …
     * A tree-wide event (`resize`, LAYOUT.md §2) passes null for the node.
     */
    event(node, event, value) {
        const msg = node == null ? { type: 'event', event } : { type: 'event', node, event };
        if (value !== undefined) msg.value = value;
        return this.#batch(msg);
    }

    /** Posts a notification to every `onReceive` of the program tree. */
    post(name) {
        return this.#batch({ type: 'event', event: 'post', name });
    }

    /** Replaces the program's source (hot reload; views that still exist keep their cells). */
    setSource(source) {
        return this.#batch({ type: 'setSource', source });
    }

    /** Unsubscribes; pending batches are forgotten (their promises reject). */
    close() {
        if (this.closed) return;
        this.closed = true;
        this.#client._forget(this);
        for (const p of this.pending.values()) p.reject(new Error('tree closed'));
        this.pending.clear();
    }

    /** The batch's seq; it stays pending (and is resent after a reconnect) until its diff or rejection. */
    #batch(fields) {
        const seq = this.#client.nextSeq();
        const msg = { ...fields, tree: this.id, seq };
        const promise = new Promise((resolve, reject) => this.pending.set(seq, { msg, resolve, reject }));
        promise.seq = seq;
        promise.catch(() => {}); // a caller that does not wait must not see an unhandled rejection
        this.#client.connection.send(msg);
        return promise;
    }

    /** Called after every (re)connection: subscribe from the version held, then resend what was not acknowledged. */
    _opened() {
        this._subscribe(this.replica ? this.replica.version : null);
        for (const { msg } of this.pending.values()) this.#client.connection.send(msg);
    }

    _subscribe(since) {
        const msg = { type: 'subscribe', tree: this.id };
        if (this.trace) msg.trace = true;
        if (since !== null && since !== undefined) msg.since = since;
        this.#client.connection.send(msg);
    }

    _receive(msg) {
        switch (msg.type) {
            case 'snapshot':
                this.replica = new Replica(msg);
                this.#emit('snapshot', msg);
                this.#emit('change', { replica: this.replica, snapshot: msg });
                break;
            case 'diff':
                this.#acknowledge(msg);
                this.#applyDiff(msg);
                break;
            case 'rejected': {
                const p = this.pending.get(msg.seq);
                if (p) {
                    this.pending.delete(msg.seq);
                    p.reject(new RejectedError(msg));
                }
                this.#emit('rejected', msg);
                break;
            }
            case 'clients':
                this.#emit('clients', msg);
                break;
            case 'deleted':
                this.#emit('deleted', msg);
                break;
            default:
                break;
        }
    }

    #acknowledge(msg) {
        const p = this.pending.get(msg.seq);
        if (!p) return;
        // A resubmission's answer is the original diff marked duplicate, authored by the earlier session.
        if (msg.author === this.#client.connection.session || msg.duplicate) {
            this.pending.delete(msg.seq);
            p.resolve(msg);
        }
    }

    #applyDiff(msg) {
        const replica = this.replica;
        if (!replica || msg.duplicate || msg.version <= replica.version) return; // already applied
        if (msg.version > replica.version + 1) {
            this._subscribe(replica.version); // a gap: catch up from the log
            return;
        }
        let applied;
        try {
            applied = replica.apply(msg);
        } catch (error) {
            console.warn('canopy: a diff did not apply, resubscribing', error);
            this._subscribe(null);
            return;
        }
        this.#emit('diff', { diff: msg, applied });
        this.#emit('change', { replica, diff: msg, applied });
    }
}

/**
 * A connection to canopyd and the trees it follows. `url` defaults to the page's own daemon. Options: `client` (a
 * name unique to this instance: it identifies resubmitted batches), `token`, `onStatus(state, detail)`,
 * `onUnauthorized(message)`, `onMessage(msg)` for messages no tree took.
 */
export class CanopyClient {
    #trees = new Map();
    #seq = 0;

    constructor(url = pageSocketURL(), { client, token, onStatus, onUnauthorized, onMessage, onOpen } = {}) {
        this.name = client ?? `web-${Math.random().toString(36).slice(2, 10)}`;
        this.onMessage = onMessage ?? (() => {});
        this.connection = new Connection(url, {
            client: this.name,
            token,
            onStatus,
            onUnauthorized,
            onMessage: (msg) => this.#receive(msg),
            onOpen: () => {
                for (const handle of this.#trees.values()) handle._opened();
                onOpen?.();
            },
        });
    }

    start() {
        this.connection.start();
        return this;
    }

    stop() {
        this.connection.stop();
    }

    get session() {
        return this.connection.session;
    }

    get isOpen() {
        return this.connection.isOpen;
    }

    nextSeq() {
        this.#seq += 1;
        return this.#seq;
    }

    /** Sends a request (listTrees, createTree, probe, inspect, history, …) and resolves with its reply. */
    request(msg) {
        return this.connection.request(msg);
    }

    /** Follows tree `id`: subscribes now if connected, and again after every reconnect. */
    tree(id, options = {}) {
        const existing = this.#trees.get(id);
        if (existing) return existing;
        const handle = new TreeHandle(this, id, options);
        this.#trees.set(id, handle);
        if (this.connection.isOpen) handle._subscribe(null);
        return handle;
    }

    _forget(handle) {
        if (this.#trees.get(handle.id) !== handle) return;
        this.#trees.delete(handle.id);
        if (this.connection.isOpen) this.connection.send({ type: 'unsubscribe', tree: handle.id });
    }

    #receive(msg) {
        const handle = typeof msg.tree === 'string' ? this.#trees.get(msg.tree) : undefined;
        if (handle && ['snapshot', 'diff', 'rejected', 'clients', 'deleted'].includes(msg.type)) {
            handle._receive(msg);
            if (msg.type === 'deleted') this.#trees.delete(msg.tree);
        }
        this.onMessage(msg);
    }
}
