// The inspector: connects to the daemon that served the page, keeps a replica of the selected tree in step with
// its diffs, and renders the tree, laziness, reduce order, readers, timeline and clients. State lives in `state`;
// every change goes through a function here, then `render()` redraws what depends on it.

import { Connection } from './connection.mjs';
import { Replica } from './replica.mjs';
import { classify, countCategories, CATEGORIES } from './laziness.mjs';
import { reduceForest } from './reduceorder.mjs';
import { TreeView } from './treeview.mjs';
import { h, fill } from './dom.mjs';
import * as panels from './panels.mjs';
import { readHash, writeHash } from './hash.mjs';
import { errorDetails } from './swiftsource.mjs';

const HISTORY_ON_OPEN = 500;
const $ = (id) => document.getElementById(id);

const state = {
    conn: null,
    trees: [],
    examples: [],
    treeId: null,
    replica: null,
    key: '',
    selected: null,
    version: null, // the selected version; null follows the latest
    tab: 'node',
    traces: new Map(), // version → { trace, full, keys: the keys its events name }
    diffs: new Map(), // version → diff
    readerHistory: new Map(), // reader → [{ version, present, value }]
    clients: [], // the first 100 subscribers (the daemon lists no more)
    clientCount: 0, // all of them
    collapsed: new Set(),
    filter: '',
    step: 0,
    seq: 0,
    pending: new Map(), // seq → edit message, until its diff or rejection arrives
};

/** How long the page took to apply and draw the last diff (reported by the browser test). */
const timings = { lastDiffMs: 0, lastDiffDrawnAt: 0 };
const client = `inspector-${Math.random().toString(36).slice(2, 10)}`;
let tree;

function start() {
    const hash = readHash();
    state.treeId = hash.tree || null;
    state.key = hash.key || '';
    state.selected = hash.node || null;
    state.version = hash.version ?? null;
    state.tab = hash.tab || 'node';

    tree = new TreeView($('tree'), {
        onSelect: (id) => select(id),
        onToggle: (id) => toggle(id),
        onDrop: (dragged, target, zone) => dropMove(dragged, target, zone),
    });
    wireControls();

    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    state.conn = new Connection(`${scheme}//${location.host}/ws`, {
        client,
        token: sessionStorage.getItem('canopy.token') || '',
        onStatus: showStatus,
        onMessage: receive,
        onOpen: opened,
        onUnauthorized: (message) => askToken(message),
    });
    state.conn.start();
    loadExamples();
    setInterval(() => state.conn.isOpen && refreshTrees(), 3000);
    render();
    // For tests and the curious: read-only access to the live state.
    window.canopyInspector = { state, classify, reduceForest, client, timings };
}

// MARK: Connection

function showStatus(kind, detail) {
    const el = $('status');
    el.dataset.state = kind;
    el.textContent = detail ? `${kind} — ${detail}` : kind;
}

function askToken(message) {
    $('token-reason').textContent = message;
    $('token-dialog').hidden = false;
    $('token-input').focus();
}

function opened() {
    $('token-dialog').hidden = true;
    refreshTrees();
    if (state.treeId) subscribe(state.replica ? state.replica.version : null);
    // Edits sent but not acknowledged: the daemon answers a resubmission of the same (client, seq) at most once.
    for (const msg of state.pending.values()) state.conn.send(msg);
}

function subscribe(since) {
    const msg = { type: 'subscribe', tree: state.treeId, trace: true };
    if (since !== null && since !== undefined) msg.since = since;
    state.conn.send(msg);
}

async function refreshTrees() {
    try {
        const reply = await state.conn.request({ type: 'listTrees' });
        state.trees = reply.trees;
        renderTreeList();
    } catch (error) {
        if (state.conn.isOpen) toast(`listing trees failed: ${error.message}`, 'error');
    }
}

async function loadExamples() {
    try {
        const response = await fetch('examples/index.json');
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        state.examples = await response.json();
    } catch (error) {
        state.examples = [];
        console.info('canopy: no bundled examples', error.message);
    }
    const select = $('example-select');
    fill(
        select,
        state.examples.length
            ? state.examples.map((e) => h('option', { value: e.file, title: e.title || '' }, e.tree))
            : h('option', { value: '' }, '(no examples served)'),
    );
}

function receive(msg) {
    switch (msg.type) {
        case 'snapshot':
            if (msg.tree === state.treeId) gotSnapshot(msg);
            break;
        case 'diff':
            if (msg.tree === state.treeId) {
                const started = performance.now();
                gotDiff(msg);
                timings.lastDiffMs = performance.now() - started;
                timings.lastDiffDrawnAt = Date.now();
            }
            else acknowledge(msg);
            break;
        case 'clients':
            if (msg.tree === state.treeId) {
                state.clients = msg.clients;
                state.clientCount = msg.clientCount ?? msg.clients.length;
                render();
            }
            break;
        case 'deleted':
            if (msg.tree === state.treeId) {
                toast(`tree "${msg.tree}" was deleted`, 'info');
                state.treeId = null; // the subscription ended with the tree: nothing to unsubscribe from
                selectTree(null);
            }
            refreshTrees();
            break;
        case 'rejected': {
            const pending = state.pending.get(msg.seq);
            state.pending.delete(msg.seq);
            toast(`edit rejected — ${msg.code}: ${msg.message}`, 'error', errorDetails(msg));
            if (pending) render();
            break;
        }
        case 'error':
            if (msg.code !== 'unauthorized') toast(`${msg.code}: ${msg.message}`, 'error', errorDetails(msg));
            break;
        default:
            break;
    }
}

function gotSnapshot(msg) {
    const first = !state.replica || state.replica.tree !== msg.tree;
    state.replica = new Replica(msg);
    state.clients = msg.clients || [];
    state.clientCount = msg.clientCount ?? state.clients.length;
    if (msg.trace) state.traces.set(msg.version, traceEntry(msg.trace, true));
    for (const r of state.replica.readers()) {
        if (r.present) noteReader(r.reader, msg.version, true, r.value);
    }
    if (first) {
        state.collapsed = new Set(JSON.parse(localStorage.getItem(`canopy.collapsed.${msg.tree}`) || '[]'));
        fetchHistory(Math.max(1, msg.version - HISTORY_ON_OPEN + 1), msg.version);
    }
    if (state.selected && !state.replica.node(state.selected)) state.selected = null;
    renderKeySelect();
    tree.update(viewModel());
    if (state.selected) tree.reveal(state.selected);
    render();
}

function gotDiff(msg) {
    acknowledge(msg);
    const replica = state.replica;
    if (!replica || msg.version <= replica.version) return; // an acknowledgement we already applied
    if (msg.version > replica.version + 1) {
        subscribe(replica.version); // a gap: catch up from the log
        return;
    }
    const before = new Map(msg.changes.map((c) => [c.reader, replica.readerValues.get(c.reader)]));
    let applied;
    try {
        applied = replica.apply(msg);
    } catch (error) {
        console.warn('canopy: diff did not apply, resubscribing', error);
        subscribe(null);
        return;
    }
    msg.before = before;
    state.diffs.set(msg.version, msg);
    if (msg.trace) state.traces.set(msg.version, traceEntry(msg.trace, false));
    for (const c of msg.changes) noteReader(c.reader, msg.version, c.present, c.value);
    if (msg.ops.some((op) => op.op === 'declareKey')) renderKeySelect();
    // Only structural ops change which rows exist; the others just redraw the rows in view.
    tree.update(viewModel(), { structure: applied.structural });
    tree.flash(applied.touched);
    render();
}

/** A stored trace, with the keys its events name (to find a key's last evaluation without rescanning events). */
function traceEntry(trace, full) {
    return { trace, full, keys: new Set(trace.events.map((e) => e.key)) };
}

function acknowledge(msg) {
    if (state.conn.session && msg.author === state.conn.session && state.pending.has(msg.seq)) {
        state.pending.delete(msg.seq);
    }
}

function noteReader(reader, version, present, value) {
    let list = state.readerHistory.get(reader);
    if (!list) state.readerHistory.set(reader, (list = []));
    if (list.length && list[list.length - 1].version >= version) {
        // Already known (history and the live stream overlap), or older than what we hold: keep versions sorted.
        if (list.some((e) => e.version === version)) return;
        list.push({ version, present, value });
        list.sort((a, b) => a.version - b.version);
        return;
    }
    list.push({ version, present, value });
}

async function fetchHistory(from, to) {
    if (to < from) return;
    const treeId = state.treeId;
    try {
        // A reply holds what fits the daemon's byte budget; `next` says where the following page starts.
        for (let page = from; page !== undefined && page <= to;) {
            const reply = await state.conn.request({ type: 'history', tree: treeId, from: page, to });
            if (treeId !== state.treeId) return;
            for (const d of reply.diffs) {
                if (!state.diffs.has(d.version)) state.diffs.set(d.version, d);
                for (const c of d.changes) noteReader(c.reader, d.version, c.present, c.value);
            }
            page = reply.next;
        }
        render();
    } catch (error) {
        toast(`history unavailable: ${error.message}`, 'info');
    }
}

// MARK: Actions

function selectTree(id) {
    if (state.treeId && state.treeId !== id && state.conn.isOpen) {
        state.conn.send({ type: 'unsubscribe', tree: state.treeId });
    }
    Object.assign(state, {
        treeId: id,
        replica: null,
        selected: null,
        version: null,
        step: 0,
        clients: [],
    });
    state.traces = new Map();
    state.diffs = new Map();
    state.readerHistory = new Map();
    state.collapsed = new Set();
    if (id && state.conn.isOpen) subscribe(null);
    tree.update(viewModel());
    renderKeySelect();
    render();
}

function select(id) {
    state.selected = id;
    tree.update(viewModel(), { structure: false });
    render();
}

function toggle(id) {
    if (state.collapsed.has(id)) state.collapsed.delete(id);
    else state.collapsed.add(id);
    saveCollapsed();
    tree.update(viewModel());
}

function saveCollapsed() {
    if (state.treeId) localStorage.setItem(`canopy.collapsed.${state.treeId}`, JSON.stringify([...state.collapsed]));
}

/** Expands every ancestor of `id` so that its row exists. */
function expandTo(id) {
    let changed = false;
    for (let at = state.replica.above(id); at != null; at = state.replica.above(at)) {
        if (state.collapsed.delete(at)) changed = true;
    }
    if (changed) saveCollapsed();
    return changed;
}

function selectVersion(version) {
    state.version = version;
    state.step = 0;
    tree.update(viewModel(), { structure: false });
    render();
}

function setStep(step) {
    const calls = currentCalls();
    if (!calls.calls.length) return;
    state.step = Math.max(0, Math.min(calls.calls.length - 1, step));
    const node = calls.calls[state.step].event.node;
    if (state.replica.node(node) && expandTo(node)) tree.update(viewModel());
    else tree.update(viewModel(), { structure: false });
    tree.reveal(node);
    render();
}

/** Sends one edit batch; it stays pending (and is resent after a reconnect) until its diff or rejection. */
function edit(ops) {
    if (!state.treeId) return;
    state.seq += 1;
    const msg = { type: 'edit', tree: state.treeId, seq: state.seq, ops };
    state.pending.set(state.seq, msg);
    if (!state.conn.send(msg)) toast('offline: the edit will be sent when the connection is back', 'info');
}

function dropMove(dragged, target, zone) {
    const replica = state.replica;
    const targetNode = replica.node(target);
    if (!replica.node(dragged) || !targetNode) return;
    if (zone === 'into') edit([{ op: 'move', node: dragged, parent: target }]);
    else if (targetNode.parent === null) toast('drop into the root, not beside it', 'info');
    else edit([{ op: 'move', node: dragged, parent: targetNode.parent, [zone]: target }]);
}

async function createTree(body) {
    try {
        await state.conn.request({ type: 'createTree', ...body });
        toast(`created "${body.tree}"`, 'info');
        await refreshTrees();
        selectTree(body.tree);
    } catch (error) {
        toast(`create failed — ${error.reply?.code || ''}: ${error.message}`, 'error', errorDetails(error.reply));
    }
}

async function deleteTree(id) {
    if (!confirm(`Delete tree "${id}" for everyone?`)) return;
    try {
        await state.conn.request({ type: 'deleteTree', tree: id });
        if (state.treeId === id) selectTree(null);
        refreshTrees();
    } catch (error) {
        toast(`delete failed — ${error.reply?.code || ''}: ${error.message}`, 'error');
    }
}

async function importExample(file) {
    try {
        const response = await fetch(`examples/${encodeURIComponent(file)}`);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const example = await response.json();
        const body = { tree: example.tree, keys: example.keys || [], root: example.root };
        if (example.title) body.title = example.title;
        if (example.description) body.description = example.description;
        await createTree(body);
    } catch (error) {
        toast(`import failed: ${error.message}`, 'error');
    }
}

// MARK: Derived data

function viewModel() {
    return {
        replica: state.replica,
        collapsed: state.collapsed,
        filter: state.filter,
        selected: state.selected,
        classes: state.key && state.replica ? laziness().classes : null,
        highlight: state.tab === 'order' ? currentCallNode() : null,
    };
}

/**
 * The version whose evaluation is shown: the selected one; else the newest whose trace did something for the
 * picked key (the last evaluation of that key); else the newest with a trace.
 */
function traceVersion() {
    if (state.version !== null) return state.version;
    let best = null;
    let bestForKey = null;
    for (const [v, { keys }] of state.traces) {
        if (best === null || v > best) best = v;
        if (state.key && (bestForKey === null || v > bestForKey) && keys.has(state.key)) {
            bestForKey = v;
        }
    }
    return bestForKey ?? best;
}

// The laziness of the shown evaluation, computed once per (replica, its version, key, trace): the tree view and
// the legend both ask for it on every redraw.
let lazinessShown = { replica: null, replicaVersion: null, key: null, trace: null, version: null, classes: null, counts: null };

function laziness() {
    const version = traceVersion();
    const trace = version === null ? null : state.traces.get(version)?.trace || null;
    const c = lazinessShown;
    if (c.replica === state.replica && c.replicaVersion === state.replica.version && c.key === state.key && c.trace === trace) {
        c.version = version; // versions without a trace share one classification (trace null)
        return c;
    }
    const classes = classify(state.replica, state.key, trace);
    lazinessShown = {
        replica: state.replica,
        replicaVersion: state.replica.version,
        key: state.key,
        trace,
        version,
        classes,
        counts: countCategories(classes),
    };
    return lazinessShown;
}

// The forest of the shown evaluation, built once per (trace, key): the tree view and the panel both ask for it on
// every redraw, and a full evaluation's trace can hold tens of thousands of events.
let callsShown = { trace: null, key: null, calls: { roots: [], calls: [] } };

function currentCalls() {
    const version = traceVersion();
    const trace = version === null ? null : state.traces.get(version)?.trace ?? null;
    const key = state.key || null;
    if (callsShown.trace !== trace || callsShown.key !== key) {
        callsShown = { trace, key, calls: trace ? reduceForest(trace.events, key) : { roots: [], calls: [] } };
    }
    return callsShown.calls;
}

function currentCall() {
    const calls = currentCalls().calls;
    return calls.length ? calls[Math.min(state.step, calls.length - 1)] : null;
}

function currentCallNode() {
    return currentCall()?.event.node ?? null;
}

// MARK: Rendering

function render() {
    writeHash({
        tree: state.treeId,
        key: state.key,
        node: state.selected,
        version: state.version,
        tab: state.tab === 'node' ? null : state.tab,
    });
    const replica = state.replica;
    $('tree-title').textContent = replica ? `${replica.tree} · v${replica.version} · ${replica.size} nodes` : '';
    $('tree-description').textContent = replica ? replica.title || '' : '';
    $('tree-description').title = replica ? replica.description || '' : '';
    $('tree-empty').hidden = !!state.treeId;
    $('tree').hidden = !state.treeId;
    renderTreeList();
    renderLegend();
    for (const b of document.querySelectorAll('.tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === state.tab));
    for (const t of document.querySelectorAll('.tab')) t.hidden = t.dataset.tab !== state.tab;
    const context = panelContext();
    // Never redraw a form under the user's fingers: other clients' diffs would wipe what they are typing.
    const active = document.activeElement;
    if (active?.closest('.tab') && active.matches('input:not([type=range]), textarea, select')) return;
    switch (state.tab) {
        case 'node':
            panels.renderNode($('tab-node'), context);
            break;
        case 'order':
            panels.renderOrder($('tab-order'), context);
            break;
        case 'readers':
            panels.renderReaders($('tab-readers'), context);
            break;
        case 'timeline': {
            const signature = JSON.stringify([state.treeId, state.diffs.size, state.replica?.version, state.version,
                state.clients]);
            if (signature !== timelineShown) panels.renderTimeline($('tab-timeline'), context);
            timelineShown = signature;
            break;
        }
        case 'clients':
            panels.renderClients($('tab-clients'), context);
            break;
        case 'keys':
            panels.renderKeys($('tab-keys'), context);
            break;
    }
}

function panelContext() {
    return {
        state,
        session: state.conn?.session,
        calls: state.tab === 'order' ? currentCalls() : null,
        currentCall: state.tab === 'order' || state.tab === 'keys' ? currentCall() : null,
        traceVersion: traceVersion(),
        edit,
        select,
        selectVersion,
        setStep,
        toast,
        rerender: render,
    };
}

// Lists and tables are redrawn only when what they show changed: a redraw between mousedown and mouseup would
// swallow the click, and diffs and presence updates can arrive many times a second.
let treeListShown = '';
let timelineShown = '';

function renderTreeList() {
    const signature = JSON.stringify([state.trees, state.treeId]);
    if (signature === treeListShown) return;
    treeListShown = signature;
    fill(
        $('tree-list'),
        state.trees.map((t) =>
            h(
                'li',
                { class: t.tree === state.treeId ? 'current' : '', dataset: { tree: t.tree } },
                h(
                    'button',
                    { type: 'button', class: 'link', title: t.title || t.tree, onclick: () => selectTree(t.tree) },
                    t.tree,
                ),
                h('span', { class: 'meta' }, `v${t.version} · ${t.nodes} nodes · ${t.subscribers} watching`),
                h('button', { type: 'button', class: 'icon danger', title: `delete ${t.tree}`, onclick: () => deleteTree(t.tree) }, '✕'),
            ),
        ),
    );
}

function renderKeySelect() {
    const keys = state.replica ? [...state.replica.keys.keys()] : [];
    if (state.key && state.replica && !keys.includes(state.key)) state.key = '';
    fill(
        $('key-select'),
        h('option', { value: '' }, '(none)'),
        keys.map((k) => h('option', { value: k, selected: k === state.key }, k)),
    );
    $('key-select').value = state.key;
}

function renderLegend() {
    const legend = $('legend');
    if (!state.key || !state.replica) {
        legend.hidden = true;
        return;
    }
    legend.hidden = false;
    const { counts, version } = laziness();
    const full = version !== null && state.traces.get(version)?.full;
    fill(
        legend,
        h('span', { class: 'legend-title' }, version === null ? 'no trace yet' : `${state.key} at v${version}${full ? ' (full evaluation)' : ''}:`),
        CATEGORIES.map(([name, label, meaning]) =>
            h('span', { class: `legend-item lz-${name}`, title: meaning, dataset: { category: name } }, `${label} ${counts[name]}`),
        ),
    );
}

/** A notice; `details` (a Swift error's diagnostics, say) are listed under the text, one per line. */
function toast(text, kind = 'info', details = []) {
    const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text,
        details.length ? h('ul', { class: 'diagnostics' }, details.map((d) => h('li', {}, d))) : null);
    $('toasts').append(el);
    setTimeout(() => el.remove(), kind === 'error' ? 8000 : 4000);
}

// MARK: Controls

function wireControls() {
    $('token-dialog').addEventListener('submit', (event) => {
        event.preventDefault();
        const token = $('token-input').value.trim();
        sessionStorage.setItem('canopy.token', token);
        state.conn.restart(token);
    });
    $('create-form').addEventListener('submit', (event) => {
        event.preventDefault();
        createTree({ tree: $('create-id').value.trim() });
        $('create-id').value = '';
    });
    $('import-form').addEventListener('submit', (event) => {
        event.preventDefault();
        if ($('example-select').value) importExample($('example-select').value);
    });
    let filterTimer;
    $('filter').addEventListener('input', () => {
        clearTimeout(filterTimer);
        filterTimer = setTimeout(() => {
            state.filter = $('filter').value.trim();
            tree.update(viewModel());
        }, 120);
    });
    $('expand-all').addEventListener('click', () => {
        state.collapsed.clear();
        saveCollapsed();
        tree.update(viewModel());
    });
    $('collapse-all').addEventListener('click', () => {
        if (!state.replica) return;
        state.collapsed = new Set();
        state.replica.walk((node) => {
            if (state.replica.under(node).length) state.collapsed.add(node.id);
        });
        state.collapsed.delete(state.replica.rootId);
        saveCollapsed();
        tree.update(viewModel());
    });
    $('key-select').addEventListener('change', () => {
        state.key = $('key-select').value;
        state.step = 0;
        tree.update(viewModel(), { structure: false });
        render();
    });
    for (const b of document.querySelectorAll('.tabs button')) {
        b.addEventListener('click', () => {
            state.tab = b.dataset.tab;
            timelineShown = '';
            tree.update(viewModel(), { structure: false });
            render();
        });
    }
    document.addEventListener('keydown', (event) => {
        if (state.tab !== 'order' || event.target.closest('input, textarea, select')) return;
        if (event.key === 'ArrowRight' || event.key === 'ArrowDown') setStep(state.step + 1);
        else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') setStep(state.step - 1);
        else if (event.key === 'Home') setStep(0);
        else if (event.key === 'End') setStep(Number.MAX_SAFE_INTEGER);
        else return;
        event.preventDefault();
    });
    // A hash typed or pasted into the address bar (the page's own updates use replaceState, which fires nothing).
    window.addEventListener('hashchange', () => {
        const hash = readHash();
        if ((hash.tree || null) !== state.treeId) selectTree(hash.tree || null);
        state.key = hash.key || '';
        state.selected = hash.node || state.selected;
        state.version = hash.version ?? null;
        state.tab = hash.tab || 'node';
        renderKeySelect();
        tree.update(viewModel());
        render();
    });
}

start();
