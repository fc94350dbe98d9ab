// The reduce calls of one evaluation as a forest: a call's children are the calls that ran inside its nextValue.
// Trace events are in execution order and carry `depth` (docs/protocol.md): the operand a reduce at depth d
// evaluated through nextValue starts with the last eval/cached event at depth d + 1 before it, and every call after
// that marker ran inside it. Pure: no DOM.

/**
 * Builds the forest of reduce calls for `events` (optionally only those of `key`). Returns
 * `{ roots, calls }`: `calls` is every call in execution order (the order the trace lists them, which is the
 * order they completed), each `{ event, index, depth, children, parent }`.
 */
export function reduceForest(events, key = null) {
    const list = key ? events.filter((e) => e.key === key) : events;
    const calls = [];
    const open = []; // calls not yet claimed by an enclosing call, in order
    for (let i = 0; i < list.length; i++) {
        const e = list[i];
        if (e.e !== 'reduce') continue;
        const call = { event: e, index: i, depth: e.depth ?? 0, children: [], parent: null };
        if (e.nextEvaluated) {
            const marker = operandStart(list, i, call.depth);
            if (marker >= 0) {
                let first = open.length;
                while (first > 0 && open[first - 1].index > marker) first -= 1;
                call.children = open.splice(first);
                for (const child of call.children) child.parent = call;
            }
        }
        open.push(call);
        calls.push(call);
    }
    return { roots: open, calls };
}

/** The index of the event that starts the nextValue operand of the reduce at `i` (depth `d`), or -1. */
function operandStart(list, i, d) {
    for (let j = i - 1; j >= 0; j--) {
        const e = list[j];
        const depth = e.depth ?? 0;
        if (depth <= d) return -1;
        if (depth === d + 1 && (e.e === 'eval' || e.e === 'cached')) return j;
    }
    return -1;
}

/** A value as SEMANTICS.md writes it: strings bare, everything else as JSON. */
export function compact(value) {
    if (value === undefined) return '∅';
    return typeof value === 'string' ? value : JSON.stringify(value);
}
