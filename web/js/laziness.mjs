// What one evaluation did with every node for one key (SEMANTICS.md §2–§4), from the tree's structure and the
// evaluation's trace. Pure: no DOM.

import { DYNAMIC_TYPES, ATTACHING } from './canopy-client.mjs';

/** The categories, in legend order, with their meaning. */
export const CATEGORIES = [
    ['evaluated', 'evaluated', 'computed by this evaluation (a writer read, a fold or modifier run)'],
    ['cached', 'reused', 'its cached value was reused (or it lies inside a reused subtree)'],
    ['skipped', 'skipped', 'present, but no reduce called nextValue for it'],
    ['overridden', 'overridden', 'a preference writer outside it replaces whatever it produces'],
    ['notRequested', 'not requested', 'no reader of the key above it'],
    ['absent', 'absent', 'requested, but nothing inside it writes the key'],
    ['untouched', 'not revisited', 'requested, but this evaluation did not need to look at it again'],
];

const rank = { evaluated: 3, cached: 2, skipped: 1 };

/**
 * The trace's verdict per node and stage for `key`: node id → { best, stages: Map(modifier|-1 → status) }.
 * `modifier` -1 stands for the children's fold.
 */
function traceStatus(events, key) {
    const out = new Map();
    for (const e of events) {
        if (e.key !== key) continue;
        let status;
        if (e.e === 'eval' || e.e === 'reduce') status = 'evaluated';
        else if (e.e === 'cached') status = 'cached';
        else if (e.e === 'skip') status = 'skipped';
        else continue;
        let entry = out.get(e.node);
        if (!entry) out.set(e.node, (entry = { best: status, stages: new Map() }));
        if (rank[status] > rank[entry.best]) entry.best = status;
        const stage = e.modifier ?? -1;
        const old = entry.stages.get(stage);
        if (!old || rank[status] > rank[old]) entry.stages.set(stage, status);
    }
    return out;
}

/** Whether each node's output for `key` is present, structurally (SEMANTICS.md §3, last point). */
function structuralPresence(replica, key) {
    const present = new Map();
    const order = [];
    replica.walk((node) => {
        order.push(node);
    });
    for (let i = order.length - 1; i >= 0; i--) {
        const node = order[i];
        let p = DYNAMIC_TYPES.has(node.type) || node.children.some((c) => present.get(c));
        for (const m of node.modifiers) {
            if ((m.kind === 'preference' || m.kind === 'transformPreference') && m.key === key) p = true;
            if (ATTACHING.has(m.kind) && present.get(m.node)) p = true;
        }
        present.set(node.id, p);
    }
    return present;
}

/**
 * For the stage at which `what` (a child list: -1, or an attachment at modifier `index`) is consumed, the status
 * the trace gives, else the status handed down from above.
 */
function stageStatus(entry, index, inherited) {
    if (!entry) return inherited;
    // The fold consumes children; an attachment is consumed by its own pair stage.
    const direct = entry.stages.get(index);
    if (direct) return direct;
    // Not computed this time: it stands as cached if any stage outside it was reused or skipped.
    let outer = null;
    for (const [stage, status] of entry.stages) {
        if (stage > index && (outer === null || stage < outer[0])) outer = [stage, status];
    }
    if (outer && outer[1] !== 'evaluated') return outer[1];
    return inherited;
}

/**
 * Classifies every node of `replica` for `key` given `trace` (the trace of one evaluation, or null when none is
 * known). Returns Map(node id → category name from CATEGORIES).
 */
export function classify(replica, key, trace) {
    const result = new Map();
    const status = traceStatus(trace?.events || [], key);
    const present = structuralPresence(replica, key);

    // Top-down: request state (requested, overridden) and the trace status handed down to unvisited nodes.
    const stack = [[replica.rootId, false, false, null]];
    while (stack.length) {
        const [id, reqOutside, overOutside, inheritedIn] = stack.pop();
        const node = replica.node(id);
        const entry = status.get(id);
        let inherited = inheritedIn;
        const hasReader = node.modifiers.some((m) => m.kind === 'onPreferenceChange' && m.key === key);
        if (hasReader) inherited = null; // a reader starts an evaluation of its own

        let category;
        if (!reqOutside && !hasReader) category = overOutside ? 'overridden' : 'notRequested';
        else if (entry) category = entry.best;
        else if (inherited === 'cached' || inherited === 'skipped') category = inherited;
        else if (!present.get(id)) category = 'absent';
        else category = 'untouched';
        result.set(id, category);

        // Modifiers from the outermost in: readers request, writers override, attachments see the state there.
        let req = reqOutside;
        let over = overOutside;
        const pushes = [];
        for (let i = node.modifiers.length - 1; i >= 0; i--) {
            const m = node.modifiers[i];
            if (m.kind === 'onPreferenceChange' && m.key === key) {
                req = true;
                over = false;
            } else if (m.kind === 'preference' && m.key === key) {
                if (req) over = true;
                req = false;
            } else if (ATTACHING.has(m.kind)) {
                pushes.push([m.node, req, over, stageStatus(entry, i, inherited)]);
            }
        }
        const childStatus = stageStatus(entry, -1, inherited);
        for (let c = node.children.length - 1; c >= 0; c--) {
            stack.push([node.children[c], req, over, childStatus]);
        }
        for (const p of pushes) stack.push(p);
    }
    return result;
}

/** How many nodes fall in each category. */
export function countCategories(classes) {
    const counts = Object.fromEntries(CATEGORIES.map(([name]) => [name, 0]));
    for (const c of classes.values()) counts[c] += 1;
    return counts;
}
