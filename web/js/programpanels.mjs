// The tabs for program trees: State (cells, bindings, environment, preview contexts), Source (numbered lines,
// editing, setSource with its diagnostics at their lines) and Why (a version's transaction, step by step).

import { h, fill, short } from './dom.mjs';
import { sourceView } from './swiftsource.mjs';
import { STEP_KINDS, countSteps, leaf } from './transaction.mjs';

const MAX_STEPS = 3000;

function notProgram(el, replica) {
    fill(el, h('p', { class: 'empty' }, replica ? 'This tree is data, not a Swift program: it has no state, source or transactions.'
        : 'No tree selected.'));
}

/** A node id that selects its node when clicked. */
function nodeLink(ctx, id, label = id) {
    return h('button', { type: 'button', class: 'link node-link', title: id, dataset: { node: id }, onclick: () => ctx.select(id) }, label);
}

// MARK: State

export function renderState(el, ctx) {
    const replica = ctx.replica;
    if (!replica?.isProgram) return notProgram(el, replica);
    const id = ctx.selection.selected && replica.node(ctx.selection.selected) ? ctx.selection.selected : null;
    const inspected = id && ctx.program.inspected?.node === id ? ctx.program.inspected : null;
    fill(el,
        id ? h('h3', {}, h('span', { class: 'type' }, replica.node(id).type), ' ', h('span', { class: 'id' }, id))
            : h('p', { class: 'note' }, 'Select a node (in the tree or the live view) to see its state and environment.'),
        id ? nodeState(ctx, replica, id, inspected) : null,
        h('h4', {}, 'Preview modifiers'),
        previewSection(replica),
        h('h4', {}, `Every @State cell and top-level var (${replica.cells.size})`),
        replica.cells.size ? h('table', { class: 'grid', id: 'all-cells' },
            h('thead', {}, h('tr', {}, h('th', {}, 'view'), h('th', {}, 'cell'), h('th', {}, 'value'))),
            h('tbody', {}, [...replica.cells.values()].map((c) => h('tr', { class: c.node === id ? 'selected' : '', dataset: { node: c.node, name: c.name } },
                // A top-level `var` is the program's own cell, of no view (node "").
                h('td', {}, c.node === '' ? h('span', { class: 'top-level' }, 'top-level var') : nodeLink(ctx, c.node, leaf(c.node))),
                h('td', {}, c.name), h('td', { class: 'value' }, short(c.value, 60))))))
            : h('p', { class: 'note' }, 'No view of this program has @State, and the program has no top-level var.'),
        objectsSection(replica));
}

/** The objects the cells refer to as {"$object":ID}: each once, with its class and stored properties. */
function objectsSection(replica) {
    const objects = replica.reachableObjects();
    if (!objects.length) return null;
    return [
        h('h4', {}, `Objects the cells refer to (${objects.length})`),
        h('table', { class: 'grid', id: 'all-objects' },
            h('thead', {}, h('tr', {}, h('th', {}, 'id'), h('th', {}, 'class'), h('th', {}, 'properties'))),
            h('tbody', {}, objects.map(([id, o]) => h('tr', { dataset: { object: id } },
                h('td', {}, `$object ${id}`), h('td', {}, o.class), h('td', { class: 'value' }, short(o.fields, 80)))))),
    ];
}

function nodeState(ctx, replica, id, inspected) {
    const cells = replica.cellsOf(id);
    const parts = [
        h('h4', {}, '@State'),
        cells.length ? h('table', { class: 'grid', id: 'node-cells' },
            h('tbody', {}, cells.map((c) => h('tr', { dataset: { name: c.name } }, h('td', {}, c.name), h('td', { class: 'value' }, short(c.value, 80))))))
            : h('p', { class: 'note' }, 'none'),
    ];
    if (!inspected) {
        parts.push(h('p', { class: 'note', id: 'inspect-status' }, ctx.program.inspectError ? `Bindings and environment unavailable: ${ctx.program.inspectError}` : 'Loading bindings and environment…'));
        return parts;
    }
    parts.push(
        h('h4', {}, 'Bindings'),
        inspected.bindings?.length ? h('table', { class: 'grid', id: 'node-bindings' },
            h('tbody', {}, inspected.bindings.map((b) => h('tr', { dataset: { name: b.name } },
                h('td', {}, `$${b.name}`),
                h('td', { class: 'value' }, short(b.value, 40)),
                h('td', { class: 'binding-target' }, bindingTarget(ctx, b))))))
            : h('p', { class: 'note' }, 'none'),
        h('h4', {}, 'Environment'),
        inspected.environment?.length ? h('table', { class: 'grid', id: 'node-environment' },
            h('tbody', {}, inspected.environment.map((e) => h('tr', { dataset: { key: e.key } },
                h('td', {}, `\\.${e.key}`),
                h('td', { class: 'value' }, short(e.value, 40)),
                h('td', { class: 'env-source' }, e.from ? ['set by ', nodeLink(ctx, e.from, leaf(e.from))] : h('em', {}, 'default'))))))
            : h('p', { class: 'note' }, 'none read or set'),
        h('p', { class: 'note' }, `as of v${inspected.version}`));
    return parts;
}

function bindingTarget(ctx, b) {
    if (b.cell) {
        const path = b.path?.length ? '.' + b.path.join('.') : '';
        return ['→ ', nodeLink(ctx, b.cell.node, leaf(b.cell.node)), ` .${b.cell.name}${path}`];
    }
    if (b.constant) return h('em', {}, '.constant');
    if (b.computed) return h('em', {}, 'Binding(get:set:)');
    return h('em', {}, '?');
}

function previewSection(replica) {
    const applied = replica.program.previewModifiers || [];
    const contexts = replica.previewContexts || [];
    if (!applied.length && !contexts.length) return h('p', { class: 'note' }, 'none');
    return h('ul', { class: 'preview-contexts', id: 'preview-contexts' },
        contexts.map((c) => h('li', { dataset: { modifier: c.modifier } }, h('code', {}, c.modifier), ' — shared context ',
            h('strong', {}, c.reused ? 'reused' : 'computed'), c.reused ? ' (made earlier by this daemon for the same source)' : ' (made for this tree)')),
        applied.filter((m) => !contexts.some((c) => c.modifier === m)).map((m) => h('li', {}, h('code', {}, m))));
}

// MARK: Source

/**
 * The program's source. Viewing: numbered lines, `ctx.sourceLine` highlighted. Editing: a textarea and Apply,
 * which sends setSource; a compile error lists its diagnostics and marks their lines, and changes nothing.
 */
export function renderSource(el, ctx) {
    const replica = ctx.replica;
    if (!replica?.isProgram) return notProgram(el, replica);
    const source = replica.program.source;
    const draft = ctx.program.sourceDraft;
    const header = h('p', { class: 'note' }, `${replica.program.view} — ${source.split('\n').length} lines, as of v${replica.version}`);
    if (draft === null) {
        const line = ctx.sourceLine;
        fill(el, header,
            h('div', { class: 'button-row' }, h('button', { type: 'button', id: 'edit-source', onclick: () => ctx.editSource(source) }, 'Edit source')),
            sourceView(source, { highlight: line ? { start: line.start, end: line.end ?? line.start } : null }));
        if (line) el.querySelector('.src-line.highlighted')?.scrollIntoView({ block: 'center' });
        return;
    }
    const area = h('textarea', { id: 'source-editor', rows: 24, spellcheck: false, oninput: () => ctx.editSource(area.value, { quiet: true }) }, draft);
    const diagnostics = ctx.program.sourceDiagnostics || [];
    fill(el, header,
        h('div', { class: 'button-row' },
            h('button', { type: 'button', id: 'apply-source', onclick: () => ctx.applySource(area.value) }, 'Apply (setSource)'),
            h('button', { type: 'button', id: 'cancel-source', onclick: () => ctx.editSource(null) }, 'Cancel'),
            ctx.program.sourceStatus ? h('span', { class: 'note', id: 'source-status' }, ctx.program.sourceStatus) : null),
        area,
        diagnostics.length ? [
            h('h4', {}, `${diagnostics.length} compile error${diagnostics.length === 1 ? '' : 's'} — nothing changed`),
            h('ul', { class: 'diagnostics', id: 'source-diagnostics' }, diagnostics.map((d) => h('li', { dataset: { line: d.line } }, `${d.line}:${d.column}: ${d.message}`))),
            annotated(ctx.program.sourceDiagnosed ?? draft, diagnostics),
        ] : null);
}

/** The source that failed to compile, each diagnostic under its line. */
function annotated(source, diagnostics) {
    const view = sourceView(source);
    view.id = 'source-annotated';
    const byLine = new Map();
    for (const d of diagnostics) {
        if (!byLine.has(d.line)) byLine.set(d.line, []);
        byLine.get(d.line).push(d);
    }
    for (const [line, list] of byLine) {
        const row = view.querySelector(`.src-line[data-line="${line}"]`);
        if (!row) continue;
        row.classList.add('diagnosed');
        const gutter = row.querySelector('.ln').textContent.replace(/./g, ' ');
        for (const d of list.slice().reverse()) {
            row.after(h('div', { class: 'src-line diagnostic', dataset: { line } },
                h('span', { class: 'ln', 'aria-hidden': 'true' }, gutter),
                h('code', {}, `${' '.repeat(Math.max(0, d.column - 1))}^ ${d.message}`)));
        }
    }
    return view;
}

// MARK: Why it ran

/** The transaction of the shown version as a timeline; stepping highlights the node and the source line. */
export function renderWhy(el, ctx) {
    const { why } = ctx;
    const replica = ctx.replica;
    if (!replica?.isProgram) return notProgram(el, replica);
    if (!why) {
        return fill(el, h('p', { class: 'note', id: 'why-version' }, 'No traced version yet: send an event (type in the live view) to see why everything ran.'));
    }
    const { version, steps, versions } = why;
    const n = steps.length;
    const step = Math.min(ctx.selection.whyStep, n - 1);
    const at = versions.indexOf(version);
    const counts = countSteps(steps);
    let drawn = 0;
    fill(el,
        h('div', { class: 'stepper', id: 'why-versions' },
            h('button', { type: 'button', id: 'why-older', disabled: at <= 0, title: 'older traced version', onclick: () => ctx.selectVersion(versions[at - 1]) }, '◀ older'),
            h('strong', { id: 'why-version' }, `v${version}`),
            h('button', { type: 'button', id: 'why-newer', disabled: at < 0 || at >= versions.length - 1, title: 'newer traced version', onclick: () => ctx.selectVersion(versions[at + 1]) }, 'newer ▶'),
            ctx.selection.version !== null ? h('button', { type: 'button', class: 'link', onclick: () => ctx.selectVersion(null) }, 'follow latest') : null),
        h('p', { class: 'summary', id: 'why-summary' },
            Object.entries(STEP_KINDS).filter(([k]) => counts[k] && k !== 'cause').map(([k, label]) => `${counts[k]} ${label}`).join(' · ') || 'nothing ran'),
        h('div', { class: 'stepper' },
            h('button', { type: 'button', id: 'why-first', title: 'first step (Home)', onclick: () => ctx.setWhyStep(0) }, '|◀'),
            h('button', { type: 'button', id: 'why-prev', title: 'previous step (←)', onclick: () => ctx.setWhyStep(step - 1) }, '◀'),
            h('input', { type: 'range', id: 'why-slider', min: 0, max: n - 1, value: step, oninput: (event) => ctx.setWhyStep(Number(event.target.value)) }),
            h('button', { type: 'button', id: 'why-next', title: 'next step (→)', onclick: () => ctx.setWhyStep(step + 1) }, '▶'),
            h('button', { type: 'button', id: 'why-last', title: 'last step (End)', onclick: () => ctx.setWhyStep(n - 1) }, '▶|'),
            h('span', { id: 'why-label' }, `step ${step + 1} of ${n}`)),
        h('ol', { class: 'why-steps', id: 'why-steps' }, steps.map((s, i) => {
            if (drawn++ >= MAX_STEPS) return null;
            return h('li', { class: `why-step kind-${s.kind}${i === step ? ' current' : ''}`, dataset: { step: i, kind: s.kind, node: s.node ?? '' }, onclick: () => ctx.setWhyStep(i) },
                h('span', { class: 'step-no' }, String(i + 1)),
                h('span', { class: 'chip step-kind' }, STEP_KINDS[s.kind]),
                h('span', { class: 'step-text' }, s.text),
                s.node ? h('span', { class: 'id' }, leaf(s.node)) : null,
                s.line ? h('button', { type: 'button', class: 'link line-link', dataset: { line: s.line },
                    onclick: (event) => { event.stopPropagation(); ctx.showLine(stepLines(s)); } }, `line ${s.line}`) : null);
        })),
        n > MAX_STEPS ? h('p', { class: 'note' }, `The first ${MAX_STEPS} of ${n} steps are listed.`) : null,
        steps[step]?.line ? h('section', { class: 'swift-call', id: 'why-source' },
            h('h4', {}, `line ${steps[step].line}`),
            sourceView(replica.program.source, { highlight: stepLines(steps[step]), around: stepLines(steps[step]) })) : null);
    el.querySelector('.why-step.current')?.scrollIntoView({ block: 'nearest' });
}

/** The source lines of a step: a reduce's whole function, else its one line. */
function stepLines(s) {
    return s.lines ?? { start: s.line, end: s.line };
}
