// What the page knows of the open tree's past: the diffs of its versions (live or from the log), the traces of the
// evaluations it saw, and every reader's firing history; and what is derived from them for the version shown
// (laziness colours, reduce order, the transaction's steps), each computed once per input. No DOM.

import { remember, rememberVersion } from './bounded.mjs';
import { classify, countCategories } from './laziness.mjs';
import { reduceForest } from './reduceorder.mjs';
import { transactionSteps } from './transaction.mjs';

/** Diffs kept, newest versions first (the timeline lists 300; a page opens with the log's last 500). */
export const DIFFS_KEPT = 2000;
/** Traces kept: a full evaluation of a big tree holds tens of thousands of events. */
export const TRACES_KEPT = 200;
/** Readers with a firing history; the one that fired longest ago goes first. */
export const READERS_KEPT = 5000;
/** Firings kept per reader, newest versions. */
export const FIRINGS_KEPT = 500;

/** The open tree's history. `openTree` starts over. */
export class History {
    constructor() {
        this.openTree();
    }

    openTree() {
        this.diffs = new Map(); // version → diff
        this.traces = new Map(); // version → { trace, full, keys: the keys its events name }
        this.readerHistory = new Map(); // reader → [{ version, present, value }], by version
        this.lazinessMemo = { replica: null, replicaVersion: null, key: null, trace: null, version: null, classes: null, counts: null };
        this.callsMemo = { trace: null, key: null, calls: { roots: [], calls: [] } };
        this.whyMemo = { key: null, why: null };
    }

    /** A live diff (with its trace, if the subscription asked for traces). */
    noteDiff(diff) {
        rememberVersion(this.diffs, diff.version, diff, DIFFS_KEPT);
        if (diff.trace) this.noteTrace(diff.version, diff.trace, false);
        for (const c of diff.changes) this.noteReader(c.reader, diff.version, c.present, c.value);
    }

    /** A diff from the log (`history`): live diffs already held win, since they carry `before`. */
    noteLoggedDiff(diff) {
        if (!this.diffs.has(diff.version)) rememberVersion(this.diffs, diff.version, diff, DIFFS_KEPT);
        for (const c of diff.changes) this.noteReader(c.reader, diff.version, c.present, c.value);
    }

    /** The trace of version `version`'s evaluation; `full` for a snapshot's (an evaluation from scratch). */
    noteTrace(version, trace, full) {
        rememberVersion(this.traces, version, { trace, full, keys: new Set(trace.events.map((e) => e.key)) }, TRACES_KEPT);
    }

    /** That `reader` had (present, value) at `version`; versions stay sorted, each once. */
    noteReader(reader, version, present, value) {
        let list = this.readerHistory.get(reader);
        if (!list) list = [];
        remember(this.readerHistory, reader, list, READERS_KEPT);
        if (list.length && list[list.length - 1].version >= version) {
            // Already known (history and the live stream overlap), or older than what we hold: keep versions sorted.
            if (list.some((e) => e.version === version)) return;
            list.push({ version, present, value });
            list.sort((a, b) => a.version - b.version);
        } else {
            list.push({ version, present, value });
        }
        if (list.length > FIRINGS_KEPT) list.splice(0, list.length - FIRINGS_KEPT);
    }

    /**
     * The version whose evaluation is shown: `selected` if not null; else the newest whose trace did something for
     * `key` (the last evaluation of that key); else the newest with a trace.
     */
    traceVersion(selected, key) {
        if (selected !== null) return selected;
        let best = null;
        let bestForKey = null;
        for (const [v, { keys }] of this.traces) {
            if (best === null || v > best) best = v;
            if (key && (bestForKey === null || v > bestForKey) && keys.has(key)) bestForKey = v;
        }
        return bestForKey ?? best;
    }

    /** The trace of `version`, or null. */
    traceOf(version) {
        return version === null ? null : this.traces.get(version)?.trace ?? null;
    }

    /**
     * The laziness of the shown evaluation for `key`: `{ version, classes, counts }`, computed once per (replica, its
     * version, key, trace) — the tree view and the legend both ask on every redraw.
     */
    laziness(replica, key, selected) {
        const version = this.traceVersion(selected, key);
        const trace = this.traceOf(version);
        const m = this.lazinessMemo;
        if (m.replica === replica && m.replicaVersion === replica.version && m.key === key && m.trace === trace) {
            m.version = version; // versions without a trace share one classification (trace null)
            return m;
        }
        const classes = classify(replica, key, trace);
        this.lazinessMemo = { replica, replicaVersion: replica.version, key, trace, version, classes, counts: countCategories(classes) };
        return this.lazinessMemo;
    }

    /**
     * The reduce calls of the shown evaluation (for `key`, or all keys), built once per (trace, key): a full
     * evaluation's trace can hold tens of thousands of events.
     */
    calls(key, selected) {
        const trace = this.traceOf(this.traceVersion(selected, key));
        const k = key || null;
        if (this.callsMemo.trace !== trace || this.callsMemo.key !== k) {
            this.callsMemo = { trace, key: k, calls: trace ? reduceForest(trace.events, k) : { roots: [], calls: [] } };
        }
        return this.callsMemo.calls;
    }

    /**
     * The traced versions of a program tree, and the steps of the one shown: `selected` if it has a trace, else the
     * newest. `{ version, steps, versions }`, or null when nothing was traced; built once per (trace, version,
     * replica, oldest and newest traced version).
     */
    why(replica, selected) {
        if (!replica?.isProgram || !this.traces.size) return null;
        const versions = [...this.traces.keys()].sort((a, b) => a - b);
        const version = selected !== null && this.traces.has(selected) ? selected : versions[versions.length - 1];
        const entry = this.traces.get(version);
        const key = [entry.trace, version, replica.epoch, versions[0], versions[versions.length - 1]];
        if (this.whyMemo.key && this.whyMemo.key.every((v, i) => v === key[i])) return this.whyMemo.why;
        const diff = entry.full ? null : this.diffs.get(version) ?? null;
        const steps = transactionSteps({ diff, events: entry.trace.events, version, replica });
        this.whyMemo = { key, why: { version, steps, versions } };
        return this.whyMemo.why;
    }
}
