// The inspector: connects to the daemon that served the page through the client library (canopy-client.mjs), which
// keeps a replica of the selected tree in step with its diffs, and renders the tree, the live view of a program,
// laziness, reduce order, readers, timeline, clients, keys, state, source and why each step ran. State lives in
// `state`; every change goes through a function here, then `render()` redraws what depends on it.

import { CanopyClient } from './canopy-client.mjs';
import { Preview } from './preview.mjs';
import { transactionSteps } from './transaction.mjs';
import * as programPanels from './programpanels.mjs';
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
    client: null,
    conn: null, // the client's connection
    handle: null, // the selected tree's TreeHandle
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
    pendingNodes: new Map(), // node → events this page sent for it that are not acknowledged yet
    inspected: null, // the `inspected` reply for the selected node
    inspectError: '',
    inspecting: '', // node@version asked for
    sourceDraft: null, // the source being edited, or null
    sourceDiagnostics: [],
    sourceDiagnosed: null, // the text the diagnostics are about
    sourceStatus: '',
    sourceLine: null, // { start, end } highlighted in the Source tab
    whyStep: 0,
    whyShown: null, // the version the Why tab showed last
};

/**
 * How long the page took to apply and draw the last diff, and when each version was drawn and each event sent, on
 * the clock of `now()` (reported by the browser test).
 */
const timings = { lastDiffMs: 0, lastDiffDrawnAt: 0, drawnAt: new Map(), sentAt: new Map(), ackedVersion: new Map() };
const now = () => performance.timeOrigin + performance.now();
/** Keeps the last 1,000 entries of a timing map. */
function remember(map, key, value) {
    map.set(key, value);
    if (map.size > 1000) map.delete(map.keys().next().value);
}
const client = `inspector-${Math.random().toString(36).slice(2, 10)}`;
let tree;
let preview;

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
    preview = new Preview($('preview'), {
        send: (node, event, value) => sendEvent(node, event, value),
        pending: (node) => (state.pendingNodes.get(node) ?? 0) > 0,
        onSelect: (id) => select(id),
    });
    wireControls();

    state.client = new CanopyClient(undefined, {
        client,
        token: sessionStorage.getItem('canopy.token') || '',
        onStatus: showStatus,
        onMessage: receive,
        onOpen: opened,
        onUnauthorized: (message) => askToken(message),
    });
    state.conn = state.client.connection;
    if (state.treeId) follow(state.treeId);
    state.client.start();
    loadExamples();
    setInterval(() => state.conn.isOpen && refreshTrees(), 3000);
    render();
    // For tests and the curious: read-only access to the live state.
    window.canopyInspector = { state, classify, reduceForest, client, timings, preview };
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

// The selected tree's handle subscribes again by itself after a reconnect (from the version it holds) and resends
// the batches that were never acknowledged: the daemon answers a resubmission of the same (client, seq) at most once.
function opened() {
    $('token-dialog').hidden = true;
    refreshTrees();
}

/** Follows tree `id` through a TreeHandle (with traces), wired to this page. */
function follow(id) {
    const handle = state.client.tree(id, { trace: true });
    state.handle = handle;
    handle.on('snapshot', (msg) => handle === state.handle && gotSnapshot(msg));
    handle.on('diff', ({ diff, applied }) => {
        if (handle !== state.handle) return;
        const started = performance.now();
        gotDiff(diff, applied);
        timings.lastDiffMs = performance.now() - started;
        timings.lastDiffDrawnAt = Date.now();
        remember(timings.drawnAt, diff.version, now());
    });
    handle.on('clients', (msg) => {
        if (handle !== state.handle) return;
        state.clients = msg.clients;
        state.clientCount = msg.clientCount ?? msg.clients.length;
        noteTreeStats();
        render();
    });
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
            ? state.examples.map((e) => h('option', { value: e.file, title: e.title || '' }, e.program ? `${e.tree} (Swift)` : e.tree))
            : h('option', { value: '' }, '(no examples served)'),
    );
}

/** Messages for the page as a whole (the selected tree's handle has already seen those about its tree). */
function receive(msg) {
    switch (msg.type) {
        case 'deleted':
            if (msg.tree === state.treeId) {
                toast(`tree "${msg.tree}" was deleted`, 'info');
                state.handle = null; // the subscription ended with the tree: nothing to unsubscribe from
                selectTree(null);
            }
            refreshTrees();
            break;
        case 'rejected': {
            const what = msg.code === 'compile_error' ? 'source rejected' : 'rejected';
            toast(`${what} — ${msg.code}: ${msg.message}`, 'error', errorDetails(msg));
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
    state.replica = state.handle.replica;
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
    noteTreeStats();
    renderKeySelect();
    tree.update(viewModel());
    if (state.selected) tree.reveal(state.selected);
    preview.draw(state.replica);
    render();
}

/** A diff the handle has applied to the replica. */
function gotDiff(msg, applied) {
    const replica = state.replica;
    msg.before = applied.before;
    state.diffs.set(msg.version, msg);
    if (msg.trace) state.traces.set(msg.version, traceEntry(msg.trace, false));
    for (const c of msg.changes) noteReader(c.reader, msg.version, c.present, c.value);
    if (msg.ops.some((op) => op.op === 'declareKey')) renderKeySelect();
    // Only structural ops change which rows exist; the others just redraw the rows in view.
    tree.update(viewModel(), { structure: applied.structural });
    tree.flash(applied.touched);
    if (replica.isProgram) preview.draw(replica);
    noteTreeStats();
    render();
}

/** The tree list's entry for the selected tree follows what the page holds (the list is polled every 3 s). */
function noteTreeStats() {
    const entry = state.trees.find((t) => t.tree === state.replica?.tree);
    if (!entry) return;
    entry.version = state.replica.version;
    entry.nodes = state.replica.size;
    entry.subscribers = state.clientCount;
}

/** A stored trace, with the keys its events name (to find a key's last evaluation without rescanning events). */
function traceEntry(trace, full) {
    return { trace, full, keys: new Set(trace.events.map((e) => e.key)) };
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
    if (state.handle && state.handle.id !== id) state.handle.close();
    Object.assign(state, {
        treeId: id,
        handle: null,
        replica: null,
        selected: null,
        version: null,
        step: 0,
        clients: [],
        inspected: null,
        inspecting: '',
        sourceDraft: null,
        sourceDiagnostics: [],
        sourceLine: null,
        whyStep: 0,
    });
    state.traces = new Map();
    state.diffs = new Map();
    state.readerHistory = new Map();
    state.collapsed = new Set();
    state.pendingNodes = new Map();
    if (id) follow(id);
    tree.update(viewModel());
    preview.draw(null);
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
    if (!state.handle) return;
    state.handle.edit(ops);
    if (!state.conn.isOpen) toast('offline: the edit will be sent when the connection is back', 'info');
}

/** Sends an event of the live view; the node's field keeps what is typed until the event is acknowledged. */
function sendEvent(node, event, value) {
    if (!state.handle) return;
    const sent = state.handle.event(node, event, value);
    remember(timings.sentAt, sent.seq, now());
    state.pendingNodes.set(node, (state.pendingNodes.get(node) ?? 0) + 1);
    const settle = () => {
        const left = (state.pendingNodes.get(node) ?? 1) - 1;
        if (left > 0) state.pendingNodes.set(node, left);
        else state.pendingNodes.delete(node);
    };
    sent.then((diff) => {
        remember(timings.ackedVersion, sent.seq, diff.version);
        settle();
        // The last keystroke's own diff may have been drawn while it was still pending: draw the field again.
        if (!state.pendingNodes.has(node) && state.replica) preview.draw(state.replica);
    }, settle);
    if (!state.conn.isOpen) toast('offline: the event will be sent when the connection is back', 'info');
}

/** Edits the source in the Source tab (null: stop editing). */
function editSource(text, { quiet = false } = {}) {
    state.sourceDraft = text;
    if (text === null) {
        state.sourceDiagnostics = [];
        state.sourceStatus = '';
    }
    if (!quiet) render();
}

/** Sends `text` as the program's new source; a compile error keeps the draft and shows its diagnostics. */
async function applySource(text) {
    if (!state.handle) return;
    state.sourceDraft = text;
    state.sourceStatus = 'applying…';
    render();
    try {
        const diff = await state.handle.setSource(text);
        state.sourceDraft = null;
        state.sourceDiagnostics = [];
        state.sourceStatus = '';
        toast(`source applied as v${diff.version}`, 'info');
    } catch (error) {
        state.sourceStatus = `not applied: ${error.code ?? ''} ${error.message}`;
        state.sourceDiagnostics = error.reply?.diagnostics ?? [];
        state.sourceDiagnosed = text;
    }
    render();
}

/** Shows `lines` ({ start, end }) in the Source tab. */
function showLine(lines) {
    state.sourceLine = lines;
    state.tab = 'source';
    render();
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
        const entry = state.examples.find((e) => e.file === file);
        if (entry?.program) {
            // A program: its header's settings come with the index entry (docs/protocol.md, "HTTP").
            const body = { tree: entry.tree, source: await response.text() };
            for (const field of ['view', 'previewModifiers', 'title', 'description']) if (entry[field]) body[field] = entry[field];
            await createTree(body);
            return;
        }
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
        highlight: state.tab === 'order' ? currentCallNode() : state.tab === 'why' ? currentWhyNode() : null,
    };
}

// MARK: Why it ran

// The steps of the shown transaction, built once per (trace, version, replica): every redraw asks for them.
let whyShown = { key: null, why: null };

/** The traced versions, and the steps of the one shown: the selected version if it has a trace, else the newest. */
function whyData() {
    if (!state.replica?.isProgram || !state.traces.size) return null;
    const versions = [...state.traces.keys()].sort((a, b) => a - b);
    const version = state.version !== null && state.traces.has(state.version) ? state.version : versions[versions.length - 1];
    const entry = state.traces.get(version);
    const cacheKey = [entry.trace, version, state.replica.epoch, versions.length];
    if (whyShown.key && whyShown.key.every((v, i) => v === cacheKey[i])) return whyShown.why;
    const diff = entry.full ? null : state.diffs.get(version) ?? null;
    const steps = transactionSteps({ diff, events: entry.trace.events, version, replica: state.replica });
    whyShown = { key: cacheKey, why: { version, steps, versions } };
    if (state.whyShown !== version) {
        state.whyShown = version;
        state.whyStep = 0;
    }
    return whyShown.why;
}

function currentWhyNode() {
    const why = whyData();
    if (!why) return null;
    return why.steps[Math.min(state.whyStep, why.steps.length - 1)]?.node ?? null;
}

function setWhyStep(step) {
    const why = whyData();
    if (!why) return;
    state.whyStep = Math.max(0, Math.min(why.steps.length - 1, step));
    const node = why.steps[state.whyStep].node;
    if (node && state.replica.node(node)) {
        if (expandTo(node)) tree.update(viewModel());
        else tree.update(viewModel(), { structure: false });
        tree.reveal(node);
    } else {
        tree.update(viewModel(), { structure: false });
    }
    render();
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
    const program = !!replica?.isProgram;
    $('preview-pane').hidden = !program;
    $('center-body').classList.toggle('with-preview', program);
    preview.highlight(state.tab === 'why' ? currentWhyNode() : null);
    for (const b of document.querySelectorAll('.tabs button.program-tab')) b.hidden = !program;
    // Source lines need room: the panel is wider while they are shown.
    document.querySelector('.layout').classList.toggle('wide-panel', program && (state.tab === 'source' || state.tab === 'why'));
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
        case 'state':
            programPanels.renderState($('tab-state'), context);
            inspectSelected();
            break;
        case 'source': {
            const signature = JSON.stringify([state.treeId, state.replica?.program?.source, state.sourceDraft === null,
                state.sourceDiagnostics, state.sourceStatus, state.sourceLine]);
            if (signature !== sourceShown) programPanels.renderSource($('tab-source'), context);
            sourceShown = signature;
            break;
        }
        case 'why':
            programPanels.renderWhy($('tab-why'), context);
            break;
    }
}

/** Asks the daemon for the selected node's bindings and environment, once per (node, version). */
function inspectSelected() {
    const replica = state.replica;
    if (!replica?.isProgram || !state.selected || !replica.node(state.selected) || !state.conn.isOpen) return;
    const asked = `${state.selected}@${replica.version}`;
    if (state.inspecting === asked) return;
    state.inspecting = asked;
    const node = state.selected;
    state.client.request({ type: 'inspect', tree: replica.tree, node }).then(
        (reply) => {
            if (state.selected !== node) return;
            state.inspected = reply;
            state.inspectError = '';
            if (state.tab === 'state') render();
        },
        (error) => {
            if (state.selected !== node) return;
            state.inspected = null;
            state.inspectError = error.reply ? `${error.reply.code}: ${error.message}` : error.message;
            if (state.tab === 'state') render();
        },
    );
}

function panelContext() {
    return {
        state,
        session: state.conn?.session,
        calls: state.tab === 'order' ? currentCalls() : null,
        currentCall: state.tab === 'order' || state.tab === 'keys' ? currentCall() : null,
        traceVersion: traceVersion(),
        why: state.tab === 'why' ? whyData() : null,
        sourceLine: state.sourceLine,
        edit,
        editSource,
        applySource,
        showLine,
        setWhyStep,
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
let sourceShown = '';

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
                h('span', { class: 'meta' }, `${t.program ? 'Swift · ' : ''}v${t.version} · ${t.nodes} nodes · ${t.subscribers} watching`),
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
            sourceShown = '';
            tree.update(viewModel(), { structure: false });
            render();
        });
    }
    document.addEventListener('keydown', (event) => {
        if ((state.tab !== 'order' && state.tab !== 'why') || event.target.closest('input, textarea, select')) return;
        const [at, to] = state.tab === 'order' ? [state.step, setStep] : [state.whyStep, setWhyStep];
        if (event.key === 'ArrowRight' || event.key === 'ArrowDown') to(at + 1);
        else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') to(at - 1);
        else if (event.key === 'Home') to(0);
        else if (event.key === 'End') to(Number.MAX_SAFE_INTEGER);
        else return;
        event.preventDefault();
    });
    $('source-form').addEventListener('submit', (event) => {
        event.preventDefault();
        const body = { tree: $('source-tree-id').value.trim(), source: $('new-source').value };
        const view = $('source-view').value.trim();
        if (view) body.view = view;
        createTree(body);
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
