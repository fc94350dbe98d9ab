// The steps of a program's transaction (web/js/transaction.mjs), from a keystroke recorded from canopyd.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { transactionSteps, countSteps, leaf } from '../../web/js/transaction.mjs';
import { fixture } from './fixtures.mjs';

const FIELD = 'SignupForm/0:Form/0:Section/0:ValidatedField';
const TEXT_FIELD = `${FIELD}/0:VStack/0:If/1-0:TextField`;

function keystroke() {
    const { snapshot, diff } = fixture('signup-keystroke');
    const replica = new Replica(snapshot);
    replica.apply(diff);
    return { replica, diff, steps: transactionSteps({ diff, events: diff.trace.events, version: diff.version, replica }) };
}

test('a keystroke: cause, action, state, body, two reduces, reader fired, onPreferenceChange, state, body', () => {
    const { steps } = keystroke();
    assert.deepEqual(steps.map((s) => [s.kind, s.node]), [
        ['cause', TEXT_FIELD],
        ['action', TEXT_FIELD],
        ['state', 'SignupForm'],
        ['body', FIELD],
        ['reduce', 'SignupForm/0:Form/0:Section'],
        ['reduce', 'SignupForm/0:Form/0:Section'],
        ['fire', 'SignupForm/0:Form'],
        ['perform', 'SignupForm/0:Form'],
        ['state', 'SignupForm'],
        ['body', 'SignupForm'],
    ]);
});

test('each step says what happened, in the words of the timeline', () => {
    const { steps } = keystroke();
    assert.equal(steps[0].text, 'event setText on 1-0:TextField by s1, seq 2');
    assert.equal(steps[1].text, 'setText on 1-0:TextField');
    assert.equal(steps[2].text, 'email = "a"');
    assert.equal(steps[3].text, 'ValidatedField.body because email changed');
    assert.ok(steps[5].text.startsWith('ValidationMessages.reduce(["Enter a valid email a…, []) → '));
    assert.equal(steps[7].text, 'onPreferenceChange of SignupForm/0:Form#0');
    assert.equal(steps[9].text, 'SignupForm.body because messages changed');
});

test('steps link to the source lines that ran; a reduce to its key\'s whole reduce function', () => {
    const { steps } = keystroke();
    assert.deepEqual(steps.map((s) => s.line), [undefined, 80, null, 75, 58, 58, null, 121, null, 103]);
    assert.deepEqual(steps[4].lines, { start: 58, end: 60 });
});

test('a snapshot\'s trace is a full evaluation, a version 0 the creation', () => {
    const { snapshot } = fixture('signup-keystroke');
    const replica = new Replica(snapshot);
    const [full] = transactionSteps({ diff: null, events: snapshot.trace.events, version: 7, replica });
    assert.deepEqual(full, { kind: 'cause', text: 'v7: full evaluation at subscribe', node: null });
    assert.equal(transactionSteps({ diff: null, events: [], version: 0, replica })[0].text, 'the tree was created');
});

test('steps are counted by kind, and ids shortened to their last component', () => {
    const { steps } = keystroke();
    assert.deepEqual(countSteps(steps), { cause: 1, action: 1, state: 2, body: 2, reduce: 2, fire: 1, perform: 1 });
    assert.equal(leaf(TEXT_FIELD), '1-0:TextField');
    assert.equal(leaf('root'), 'root');
});

test('layout and geometry steps say what was proposed, what was chosen, and why a closure ran again', () => {
    const events = [
        { e: 'layout', node: 'Feed/0:VStack/0:Text', proposal: [361, null], size: [52.5, 20.33333], depth: 0 },
        { e: 'layout', node: 'Feed/0:VStack', proposal: [null, null], size: [393, 759], depth: 0 },
        { e: 'geometry', node: 'Feed/0:VStack/1:GeometryReader', because: 'frame', line: 12, depth: 0 },
    ];
    const steps = transactionSteps({ diff: { event: { event: 'resize' }, author: 's2', seq: 4 }, events, version: 9, replica: null });
    assert.deepEqual(steps.map((s) => [s.kind, s.text, s.line]), [
        ['cause', 'event resize by s2, seq 4', undefined],
        ['layout', '0:Text proposed 361 × nil → 52.5 × 20.333', null],
        ['layout', '0:VStack proposed nil × nil → 393 × 759', null],
        ['geometry', '1:GeometryReader read geometry: ran again because its frame changed', 12],
    ]);
});
