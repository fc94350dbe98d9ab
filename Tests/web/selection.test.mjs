// What the person picked (web/js/selection.mjs) and a program's page-side state (web/js/program.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { Selection } from '../../web/js/selection.mjs';
import { ProgramState, PENDING_NODES_KEPT } from '../../web/js/program.mjs';
import { fixture } from './fixtures.mjs';

/** A Storage that keeps items in a Map. */
function memoryStorage() {
    const items = new Map();
    return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), items };
}

test('the hash round-trips tree, key, node, version and tab (the node tab is the default)', () => {
    const selection = new Selection({ storage: memoryStorage() });
    selection.adopt({ tree: 'case-6', key: 'K', node: 'b', version: 4, tab: 'order' });
    assert.deepEqual(selection.hash(), { tree: 'case-6', key: 'K', node: 'b', version: 4, tab: 'order' });
    selection.setTab('node');
    assert.equal(selection.hash().tab, null);
    selection.adopt({ tree: 'case-6' });
    assert.equal(selection.selected, 'b'); // a hash without a node keeps the selection
    assert.equal(selection.version, null);
});

test('collapsing is saved per tree, and expanding to a node opens its ancestors', () => {
    const storage = memoryStorage();
    const replica = new Replica(fixture('case6').snapshot);
    const selection = new Selection({ storage });
    selection.openTree('case-6');
    selection.collapseAll(replica);
    assert.deepEqual([...selection.collapsed].sort(), ['group', 'stack']);
    assert.equal(storage.items.get('canopy.collapsed.case-6'), JSON.stringify(['stack', 'group']));
    assert.equal(selection.expandTo(replica, 'b'), true);
    assert.deepEqual([...selection.collapsed], []);
    assert.equal(selection.expandTo(replica, 'b'), false);
    selection.toggle('stack');
    const other = new Selection({ storage });
    other.openTree('case-6');
    other.loadCollapsed();
    assert.deepEqual([...other.collapsed], ['stack']);
});

test('steps are clamped to what there is; a new version in the Why tab starts at its first step', () => {
    const selection = new Selection({ storage: memoryStorage() });
    assert.equal(selection.setStep(5, 0), null);
    assert.equal(selection.setStep(5, 3), 2);
    assert.equal(selection.setStep(-1, 3), 0);
    selection.showWhy(7);
    selection.setWhyStep(4, 10);
    selection.showWhy(7);
    assert.equal(selection.whyStep, 4);
    selection.showWhy(8);
    assert.equal(selection.whyStep, 0);
    selection.setKey('K');
    selection.setStep(2, 3);
    selection.selectVersion(3);
    assert.equal(selection.step, 0);
});

test('opening another tree forgets the node, the version, the steps and the collapsed rows, not the key', () => {
    const selection = new Selection({ storage: memoryStorage() });
    selection.adopt({ tree: 'a', key: 'K', node: 'n', version: 2 });
    selection.collapsed.add('x');
    selection.openTree('b');
    assert.deepEqual([selection.treeId, selection.key, selection.selected, selection.version, selection.collapsed.size], ['b', 'K', null, null, 0]);
});

test('events in flight are counted per node and capped', () => {
    const program = new ProgramState();
    program.eventSent('field');
    program.eventSent('field');
    assert.equal(program.isPending('field'), true);
    assert.equal(program.eventSettled('field'), false);
    assert.equal(program.eventSettled('field'), true);
    assert.equal(program.isPending('field'), false);
    for (let i = 0; i <= PENDING_NODES_KEPT; i++) program.eventSent(`n${i}`);
    assert.equal(program.pendingNodes.size, PENDING_NODES_KEPT);
    assert.equal(program.isPending('n0'), false);
});

test('a source that does not compile keeps the draft and its diagnostics; one that does ends the editing', async () => {
    const program = new ProgramState();
    const rejected = Object.assign(new Error('does not compile'), { code: 'compile_error', reply: { diagnostics: [{ line: 3, column: 5, message: 'x' }] } });
    const failing = { setSource: async () => { throw rejected; } };
    const applying = program.applySource(failing, 'bad');
    assert.equal(program.sourceStatus, 'applying…');
    assert.equal(await applying, null);
    assert.deepEqual([program.sourceDraft, program.sourceDiagnosed, program.sourceDiagnostics.length], ['bad', 'bad', 1]);
    assert.equal(program.sourceStatus, 'not applied: compile_error does not compile');
    const diff = await program.applySource({ setSource: async () => ({ version: 9 }) }, 'good');
    assert.deepEqual(diff, { version: 9 });
    assert.deepEqual([program.sourceDraft, program.sourceDiagnostics, program.sourceStatus], [null, [], '']);
});

test('a node is inspected once per version, and an answer for a node no longer selected is dropped', async () => {
    const { snapshot } = fixture('signup-keystroke');
    const replica = new Replica(snapshot);
    const asked = [];
    const client = { isOpen: true, request: async (msg) => (asked.push(msg), { type: 'inspected', node: msg.node, bindings: [] }) };
    let selected = 'SignupForm';
    const state = new ProgramState();
    assert.equal(await state.inspect(client, replica, 'SignupForm', (n) => n === selected), true);
    assert.equal(state.inspected.node, 'SignupForm');
    assert.equal(state.inspect(client, replica, 'SignupForm', (n) => n === selected), null);
    const later = state.inspect(client, replica, 'SignupForm/0:Form', (n) => n === selected);
    selected = 'SignupForm/0:Form/1:Section';
    assert.equal(await later, false);
    assert.equal(state.inspected.node, 'SignupForm');
    assert.deepEqual(asked.map((m) => m.node), ['SignupForm', 'SignupForm/0:Form']);
});
