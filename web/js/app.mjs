// The inspector: connects to the daemon that served the page through the client library (canopy-client.mjs), which
// keeps a replica of the selected tree in step with its diffs, and renders the tree, the live view of a program,
// laziness, reduce order, readers, timeline, clients, keys, state, source, why each step ran and the layout. Each
// concern keeps its own state and the functions that change it — what is picked (selection.mjs), what is known of
// the past (history.mjs), a program's source, inspection and events in flight (program.mjs), the layout pane
// (layout.mjs) and the tree list (sidebar.mjs); this file wires them to the connection and the DOM, and `render()`
// redraws what depends on them after every change.

import { CanopyClient } from './canopy-client.mjs';
import { Preview } from './preview.mjs';
import * as programPanels from './programpanels.mjs';
import { classify, CATEGORIES } from './laziness.mjs';
import { reduceForest } from './reduceorder.mjs';
import { TreeView } from './treeview.mjs';
import { h, fill } from './dom.mjs';
import * as panels from './panels.mjs';
import { readHash, writeHash } from './hash.mjs';
import { errorDetails } from './swiftsource.mjs';
import { remember } from './bounded.mjs';
import { Selection } from './selection.mjs';
import { History } from './history.mjs';
import { ProgramState } from './program.mjs';
import { LayoutState } from './layout.mjs';
import { LayoutPane } from './layoutpane.mjs';
import { Sidebar } from './sidebar.mjs';

/** Versions of the log fetched when a tree is opened. */
const HISTORY_ON_OPEN = 500;
/** Entries kept in each timing map. */
const TIMINGS_KEPT = 1000;
const $ = (id) => document.getElementById(id);

const selection = new Selection();
const history = new History();
const program = new ProgramState();
const layout = new LayoutState({
    schedule: (callback) => requestAnimationFrame(callback),
    send: (node, event, value) => page.handle?.event(node, event, value) ?? Promise.resolve(),
});

/** The connection and the open tree. */
const page = {
    client: null,
    conn: null, // the client's connection
    handle: null, // the open tree's TreeHandle
    replica: null,
    clients: [], // the first 100 subscribers (the daemon lists no more)
    clientCount: 0, // all of them
};

/**
 * How long the page took to apply and draw the last diff, and when each version was drawn and each event sent, on
 * the clock of `now()` (reported by the browser test).
 */
const timings = { lastDiffMs: 0, lastDiffDrawnAt: 0, drawnAt: new Map(), sentAt: new Map(), ackedVersion: new Map() };
const now = () => performance.timeOrigin + performance.now();
const client = `inspector-${Math.random().toString(36).slice(2, 10)}`;
let tree;
let preview;
let layoutPane;
let sidebar;

function start() {
    selection.adopt(readHash());
    tree = new TreeView($('tree'), {
        onSelect: (id) => select(id),
        onToggle: (id) => toggle(id),
        onDrop: (dragged, target, zone) => dropMove(dragged, target, zone),
    });
    const live = { send: (node, event, value) => sendEvent(node, event, value), pending: (node) => program.isPending(node) };
    preview = new Preview($('preview'), { ...live, onSelect: (id) => select(id) });
    layoutPane = new LayoutPane($('tab-layout'), { ...live, layout, onSelect: (id) => selectAndReveal(id) });

    page.client = new CanopyClient(undefined, {
        client,
        token: sessionStorage.getItem('canopy.token') || '',
        onStatus: showStatus,
        onMessage: receive,
        onOpen: opened,
        onUnauthorized: (message) => askToken(message),
    });
    page.conn = page.client.connection;
    sidebar = new Sidebar({ conn: page.conn, open: (id) => selectTree(id), openId: () => selection.treeId, toast });
    wireControls();
    if (selection.treeId) follow(selection.treeId);
    page.client.start();
    sidebar.loadExamples();
    setInterval(() => page.conn.isOpen && sidebar.refresh(), 3000);
    render();
    // For tests and the curious: read-only access to the live state.
    window.canopyInspector = { state: stateView(), selection, history, program, layout, classify, reduceForest, client, timings, preview };
}

/** The page's state as one read-only object with the names it had before it was split (the browser tests read it). */
function stateView() {
    const from = (owner, names) => names.map((name) => [name, { get: () => owner()[name], enumerable: true }]);
    return Object.defineProperties({}, Object.fromEntries([
        ...from(() => page, ['client', 'conn', 'handle', 'replica', 'clients', 'clientCount']),
        ...from(() => sidebar, ['trees', 'examples']),
        ...from(() => selection, ['treeId', 'key', 'selected', 'version', 'tab', 'collapsed', 'filter', 'step', 'whyStep']),
        ...from(() => history, ['traces', 'diffs', 'readerHistory']),
        ...from(() => program, ['pendingNodes', 'inspected', 'inspectError', 'sourceDraft', 'sourceDiagnostics', 'sourceStatus', 'sourceLine']),
    ]));
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

// The open tree's handle subscribes again by itself after a reconnect (from the version it holds) and resends the
// batches that were never acknowledged: the daemon answers a resubmission of the same (client, seq) at most once.
function opened() {
    $('token-dialog').hidden = true;
    sidebar.refresh();
}

/** Follows tree `id` through a TreeHandle (with traces), wired to this page. */
function follow(id) {
    const handle = page.client.tree(id, { trace: true });
    page.handle = handle;
    handle.on('snapshot', (msg) => handle === page.handle && gotSnapshot(msg));
    handle.on('diff', ({ diff, applied }) => {
        if (handle !== page.handle) return;
        const started = performance.now();
        gotDiff(diff, applied);
        timings.lastDiffMs = performance.now() - started;
        timings.lastDiffDrawnAt = Date.now();
        remember(timings.drawnAt, diff.version, now(), TIMINGS_KEPT);
    });
    handle.on('clients', (msg) => {
        if (handle !== page.handle) return;
        page.clients = msg.clients;
        page.clientCount = msg.clientCount ?? msg.clients.length;
        sidebar.noteOpenTree(page.replica, page.clientCount);
        render();
    });
}

/** Messages for the page as a whole (the open tree's handle has already seen those about its tree). */
function receive(msg) {
    switch (msg.type) {
        case 'deleted':
            if (msg.tree === selection.treeId) {
                toast(`tree "${msg.tree}" was deleted`, 'info');
                page.handle = null; // the subscription ended with the tree: nothing to unsubscribe from
                selectTree(null);
            }
            sidebar.refresh();
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
    const first = !page.replica || page.replica.tree !== msg.tree;
    page.replica = page.handle.replica;
    page.clients = msg.clients || [];
    page.clientCount = msg.clientCount ?? page.clients.length;
    if (msg.trace) {
        history.noteTrace(msg.version, msg.trace, true);
        layout.noteTrace(msg.version, msg.trace.events);
    }
    for (const r of page.replica.readers()) {
        if (r.present) history.noteReader(r.reader, msg.version, true, r.value);
    }
    if (first) {
        selection.loadCollapsed();
        fetchHistory(Math.max(1, msg.version - HISTORY_ON_OPEN + 1), msg.version);
    }
    selection.keepSelectedIn(page.replica);
    sidebar.noteOpenTree(page.replica, page.clientCount);
    renderKeySelect();
    tree.update(viewModel());
    if (selection.selected) tree.reveal(selection.selected);
    preview.draw(page.replica);
    render();
}

/** A diff the handle has applied to the replica. */
function gotDiff(msg, applied) {
    const replica = page.replica;
    msg.before = applied.before;
    history.noteDiff(msg);
    if (msg.trace) layout.noteTrace(msg.version, msg.trace.events);
    if (msg.ops.some((op) => op.op === 'declareKey')) renderKeySelect();
    // Only structural ops change which rows exist; the others just redraw the rows in view.
    tree.update(viewModel(), { structure: applied.structural });
    tree.flash(applied.touched);
    if (replica.isProgram) preview.draw(replica);
    sidebar.noteOpenTree(replica, page.clientCount);
    render();
}

async function fetchHistory(from, to) {
    if (to < from) return;
    const treeId = selection.treeId;
    try {
        // A reply holds what fits the daemon's byte budget; `next` says where the following page starts.
        for (let at = from; at !== undefined && at <= to;) {
            const reply = await page.conn.request({ type: 'history', tree: treeId, from: at, to });
            if (treeId !== selection.treeId) return;
            for (const d of reply.diffs) history.noteLoggedDiff(d);
            at = reply.next;
        }
        render();
    } catch (error) {
        toast(`history unavailable: ${error.message}`, 'info');
    }
}

// MARK: Actions

function selectTree(id) {
    // The open tree picked again stays as it is: its handle is subscribed already and would send no new snapshot.
    if (id && page.handle?.id === id) return render();
    if (page.handle) page.handle.close();
    Object.assign(page, { handle: null, replica: null, clients: [] });
    selection.openTree(id);
    history.openTree();
    program.openTree();
    layout.openTree();
    if (id) follow(id);
    tree.update(viewModel());
    preview.draw(null);
    renderKeySelect();
    render();
}

function select(id) {
    selection.select(id);
    tree.update(viewModel(), { structure: false });
    render();
}

/** Selects node `id`, expanding its ancestors and scrolling its row into view (a click in the Layout tab). */
function selectAndReveal(id) {
    selection.select(id);
    revealNode(id);
    render();
}

/** Expands the tree down to node `id` and scrolls its row into view. */
function revealNode(id) {
    if (id && page.replica?.node(id)) {
        if (selection.expandTo(page.replica, id)) tree.update(viewModel());
        else tree.update(viewModel(), { structure: false });
        tree.reveal(id);
    } else {
        tree.update(viewModel(), { structure: false });
    }
}

function toggle(id) {
    selection.toggle(id);
    tree.update(viewModel());
}

function selectVersion(version) {
    selection.selectVersion(version);
    tree.update(viewModel(), { structure: false });
    render();
}

function setStep(step) {
    const { calls } = currentCalls();
    if (selection.setStep(step, calls.length) === null) return;
    revealNode(calls[selection.step].event.node);
    render();
}

function setWhyStep(step) {
    const why = whyData();
    if (!why || selection.setWhyStep(step, why.steps.length) === null) return;
    const shown = why.steps[selection.whyStep];
    revealNode(shown.host ?? shown.node);
    render();
}

/** Sends one edit batch; it stays pending (and is resent after a reconnect) until its diff or rejection. */
function edit(ops) {
    if (!page.handle) return;
    page.handle.edit(ops);
    if (!page.conn.isOpen) toast('offline: the edit will be sent when the connection is back', 'info');
}

/** Sends an event of the live view; the node's field keeps what is typed until the event is acknowledged. */
function sendEvent(node, event, value) {
    if (!page.handle) return;
    const sent = page.handle.event(node, event, value);
    remember(timings.sentAt, sent.seq, now(), TIMINGS_KEPT);
    program.eventSent(node);
    sent.then((diff) => {
        remember(timings.ackedVersion, sent.seq, diff.version, TIMINGS_KEPT);
        // The last keystroke's own diff may have been drawn while it was still pending: draw the field again.
        if (program.eventSettled(node) && page.replica) preview.draw(page.replica);
    }, () => program.eventSettled(node));
    if (!page.conn.isOpen) toast('offline: the event will be sent when the connection is back', 'info');
}

/** Edits the source in the Source tab (null: stop editing). */
function editSource(text, { quiet = false } = {}) {
    program.editSource(text);
    if (!quiet) render();
}

/** Sends `text` as the program's new source; a compile error keeps the draft and shows its diagnostics. */
async function applySource(text) {
    if (!page.handle) return;
    const applied = program.applySource(page.handle, text);
    render();
    const diff = await applied;
    if (diff) toast(`source applied as v${diff.version}`, 'info');
    render();
}

/** Shows `lines` ({ start, end }) in the Source tab. */
function showLine(lines) {
    program.showLine(lines);
    selection.setTab('source');
    render();
}

/** Asks the daemon for the selected node's bindings and environment, once per (node, version). */
function inspectSelected() {
    const asked = program.inspect(page.client, page.replica, selection.selected, (node) => selection.selected === node);
    asked?.then((stored) => stored && selection.tab === 'state' && render());
}

function dropMove(dragged, target, zone) {
    const replica = page.replica;
    const targetNode = replica.node(target);
    if (!replica.node(dragged) || !targetNode) return;
    if (zone === 'into') edit([{ op: 'move', node: dragged, parent: target }]);
    else if (targetNode.parent === null) toast('drop into the root, not beside it', 'info');
    else edit([{ op: 'move', node: dragged, parent: targetNode.parent, [zone]: target }]);
}

// MARK: Derived data

function viewModel() {
    return {
        replica: page.replica,
        collapsed: selection.collapsed,
        filter: selection.filter,
        selected: selection.selected,
        classes: selection.key && page.replica ? history.laziness(page.replica, selection.key, selection.version).classes : null,
        highlight: highlightedNode(),
    };
}

/** The node of the step shown in the Reduce order or Why it ran tab, highlighted in the tree and the views. */
function highlightedNode() {
    if (selection.tab === 'order') return currentCall()?.event.node ?? null;
    if (selection.tab === 'why') return currentWhyNode();
    return null;
}

function traceVersion() {
    return history.traceVersion(selection.version, selection.key);
}

function currentCalls() {
    return history.calls(selection.key, selection.version);
}

function currentCall() {
    const { calls } = currentCalls();
    return calls.length ? calls[Math.min(selection.step, calls.length - 1)] : null;
}

/** The traced versions and the steps of the one shown in the Why tab (a new version starts at its first step). */
function whyData() {
    const why = history.why(page.replica, selection.version);
    if (why) selection.showWhy(why.version);
    return why;
}

function currentWhyNode() {
    const why = whyData();
    if (!why) return null;
    const step = why.steps[Math.min(selection.whyStep, why.steps.length - 1)];
    return step?.host ?? step?.node ?? null;
}

// MARK: Rendering

// Tabs redrawn only when what they show changed: a redraw between mousedown and mouseup would swallow the click, and
// diffs and presence updates can arrive many times a second.
let timelineShown = '';
let sourceShown = '';

function render() {
    writeHash(selection.hash());
    const replica = page.replica;
    const tab = selection.tab;
    $('tree-title').textContent = replica ? `${replica.tree} · v${replica.version} · ${replica.size} nodes` : '';
    $('tree-description').textContent = replica ? replica.title || '' : '';
    $('tree-description').title = replica ? replica.description || '' : '';
    $('tree-empty').hidden = !!selection.treeId;
    $('tree').hidden = !selection.treeId;
    const isProgram = !!replica?.isProgram;
    $('preview-pane').hidden = !isProgram;
    $('center-body').classList.toggle('with-preview', isProgram);
    preview.highlight(tab === 'why' ? currentWhyNode() : null);
    for (const b of document.querySelectorAll('.tabs button.program-tab')) b.hidden = !isProgram;
    $('layout-tab').hidden = !replica?.canvas;
    // Source lines and the canvas need room: the panel is wider while they are shown.
    document.querySelector('.layout').classList.toggle('wide-panel', isProgram && (tab === 'source' || tab === 'why' || tab === 'layout'));
    sidebar.render();
    renderLegend();
    for (const b of document.querySelectorAll('.tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === tab));
    for (const t of document.querySelectorAll('.tab')) t.hidden = t.dataset.tab !== tab;
    // The Layout tab patches its elements in place, so it is drawn even while one of its fields has the focus.
    if (tab === 'layout') layoutPane.draw({ replica, selected: selection.selected });
    else layoutPane.clear();
    const context = panelContext();
    // Never redraw a form under the user's fingers: other clients' diffs would wipe what they are typing.
    const active = document.activeElement;
    if (active?.closest('.tab') && active.matches('input:not([type=range]), textarea, select')) return;
    switch (tab) {
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
            const signature = JSON.stringify([selection.treeId, history.diffs.size, replica?.version, selection.version, page.clients]);
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
            const signature = JSON.stringify([selection.treeId, replica?.program?.source, program.sourceDraft === null,
                program.sourceDiagnostics, program.sourceStatus, program.sourceLine]);
            if (signature !== sourceShown) programPanels.renderSource($('tab-source'), context);
            sourceShown = signature;
            break;
        }
        case 'why':
            programPanels.renderWhy($('tab-why'), context);
            break;
    }
}

function panelContext() {
    const tab = selection.tab;
    return {
        replica: page.replica,
        conn: page.conn,
        session: page.conn?.session,
        clients: page.clients,
        clientCount: page.clientCount,
        selection,
        history,
        program,
        calls: tab === 'order' ? currentCalls() : null,
        currentCall: tab === 'order' || tab === 'keys' ? currentCall() : null,
        traceVersion: traceVersion(),
        why: tab === 'why' ? whyData() : null,
        sourceLine: program.sourceLine,
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

function renderKeySelect() {
    const keys = page.replica ? [...page.replica.keys.keys()] : [];
    if (selection.key && page.replica && !keys.includes(selection.key)) selection.setKey('');
    fill(
        $('key-select'),
        h('option', { value: '' }, '(none)'),
        keys.map((k) => h('option', { value: k, selected: k === selection.key }, k)),
    );
    $('key-select').value = selection.key;
}

function renderLegend() {
    const legend = $('legend');
    if (!selection.key || !page.replica) {
        legend.hidden = true;
        return;
    }
    legend.hidden = false;
    const { counts, version } = history.laziness(page.replica, selection.key, selection.version);
    const full = version !== null && history.traces.get(version)?.full;
    fill(
        legend,
        h('span', { class: 'legend-title' }, version === null ? 'no trace yet' : `${selection.key} at v${version}${full ? ' (full evaluation)' : ''}:`),
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
        page.conn.restart(token);
    });
    let filterTimer;
    $('filter').addEventListener('input', () => {
        clearTimeout(filterTimer);
        filterTimer = setTimeout(() => {
            selection.setFilter($('filter').value.trim());
            tree.update(viewModel());
        }, 120);
    });
    $('expand-all').addEventListener('click', () => {
        selection.expandAll();
        tree.update(viewModel());
    });
    $('collapse-all').addEventListener('click', () => {
        if (!page.replica) return;
        selection.collapseAll(page.replica);
        tree.update(viewModel());
    });
    $('key-select').addEventListener('change', () => {
        selection.setKey($('key-select').value);
        tree.update(viewModel(), { structure: false });
        render();
    });
    for (const b of document.querySelectorAll('.tabs button')) {
        b.addEventListener('click', () => {
            selection.setTab(b.dataset.tab);
            timelineShown = '';
            sourceShown = '';
            tree.update(viewModel(), { structure: false });
            render();
        });
    }
    document.addEventListener('keydown', (event) => {
        const tab = selection.tab;
        if ((tab !== 'order' && tab !== 'why') || event.target.closest('input, textarea, select')) return;
        const [at, to] = tab === 'order' ? [selection.step, setStep] : [selection.whyStep, setWhyStep];
        if (event.key === 'ArrowRight' || event.key === 'ArrowDown') to(at + 1);
        else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') to(at - 1);
        else if (event.key === 'Home') to(0);
        else if (event.key === 'End') to(Number.MAX_SAFE_INTEGER);
        else return;
        event.preventDefault();
    });
    // A hash typed or pasted into the address bar (the page's own updates use replaceState, which fires nothing).
    window.addEventListener('hashchange', () => {
        const hash = readHash();
        if ((hash.tree || null) !== selection.treeId) selectTree(hash.tree || null);
        selection.adopt(hash);
        renderKeySelect();
        tree.update(viewModel());
        render();
    });
}

start();
