// What an evaluation did with every node for one key (web/js/laziness.mjs), from recorded trees and traces.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { classify, countCategories } from '../../web/js/laziness.mjs';
import { fixture } from './fixtures.mjs';

const FORM = 'SignupForm/0:Form';
const SECTION = `${FORM}/0:Section`;

test('case 6, full evaluation: everything under the reader is evaluated, the root is not requested', () => {
    const { snapshot } = fixture('case6');
    const classes = classify(new Replica(snapshot), 'K', snapshot.trace);
    assert.deepEqual(Object.fromEntries(classes), {
        root: 'notRequested', stack: 'evaluated', a: 'evaluated', group: 'evaluated', b: 'evaluated', c: 'evaluated',
    });
});

test('a key nobody reads is not requested anywhere', () => {
    const { snapshot } = fixture('case6');
    const counts = countCategories(classify(new Replica(snapshot), 'Other', snapshot.trace));
    assert.deepEqual(counts, { evaluated: 0, cached: 0, skipped: 0, overridden: 0, notRequested: 6, absent: 0, untouched: 0 });
});

test('without a trace, requested nodes are absent or not revisited, from the structure alone', () => {
    const { snapshot } = fixture('case6');
    const classes = classify(new Replica(snapshot), 'K', null);
    assert.deepEqual(Object.fromEntries(classes), {
        root: 'notRequested', stack: 'untouched', a: 'untouched', group: 'untouched', b: 'untouched', c: 'untouched',
    });
});

test('the signup keystroke: the typed field is evaluated, the other fields reused, what a writer wraps overridden', () => {
    const { snapshot, diff } = fixture('signup-keystroke');
    const replica = new Replica(snapshot);
    replica.apply(diff);
    const classes = classify(replica, 'ValidationMessages', diff.trace);
    const of = (id) => classes.get(id);
    assert.equal(of('SignupForm'), 'notRequested');
    assert.equal(of(FORM), 'evaluated');
    assert.equal(of(SECTION), 'evaluated');
    assert.equal(of(`${SECTION}/0:ValidatedField`), 'evaluated');
    assert.equal(of(`${SECTION}/0:ValidatedField/0:VStack`), 'evaluated');
    // The VStack's `preference` writer replaces whatever its content produces.
    assert.equal(of(`${SECTION}/0:ValidatedField/0:VStack/0:If`), 'overridden');
    assert.equal(of(`${SECTION}/1:ValidatedField`), 'cached');
    assert.equal(of(`${SECTION}/1:ValidatedField/0:VStack`), 'cached');
    // The second section writes no ValidationMessages.
    assert.equal(of(`${FORM}/1:Section`), 'absent');
    assert.deepEqual(countCategories(classes), { evaluated: 4, cached: 4, skipped: 0, overridden: 12, notRequested: 1, absent: 4, untouched: 0 });
});
