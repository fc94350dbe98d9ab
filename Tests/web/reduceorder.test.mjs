// The reduce calls of an evaluation as a forest (web/js/reduceorder.mjs), from traces recorded from canopyd.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reduceForest, compact } from '../../web/js/reduceorder.mjs';
import { fixture } from './fixtures.mjs';

/** A call as SEMANTICS.md writes it, with the calls made inside its nextValue. */
function shape(call) {
    const e = call.event;
    return { call: `${e.node}: r(${compact(e.value)}, ${e.nextEvaluated ? compact(e.next) : 'not evaluated'}) → ${compact(e.result)}`, inside: call.children.map(shape) };
}

test('case 6, full evaluation: r(a, (b c)) with r(b, c) run inside its nextValue', () => {
    const { snapshot } = fixture('case6');
    const { roots, calls } = reduceForest(snapshot.trace.events, 'K');
    assert.deepEqual(roots.map(shape), [
        { call: 'stack: r(a, (b c)) → (a (b c))', inside: [{ call: 'group: r(b, c) → (b c)', inside: [] }] },
    ]);
    // Numbered in the order they completed: the nested call first.
    assert.deepEqual(calls.map((c) => c.event.node), ['group', 'stack']);
    assert.equal(calls[0].parent, calls[1]);
    assert.deepEqual(calls.map((c) => c.depth), [2, 1]);
});

test('case 6 after c changed: the group is folded again first, then the stack reuses it (cached), not nested', () => {
    const { diff } = fixture('case6');
    const { roots } = reduceForest(diff.trace.events, 'K');
    assert.deepEqual(roots.map(shape), [
        { call: 'group: r(b, C) → (b C)', inside: [] },
        { call: 'stack: r(a, (b C)) → (a (b C))', inside: [] },
    ]);
});

test('a key that the trace does not name has no calls; no key means every key', () => {
    const { snapshot } = fixture('case6');
    assert.deepEqual(reduceForest(snapshot.trace.events, 'Other'), { roots: [], calls: [] });
    assert.equal(reduceForest(snapshot.trace.events).calls.length, 2);
});

test('a reduce whose nextValue was not called claims nothing', () => {
    const events = [
        { e: 'eval', node: 'v', key: 'K', depth: 1 },
        { e: 'eval', node: 'x', key: 'K', depth: 2 },
        { e: 'skip', node: 'y', key: 'K', depth: 2 },
        { e: 'reduce', node: 'v', key: 'K', value: 'R1', nextEvaluated: false, result: 'R1', depth: 1 },
    ];
    const { roots } = reduceForest(events, 'K');
    assert.deepEqual(roots.map(shape), [{ call: 'v: r(R1, not evaluated) → R1', inside: [] }]);
});

test('the signup keystroke: two folds of ValidationMessages in the Section, side by side', () => {
    const { diff } = fixture('signup-keystroke');
    const { roots, calls } = reduceForest(diff.trace.events, 'ValidationMessages');
    assert.equal(calls.length, 2);
    assert.equal(roots.length, 2);
    assert.deepEqual(calls.map((c) => c.event.node), ['SignupForm/0:Form/0:Section', 'SignupForm/0:Form/0:Section']);
    assert.deepEqual(calls[1].event.result, ['Enter a valid email address', 'Password is required', 'Password must contain a digit']);
});

test('values print as SEMANTICS.md writes them', () => {
    assert.equal(compact('(a b)'), '(a b)');
    assert.equal(compact([1, 2]), '[1,2]');
    assert.equal(compact(undefined), '∅');
});
