// What the page keeps of a tree's past (web/js/history.mjs, web/js/bounded.mjs): every map capped, oldest first.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { remember, rememberVersion } from '../../web/js/bounded.mjs';
import { History, DIFFS_KEPT, TRACES_KEPT, FIRINGS_KEPT, READERS_KEPT } from '../../web/js/history.mjs';
import { fixture } from './fixtures.mjs';

const diff = (version, changes = []) => ({ version, author: 's1', seq: version, ops: [], changes });

test('remember keeps the last entries set, a key set again counting as new', () => {
    const map = new Map();
    for (const k of ['a', 'b', 'c']) remember(map, k, k.toUpperCase(), 2);
    assert.deepEqual([...map], [['b', 'B'], ['c', 'C']]);
    remember(map, 'b', 'B2', 2);
    remember(map, 'd', 'D', 2);
    assert.deepEqual([...map], [['b', 'B2'], ['d', 'D']]);
});

test('rememberVersion drops the lowest versions, whatever order they came in', () => {
    const map = new Map();
    for (const v of [10, 11, 3, 12, 1]) rememberVersion(map, v, `v${v}`, 3);
    assert.deepEqual([...map.keys()].sort((a, b) => a - b), [10, 11, 12]);
});

test('diffs are capped at DIFFS_KEPT, keeping the newest versions', () => {
    const history = new History();
    for (let v = 1; v <= DIFFS_KEPT + 25; v++) history.noteDiff(diff(v));
    assert.equal(history.diffs.size, DIFFS_KEPT);
    assert.equal(Math.min(...history.diffs.keys()), 26);
    // A page of the log older than everything held is not kept.
    history.noteLoggedDiff(diff(5));
    assert.equal(history.diffs.has(5), false);
});

test('traces are capped at TRACES_KEPT; the shown version is the newest that names the key', () => {
    const history = new History();
    for (let v = 1; v <= TRACES_KEPT + 10; v++) {
        history.noteTrace(v, { events: [{ e: 'eval', node: 'n', key: v % 2 ? 'Odd' : 'Even' }] }, false);
    }
    assert.equal(history.traces.size, TRACES_KEPT);
    assert.equal(history.traces.has(10), false);
    assert.equal(history.traceVersion(null, 'Odd'), TRACES_KEPT + 9);
    assert.equal(history.traceVersion(null, 'Even'), TRACES_KEPT + 10);
    assert.equal(history.traceVersion(null, ''), TRACES_KEPT + 10);
    assert.equal(history.traceVersion(42, 'Odd'), 42);
});

test('a reader\'s history stays sorted, each version once, capped at FIRINGS_KEPT', () => {
    const history = new History();
    history.noteReader('r#0', 5, true, 'five');
    history.noteReader('r#0', 3, true, 'three');
    history.noteReader('r#0', 5, true, 'five again');
    assert.deepEqual(history.readerHistory.get('r#0'), [
        { version: 3, present: true, value: 'three' }, { version: 5, present: true, value: 'five' },
    ]);
    for (let v = 6; v < 6 + FIRINGS_KEPT; v++) history.noteReader('r#0', v, false);
    const list = history.readerHistory.get('r#0');
    assert.equal(list.length, FIRINGS_KEPT);
    assert.equal(list[0].version, 6);
});

test('readers with a history are capped at READERS_KEPT; the one that fired longest ago goes first', () => {
    const history = new History();
    for (let i = 0; i <= READERS_KEPT; i++) history.noteReader(`n${i}#0`, 1, true, i);
    history.noteReader('n1#0', 2, true, 'again');
    history.noteReader('extra#0', 2, true, 'x');
    assert.equal(history.readerHistory.size, READERS_KEPT);
    assert.equal(history.readerHistory.has('n0#0'), false);
    assert.equal(history.readerHistory.has('n2#0'), false);
    assert.equal(history.readerHistory.has('n1#0'), true);
});

test('a live diff brings its trace and its readers\' values', () => {
    const history = new History();
    const { diff: d } = fixture('case6');
    history.noteDiff(d);
    assert.equal(history.traces.get(1).full, false);
    assert.deepEqual(history.readerHistory.get('stack#0'), [{ version: 1, present: true, value: '(a (b C))' }]);
});

test('laziness, reduce order and transaction steps are computed once per input', () => {
    const { snapshot, diff: d } = fixture('signup-keystroke');
    const replica = new Replica(snapshot);
    replica.apply(d);
    const history = new History();
    history.noteTrace(0, snapshot.trace, true);
    history.noteDiff(d);
    const lazy = history.laziness(replica, 'ValidationMessages', null);
    assert.equal(lazy.version, 1);
    assert.equal(lazy.classes.get('SignupForm/0:Form'), 'evaluated');
    assert.equal(history.laziness(replica, 'ValidationMessages', null), lazy);
    const calls = history.calls('ValidationMessages', null);
    assert.equal(calls.calls.length, 2);
    assert.equal(history.calls('ValidationMessages', null), calls);
    const why = history.why(replica, null);
    assert.deepEqual(why.versions, [0, 1]);
    assert.equal(why.version, 1);
    assert.equal(why.steps[0].kind, 'cause');
    assert.equal(history.why(replica, null), why);
    assert.equal(history.why(replica, 0).steps[0].text, 'the tree was created');
    history.openTree();
    assert.equal(history.why(replica, null), null);
});
