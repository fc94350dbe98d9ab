// Why a version of a program tree happened: its transaction as an ordered list of steps (PROGRAMS.md §6–7) — the
// event or source change that caused it, the closures run, the bodies re-run with what caused each, the cells
// that changed, the reduce calls, the readers that fired, the onPreferenceChange closures that ran, the nodes laid
// out again and the geometry closures that a changed frame ran again (LAYOUT.md §2). No DOM.

import { reduceLines } from './swiftsource.mjs';
import { layoutStepBox, sizeText } from './layoutdraw.mjs';

/** The kinds of step, in the words the timeline shows. */
export const STEP_KINDS = {
    cause: 'cause',
    action: 'action',
    body: 'body',
    state: 'state',
    reduce: 'reduce',
    fire: 'reader fired',
    perform: 'onPreferenceChange',
    onChange: 'onChange',
    layout: 'layout',
    geometry: 'geometry',
};

function short(value, max = 48) {
    if (value === undefined) return '∅';
    const text = JSON.stringify(value);
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** The last path component of a structural id (`SignupForm/0:Form/1:Text` → `1:Text`), for compact labels. */
export function leaf(id) {
    if (typeof id !== 'string') return '';
    const slash = id.lastIndexOf('/');
    return slash < 0 ? id : id.slice(slash + 1);
}

/** What caused the version: an event, a source change, the creation, or (for a snapshot's trace) none. */
function causeStep(diff, version) {
    if (!diff) {
        return { kind: 'cause', text: version === 0 ? 'the tree was created' : `v${version}: full evaluation at subscribe`, node: null };
    }
    if (diff.event) {
        const e = diff.event;
        // A tree-wide event (`resize`) names no node.
        const what = e.event === 'post' ? `post ${e.name}` : e.node ? `${e.event} on ${leaf(e.node)}` : e.event;
        return { kind: 'cause', text: `event ${what} by ${diff.author}, seq ${diff.seq}`, node: e.node ?? null };
    }
    if (typeof diff.source === 'string') {
        return { kind: 'cause', text: `setSource by ${diff.author}, seq ${diff.seq}`, node: null };
    }
    return { kind: 'cause', text: `edit by ${diff.author}`, node: null };
}

/**
 * The steps of one traced version. `diff` is its diff (null for a snapshot's full evaluation), `events` its trace
 * events, `replica` gives the keys' Swift sources (for the line of a reduce). Engine bookkeeping (`eval`, `cached`,
 * `skip`) is left out: the reduce order tab shows it.
 */
export function transactionSteps({ diff, events, version, replica }) {
    const steps = [causeStep(diff, version)];
    const reduceLine = new Map();
    const lineOfReduce = (key) => {
        if (!reduceLine.has(key)) {
            const swift = replica?.keys.get(key)?.swift;
            reduceLine.set(key, typeof swift === 'string' ? reduceLines(swift, key) : null);
        }
        return reduceLine.get(key);
    };
    for (const e of events || []) {
        switch (e.e) {
            case 'action':
                steps.push({
                    kind: 'action', node: e.node ?? null, line: e.line ?? null,
                    text: e.event === 'post' ? `onReceive(${e.name})` : `${e.event} on ${leaf(e.node)}`,
                });
                break;
            case 'body': {
                const because = (e.because || []).length ? ` because ${e.because.join(', ')} changed` : ' (first run)';
                steps.push({ kind: 'body', node: e.node, line: e.line ?? null, text: `${e.view}.body${because}` });
                break;
            }
            case 'state':
                steps.push({ kind: 'state', node: e.node, text: `${e.name} = ${short(e.value)}`, line: null });
                break;
            case 'reduce': {
                const lines = lineOfReduce(e.key);
                const next = e.nextEvaluated ? short(e.next, 24) : 'not evaluated';
                steps.push({
                    kind: 'reduce', node: e.node, key: e.key, line: lines?.start ?? null, lines,
                    text: `${e.key}.reduce(${short(e.value, 24)}, ${next}) → ${short(e.result, 24)}`,
                });
                break;
            }
            case 'fire':
                steps.push({
                    kind: 'fire', node: e.node, line: null,
                    text: `${e.reader} ${e.key} = ${e.present ? short(e.value) : 'absent'}`,
                });
                break;
            case 'perform':
                steps.push({ kind: 'perform', node: e.node, line: e.line ?? null, text: `onPreferenceChange of ${e.reader}` });
                break;
            case 'onChange':
                steps.push({ kind: 'onChange', node: e.node, line: e.line ?? null, text: `onChange of ${leaf(e.node)}` });
                break;
            case 'layout': {
                // `id#index` is the box of the node's layout modifier at `index`; `host` is the node it belongs to.
                const box = layoutStepBox(replica, e.node);
                const kind = box.modifier === null ? '' : ` .${replica.node(box.node).modifiers[box.modifier]?.kind ?? '?'} #${box.modifier}`;
                steps.push({
                    kind: 'layout', node: e.node, host: box.node, line: null,
                    text: `${leaf(box.node)}${kind} proposed ${sizeText(e.proposal)} → ${sizeText(e.size)}`,
                });
                break;
            }
            case 'geometry':
                steps.push({
                    kind: 'geometry', node: e.node, line: e.line ?? null,
                    text: `${leaf(e.node)} read geometry: ran again because its ${e.because ?? 'frame'} changed`,
                });
                break;
            default:
                break;
        }
    }
    return steps;
}

/** How many steps of each kind: `{ body: 2, reduce: 5, … }`. */
export function countSteps(steps) {
    const counts = {};
    for (const s of steps) counts[s.kind] = (counts[s.kind] ?? 0) + 1;
    return counts;
}
