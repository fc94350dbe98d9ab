// The side panel's tabs. Each `render…(el, ctx)` redraws one tab from what the page holds (`ctx.replica`,
// `ctx.selection`, `ctx.history`, …: see app.mjs `panelContext`); edits go out through `ctx.edit(ops)`, and the
// daemon's diff (or rejection) is what changes the view.

import { h, fill, short, pretty, parseJSON } from './dom.mjs';
import { compact } from './reduceorder.mjs';
import { isSwiftKey, keyKind, reduceLines, sourceView, errorDetails } from './swiftsource.mjs';

const MAX_CALLS = 2000;
const REDUCERS = ['last', 'first', 'sum', 'max', 'min', 'and', 'or', 'append', 'merge', 'firstNonNull', 'priority', 'nest'];

// The key last chosen in a form, and the Swift typed into the Keys tab, so that redraws (after every diff or
// presence update) keep them: a redraw between typing and clicking Declare must not send an empty source.
let formKey = null;
let swiftKeyDraft = '';

/** A key picker for a form; starts at the key last chosen in any form, else the toolbar's key. */
function keySelect(replica, id, toolbarKey) {
    const keys = [...replica.keys.keys()];
    const chosen = keys.includes(formKey) ? formKey : toolbarKey;
    return h('select', { id, onchange: (event) => (formKey = event.target.value) },
        keys.map((k) => h('option', { value: k, selected: k === chosen }, k)));
}

/** Runs `action`, turning a thrown error (bad JSON typed by the user) into a message instead of an edit. */
function guarded(ctx, action) {
    return (event) => {
        event?.preventDefault?.();
        try {
            action();
        } catch (error) {
            ctx.toast(error.message, 'error');
        }
    };
}

function newId(replica, type) {
    const base = type.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'node';
    for (;;) {
        const id = `${base}-${Math.random().toString(36).slice(2, 6)}`;
        if (!replica.node(id)) return id;
    }
}

// MARK: Node

export function renderNode(el, ctx) {
    const replica = ctx.replica;
    const { selected, key } = ctx.selection;
    if (!replica) return fill(el, h('p', { class: 'empty' }, 'No tree selected.'));
    const node = selected && replica.node(selected);
    if (!node) return fill(el, h('p', { class: 'empty' }, 'Select a node in the tree to see and edit it.'));

    const modifiers = replica.modifiersJSON(node);
    const setModifiers = (list) => ctx.edit([{ op: 'setModifiers', node: node.id, modifiers: list }]);
    const hostKind = node.attach ? node.attach.kind : null;
    const parent = node.parent ? replica.node(node.parent) : null;
    const at = parent ? parent.children.indexOf(node.id) : -1;

    const propsArea = h('textarea', { id: 'props-editor', rows: 5, spellcheck: false }, pretty(node.props));
    const prefKey = keySelect(replica, 'pref-key', key);
    const prefValue = h('input', { id: 'pref-value', placeholder: 'value (JSON), e.g. 1 or "text"' });
    const readerKey = keySelect(replica, 'reader-key', key);
    const childType = h('input', { id: 'child-type', value: 'Text', placeholder: 'type' });
    const childId = h('input', { id: 'child-id', placeholder: 'id (optional)' });
    const probeKey = keySelect(replica, 'probe-key', key);
    const probeOut = h('output', { id: 'probe-out' });

    if (replica.isProgram) return renderProgramNode(el, ctx, node, probeKey, probeOut);
    fill(
        el,
        h('h3', {}, h('span', { class: 'type' }, node.type), ' ', h('span', { class: 'id' }, node.id)),
        hostKind ? h('p', { class: 'note' }, `Attached as the ${hostKind} of ${node.attach.host}.`) : null,
        h(
            'div',
            { class: 'button-row' },
            h('button', { type: 'button', id: 'move-up', disabled: !parent || at <= 0, onclick: () => ctx.edit([{ op: 'move', node: node.id, parent: parent.id, before: parent.children[at - 1] }]) }, '↑ Up'),
            h('button', { type: 'button', id: 'move-down', disabled: !parent || at >= parent.children.length - 1, onclick: () => ctx.edit([{ op: 'move', node: node.id, parent: parent.id, after: parent.children[at + 1] }]) }, '↓ Down'),
            h('button', { type: 'button', id: 'move-out', disabled: !parent || !parent.parent, onclick: () => ctx.edit([{ op: 'move', node: node.id, parent: parent.parent, after: parent.id }]) }, '← Out'),
            h('button', { type: 'button', id: 'move-in', disabled: !parent || at <= 0, onclick: () => ctx.edit([{ op: 'move', node: node.id, parent: parent.children[at - 1] }]) }, '→ In'),
            h('button', { type: 'button', id: 'remove-node', class: 'danger', disabled: !parent, onclick: () => confirm(`Remove ${node.id} and everything inside it?`) && ctx.edit([{ op: 'remove', node: node.id }]) }, 'Remove'),
        ),

        h('h4', {}, 'Props'),
        propsArea,
        h('button', {
            type: 'button', id: 'save-props',
            onclick: guarded(ctx, () => {
                const next = parseJSON(propsArea.value, 'props');
                if (typeof next !== 'object' || next === null || Array.isArray(next)) throw new Error('props must be a JSON object');
                const changes = { ...next };
                for (const k of Object.keys(node.props)) if (!(k in next)) changes[k] = null;
                ctx.edit([{ op: 'setProps', node: node.id, props: changes }]);
            }),
        }, 'Save props'),

        h('h4', {}, 'Modifiers (innermost first)'),
        modifiers.length
            ? h('ol', { class: 'modifiers' }, modifiers.map((m, i) => h(
                'li', {},
                h('code', {}, describeModifier(m)),
                m.kind === 'onPreferenceChange' ? h('span', { class: 'reader-value' }, ` → ${readerText(replica, replica.readerId(node, i))}`) : null,
                h('span', { class: 'button-row inline' },
                    h('button', { type: 'button', class: 'icon', title: 'move inward', disabled: i === 0, onclick: () => setModifiers(swap(modifiers, i, i - 1)) }, '↑'),
                    h('button', { type: 'button', class: 'icon', title: 'move outward', disabled: i === modifiers.length - 1, onclick: () => setModifiers(swap(modifiers, i, i + 1)) }, '↓'),
                    h('button', { type: 'button', class: 'icon danger', title: 'remove this modifier', onclick: () => setModifiers(modifiers.filter((_, j) => j !== i)) }, '✕'),
                ),
            )))
            : h('p', { class: 'note' }, 'none'),

        h('h4', {}, 'Preference'),
        replica.keys.size ? h('form', {
            class: 'stack', id: 'pref-form',
            onsubmit: guarded(ctx, () => ctx.edit([{ op: 'setPreference', node: node.id, key: prefKey.value, value: parseJSON(prefValue.value, 'the value') }])),
        }, prefKey, prefValue, h('button', { type: 'submit' }, 'Set'),
        h('button', { type: 'button', id: 'remove-pref', onclick: () => ctx.edit([{ op: 'removePreference', node: node.id, key: prefKey.value }]) }, 'Remove')) : h('p', { class: 'note' }, 'Declare a key first (Keys tab).'),

        replica.keys.size ? h('form', {
            class: 'stack', id: 'reader-form',
            onsubmit: guarded(ctx, () => setModifiers([...modifiers, { kind: 'onPreferenceChange', key: readerKey.value }])),
        }, h('span', {}, 'Reader of'), readerKey, h('button', { type: 'submit' }, 'Add reader')) : null,

        replica.keys.size ? h('form', {
            class: 'stack', id: 'probe-form',
            onsubmit: probeSubmit(ctx, replica, node, probeKey, probeOut),
        }, h('span', {}, 'Probe'), probeKey, h('button', { type: 'submit' }, 'Evaluate here'), probeOut) : null,

        h('h4', {}, 'Add a child'),
        h('form', {
            class: 'stack', id: 'child-form',
            onsubmit: guarded(ctx, () => {
                const type = childType.value.trim();
                if (!type) throw new Error('a child needs a type');
                const id = childId.value.trim() || newId(replica, type);
                ctx.edit([{ op: 'insert', parent: node.id, node: { id, type } }]);
                childId.value = '';
            }),
        }, childType, childId, h('button', { type: 'submit' }, 'Add child')),
    );
}

/** A node of a program tree: read-only (its shape belongs to its code), with the probe. */
function renderProgramNode(el, ctx, node, probeKey, probeOut) {
    const replica = ctx.replica;
    fill(
        el,
        h('h3', {}, h('span', { class: 'type' }, node.type), ' ', h('span', { class: 'id' }, node.id)),
        h('p', { class: 'note' }, 'A node of a program tree: its code makes it, so it is not edited here. Use the live view, or change the source (Source tab); its cells and bindings are in the State tab.'),
        h('h4', {}, 'Props'),
        h('pre', { class: 'props-view', id: 'props-view' }, pretty(node.props)),
        h('h4', {}, 'Modifiers (innermost first)'),
        node.modifiers.length
            ? h('ol', { class: 'modifiers' }, replica.modifiersJSON(node).map((m, i) => h('li', {},
                h('code', {}, describeModifier(m)),
                m.kind === 'onPreferenceChange' ? h('span', { class: 'reader-value' }, ` → ${readerText(replica, replica.readerId(node, i))}`) : null)))
            : h('p', { class: 'note' }, 'none'),
        replica.keys.size ? h('form', { class: 'stack', id: 'probe-form', onsubmit: probeSubmit(ctx, replica, node, probeKey, probeOut) },
            h('span', {}, 'Probe'), probeKey, h('button', { type: 'submit' }, 'Evaluate here'), probeOut) : null,
    );
}

function probeSubmit(ctx, replica, node, probeKey, probeOut) {
    return guarded(ctx, async () => {
        try {
            const v = await ctx.conn.request({ type: 'probe', tree: replica.tree, node: node.id, key: probeKey.value });
            probeOut.textContent = v.present ? `= ${JSON.stringify(v.value)} (v${v.version})` : `absent (v${v.version})`;
        } catch (error) {
            probeOut.textContent = [error.message, ...errorDetails(error.reply)].join(' — ');
        }
    });
}

function swap(list, i, j) {
    const copy = list.slice();
    [copy[i], copy[j]] = [copy[j], copy[i]];
    return copy;
}

function describeModifier(m) {
    switch (m.kind) {
        case 'preference': return `.preference(${m.key}, ${JSON.stringify(m.value)})`;
        case 'transformPreference': return `.transformPreference(${m.key}, ${JSON.stringify(m.transform)})`;
        case 'onPreferenceChange': return `.onPreferenceChange(${m.key})`;
        case 'background':
        case 'overlay': return `.${m.kind} { ${m.node.type} ${m.node.id} }`;
        default: return `.${m.kind}(${m.args ? JSON.stringify(m.args) : ''})`;
    }
}

function readerText(replica, reader) {
    const v = replica.readerValues.get(reader);
    return v?.present ? JSON.stringify(v.value) : 'never fired / absent';
}

// MARK: Reduce order

export function renderOrder(el, ctx) {
    const { calls, traceVersion } = ctx;
    const { key, version } = ctx.selection;
    if (!ctx.replica) return fill(el, h('p', { class: 'empty' }, 'No tree selected.'));
    const entry = traceVersion === null ? null : ctx.history.traces.get(traceVersion);
    const header = h('p', { class: 'note', id: 'order-version' },
        traceVersion === null ? 'No traced evaluation yet.'
            : entry ? `Evaluation of v${traceVersion}${entry.full ? ' — full evaluation, as at subscribe' : ' — incremental, after that version\'s edit'}`
                : `No trace for v${traceVersion}: it was applied before this page connected (the log keeps diffs, not traces).`,
        version !== null ? h('button', { type: 'button', class: 'link', onclick: () => ctx.selectVersion(null) }, ' follow latest') : null,
    );
    if (!entry) return fill(el, header);
    const s = entry.trace.summary || {};
    const summary = h('p', { class: 'summary' },
        `${s.evaluated ?? 0} evaluated · ${s.cached ?? 0} cached · ${s.skipped ?? 0} skipped · ${s.reduces ?? 0} reduce calls`,
        key ? ` — showing ${key} only` : ' — all keys (pick one in the toolbar to narrow)');
    const fires = entry.trace.events.filter((e) => e.e === 'fire' && (!key || e.key === key));
    const n = calls.calls.length;
    const step = Math.min(ctx.selection.step, Math.max(0, n - 1));
    const index = new Map(calls.calls.map((c, i) => [c, i]));

    // A full evaluation of a big tree has tens of thousands of calls: draw the first MAX_CALLS (the stepper still
    // reaches every call, and the tree highlights its node).
    let drawn = 0;
    const item = (call) => {
        if (drawn >= MAX_CALLS) return null;
        drawn += 1;
        const e = call.event;
        const i = index.get(call);
        return h('li', { class: i === step ? 'call current' : 'call', dataset: { step: i, node: e.node } },
            h('div', { class: 'call-line', onclick: () => ctx.setStep(i) },
                h('span', { class: 'step-no' }, `${i + 1}`),
                h('span', { class: 'id' }, e.node + (e.modifier !== undefined ? ` @${e.modifier}` : '')),
                key ? null : h('span', { class: 'chip key' }, e.key),
                h('code', { class: 'reduce' }, `r(${compact(e.value)}, `,
                    e.nextEvaluated ? h('span', { class: 'next' }, compact(e.next)) : h('span', { class: 'not-evaluated' }, 'not evaluated'),
                    `) → ${compact(e.result)}`)),
            call.children.length ? h('ol', { class: 'calls nested' }, call.children.map(item)) : null);
    };

    fill(
        el,
        header,
        summary,
        n ? h('div', { class: 'stepper' },
            h('button', { type: 'button', id: 'step-first', title: 'first call (Home)', onclick: () => ctx.setStep(0) }, '|◀'),
            h('button', { type: 'button', id: 'step-prev', title: 'previous call (←)', onclick: () => ctx.setStep(step - 1) }, '◀'),
            h('input', { type: 'range', id: 'step-slider', min: 0, max: n - 1, value: step, oninput: (event) => ctx.setStep(Number(event.target.value)) }),
            h('button', { type: 'button', id: 'step-next', title: 'next call (→)', onclick: () => ctx.setStep(step + 1) }, '▶'),
            h('button', { type: 'button', id: 'step-last', title: 'last call (End)', onclick: () => ctx.setStep(n - 1) }, '▶|'),
            h('span', { id: 'step-label' }, `call ${step + 1} of ${n}`))
            : h('p', { class: 'note' }, 'No reduce calls: every fold had at most one present value, or nothing was requested.'),
        h('ol', { class: 'calls', id: 'reduce-calls' }, calls.roots.map(item)),
        n ? currentSwiftSource(ctx.replica, calls.calls[step].event.key) : null,
        n > MAX_CALLS ? h('p', { class: 'note' }, `The first ${MAX_CALLS} of ${n} calls are listed; pick a key to narrow.`) : null,
        fires.length ? h('h4', {}, 'Readers fired') : null,
        fires.length ? h('ul', { class: 'fires' }, fires.map((f) => h('li', {}, h('span', { class: 'id' }, f.reader), ` ${f.key} = `, f.present ? h('code', {}, JSON.stringify(f.value)) : h('em', {}, 'absent')))) : null,
    );
    el.querySelector('.call.current')?.scrollIntoView({ block: 'nearest' });
}

/** The Swift source of `key` with its reduce function highlighted, for the call being stepped; null for catalog keys. */
function currentSwiftSource(replica, key) {
    const declaration = replica.keys.get(key);
    if (!isSwiftKey(declaration)) return null;
    return h('section', { class: 'swift-call', id: 'order-swift' },
        h('h4', {}, `${key}.reduce(value:nextValue:) — Swift`),
        sourceView(declaration.swift, { highlight: reduceLines(declaration.swift, key), key }));
}

// MARK: Readers

export function renderReaders(el, ctx) {
    if (!ctx.replica) return fill(el, h('p', { class: 'empty' }, 'No tree selected.'));
    const readers = ctx.replica.readers();
    if (!readers.length) return fill(el, h('p', { class: 'empty' }, 'This tree has no readers (onPreferenceChange): nothing is evaluated.'));
    fill(el, h('table', { class: 'grid', id: 'readers-table' },
        h('thead', {}, h('tr', {}, h('th', {}, 'reader'), h('th', {}, 'key'), h('th', {}, 'value'), h('th', {}, 'fired at'))),
        h('tbody', {}, readers.map((r) => {
            const history = ctx.history.readerHistory.get(r.reader) || [];
            return h('tr', { dataset: { reader: r.reader }, class: r.node === ctx.selection.selected ? 'selected' : '', onclick: () => ctx.select(r.node) },
                h('td', { class: 'id' }, r.reader),
                h('td', {}, r.key),
                h('td', { class: 'value' }, r.present ? short(r.value, 60) : h('em', {}, 'absent')),
                h('td', { class: 'history' }, history.slice(-8).map((e) => h('span', { class: 'fire', title: e.present ? JSON.stringify(e.value) : 'absent' }, `v${e.version}: ${e.present ? short(e.value, 16) : '∅'}`)),
                    history.length > 8 ? h('span', { class: 'note' }, ` (+${history.length - 8} earlier)`) : null));
        }))));
}

// MARK: Timeline

export function renderTimeline(el, ctx) {
    if (!ctx.replica) return fill(el, h('p', { class: 'empty' }, 'No tree selected.'));
    const { diffs } = ctx.history;
    const { version } = ctx.selection;
    const versions = [...diffs.keys()].sort((a, b) => b - a).slice(0, 300);
    const lanes = [];
    for (const v of versions) if (!lanes.includes(diffs.get(v).author)) lanes.push(diffs.get(v).author);
    lanes.sort();
    const selected = version !== null ? diffs.get(version) : null;
    fill(
        el,
        selected ? diffDetails(selected, ctx) : h('p', { class: 'note' }, 'Select a version to see its diff, its reduce order and its laziness.'),
        versions.length ? h('table', { class: 'grid timeline', id: 'timeline' },
            h('thead', {}, h('tr', {}, h('th', {}, 'v'), lanes.map((s) => h('th', { title: s }, authorName(ctx, s))))),
            h('tbody', {}, versions.map((v) => {
                const d = diffs.get(v);
                return h('tr', { class: v === version ? 'selected' : '', dataset: { version: v }, onclick: () => ctx.selectVersion(v === version ? null : v) },
                    h('td', {}, String(v)),
                    lanes.map((s) => h('td', {}, s === d.author ? h('span', { class: 'entry', title: JSON.stringify(d.ops) },
                        `#${d.seq} ${batchSummary(d)}${d.changes?.length ? ` · ${d.changes.length} fired` : ''}`) : '')));
            })))
            : h('p', { class: 'empty' }, `No edits since version 0 in what the log keeps (now v${ctx.replica.version}).`),
    );
}

/** What a batch did, in a few words: a program's event or source change, else its ops. */
function batchSummary(d) {
    if (d.event) return d.event.event === 'post' ? `post ${d.event.name}` : `${d.event.event} ${d.event.node?.split('/').pop() ?? ''}`;
    if (typeof d.source === 'string') return 'setSource';
    return (d.ops || []).map((o) => o.op).join(', ');
}

/** A session with its client name when it is (still) connected. */
function authorName(ctx, session) {
    const name = ctx.clients.find((c) => c.session === session)?.client;
    return name ? `${name} (${session})` : session;
}

function diffDetails(d, ctx) {
    const beforeOf = (c) => {
        if (d.before?.has(c.reader)) return d.before.get(c.reader);
        const list = ctx.history.readerHistory.get(c.reader) || [];
        let last = null;
        for (const e of list) if (e.version < d.version) last = e;
        return last;
    };
    const valueText = (v) => (v === null || v === undefined ? '—' : v.present ? JSON.stringify(v.value) : 'absent');
    return h('section', { class: 'diff-details', id: 'diff-details' },
        h('h4', {}, `v${d.version} by ${authorName(ctx, d.author)}, seq ${d.seq}`,
            h('button', { type: 'button', class: 'link', onclick: () => ctx.selectVersion(null) }, ' follow latest')),
        d.event || typeof d.source === 'string' ? h('p', { class: 'note' }, batchSummary(d), ctx.replica?.isProgram ? ' — see the Why it ran tab' : '') : null,
        d.state?.length ? h('ul', { class: 'ops' }, d.state.map((c) => h('li', {}, h('code', {}, `${c.node} .${c.name} ${c.dropped ? 'dropped' : '= ' + JSON.stringify(c.value)}`)))) : null,
        h('ol', { class: 'ops' }, (d.ops || []).map((op) => h('li', {}, h('code', {}, JSON.stringify(op))))),
        d.changes?.length
            ? h('table', { class: 'grid' },
                h('thead', {}, h('tr', {}, h('th', {}, 'reader'), h('th', {}, 'before'), h('th', {}, 'after'))),
                h('tbody', {}, d.changes.map((c) => h('tr', {},
                    h('td', { class: 'id' }, c.reader),
                    h('td', { class: 'before' }, valueText(beforeOf(c))),
                    h('td', { class: 'after' }, c.present ? JSON.stringify(c.value) : 'absent')))))
            : h('p', { class: 'note' }, 'No reader fired.'));
}

// MARK: Clients

export function renderClients(el, ctx) {
    const { session } = ctx;
    if (!ctx.replica) return fill(el, h('p', { class: 'empty' }, 'No tree selected.'));
    fill(el,
        h('p', { class: 'note' }, `${ctx.clientCount} subscribed to ${ctx.replica.tree}, updated live`,
            ctx.clientCount > ctx.clients.length ? ` (the first ${ctx.clients.length} are listed)` : '', '.'),
        h('ul', { class: 'clients', id: 'clients' }, ctx.clients.map((c) => h('li', { dataset: { session: c.session } },
            h('span', { class: 'id' }, c.session), ' ', c.client || '(no name)', c.session === session ? h('em', {}, ' — this page') : null))));
}

// MARK: Keys

export function renderKeys(el, ctx) {
    if (!ctx.replica) return fill(el, h('p', { class: 'empty' }, 'No tree selected.'));
    const name = h('input', { id: 'key-name', placeholder: 'key name', required: true });
    const reducer = h('select', { id: 'key-reducer' }, REDUCERS.map((r) => h('option', { value: r }, r)));
    const defaultValue = h('input', { id: 'key-default', placeholder: 'default (JSON)', value: '0' });
    const swiftArea = h('textarea', {
        id: 'swift-key-source', rows: 6, spellcheck: false, placeholder: 'struct K: PreferenceKey { … } (Swift)',
        oninput: () => (swiftKeyDraft = swiftArea.value),
    }, swiftKeyDraft);
    const declarations = [...ctx.replica.keys.values()];
    // The key of the reduce call being stepped in the Reduce order tab: its reduce function is highlighted here too.
    const stepped = ctx.currentCall?.event.key;
    fill(el,
        h('table', { class: 'grid', id: 'keys-table' },
            h('thead', {}, h('tr', {}, h('th', {}, 'key'), h('th', {}, 'kind'), h('th', {}, 'default'))),
            h('tbody', {}, declarations.map((k) => h('tr', { dataset: { key: k.key } }, h('td', {}, k.key),
                h('td', { class: isSwiftKey(k) ? 'kind swift' : 'kind' }, keyKind(k)),
                h('td', {}, isSwiftKey(k) ? h('em', {}, 'in the source') : JSON.stringify(k.default)))))),
        declarations.filter(isSwiftKey).map((k) => h('section', { class: 'swift-key', dataset: { key: k.key } },
            h('h4', {}, `${k.key} — Swift`),
            sourceView(k.swift, { highlight: stepped === k.key ? reduceLines(k.swift, k.key) : null, key: k.key }))),
        h('form', {
            class: 'stack', id: 'key-form',
            onsubmit: guarded(ctx, () => ctx.edit([{ op: 'declareKey', key: name.value.trim(), reducer: reducer.value, default: parseJSON(defaultValue.value, 'the default') }])),
        }, name, reducer, defaultValue, h('button', { type: 'submit' }, 'Declare key')),
        h('form', {
            class: 'stack', id: 'swift-key-form',
            onsubmit: guarded(ctx, () => {
                const names = declaredKeyNames(swiftArea.value);
                if (!names.length) throw new Error('the Swift declares no struct K: PreferenceKey');
                ctx.edit(names.map((key) => ({ op: 'declareKey', key, swift: swiftArea.value })));
            }),
        }, swiftArea, h('button', { type: 'submit' }, 'Declare Swift key')));
}

/** The names of the structs `source` declares as PreferenceKeys (the daemon compiles and checks them). */
function declaredKeyNames(source) {
    return [...source.matchAll(/\bstruct\s+([A-Za-z_][A-Za-z0-9_]*)\s*:[^{]*\bPreferenceKey\b/g)].map((m) => m[1]);
}

