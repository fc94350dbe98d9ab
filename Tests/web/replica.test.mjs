// The client library's Replica: built from a snapshot, kept in step by applying diffs in version order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica, cellKey } from '../../web/js/canopy-client.mjs';
import { fixture } from './fixtures.mjs';
import { CANVAS, laidOutSnapshot } from './laidout.mjs';

const TEXT_FIELD = 'SignupForm/0:Form/0:Section/0:ValidatedField/0:VStack/0:If/1-0:TextField';
const MESSAGES = 'SignupForm/0:Form/0:Section/0:ValidatedField/0:VStack/1:ForEach';

/** A small data tree: a root with a VStack (a reader of K) holding a and b, and b with a background. */
function smallSnapshot() {
    return {
        type: 'snapshot', tree: 't', version: 3, keys: [{ key: 'K', reducer: 'sum', default: 0 }],
        root: {
            id: 'root', type: 'Root', children: [{
                id: 'stack', type: 'VStack', modifiers: [{ kind: 'onPreferenceChange', key: 'K' }], children: [
                    { id: 'a', type: 'Text', props: { text: 'A' }, modifiers: [{ kind: 'preference', key: 'K', value: 1 }] },
                    { id: 'b', type: 'Text', modifiers: [{ kind: 'background', node: { id: 'bg', type: 'Color' } }] },
                ],
            }],
        },
        readers: [{ reader: 'stack#0', node: 'stack', key: 'K', present: true, value: 1 }],
    };
}

test('a snapshot builds every node, with its parent and the host of an attached subtree', () => {
    const r = new Replica(smallSnapshot());
    assert.equal(r.size, 5);
    assert.equal(r.version, 3);
    assert.equal(r.isProgram, false);
    assert.deepEqual(r.node('stack').children, ['a', 'b']);
    assert.equal(r.node('a').parent, 'stack');
    assert.deepEqual(r.node('bg').attach, { host: 'b', index: 0, kind: 'background' });
    assert.equal(r.above('bg'), 'b');
    assert.deepEqual(r.readers(), [{ reader: 'stack#0', node: 'stack', key: 'K', present: true, value: 1 }]);
    const order = [];
    r.walk((node, depth) => order.push(`${node.id}@${depth}`));
    assert.deepEqual(order, ['root@0', 'stack@1', 'a@2', 'b@2', 'bg@3']);
});

test('a diff applies its ops, its reader changes and its version, and says what it touched', () => {
    const r = new Replica(smallSnapshot());
    const applied = r.apply({
        version: 4,
        ops: [
            { op: 'insert', parent: 'stack', node: { id: 'c', type: 'Text', modifiers: [{ kind: 'preference', key: 'K', value: 2 }] }, index: 1 },
            { op: 'setProps', node: 'a', props: { text: 'A2', color: 'red' } },
            { op: 'move', node: 'b', parent: 'root', index: 0 },
        ],
        changes: [{ reader: 'stack#0', node: 'stack', key: 'K', present: true, value: 3 }],
    });
    assert.equal(r.version, 4);
    assert.equal(applied.structural, true);
    assert.deepEqual([...applied.touched].sort(), ['a', 'b', 'c', 'root', 'stack']);
    assert.deepEqual(applied.before.get('stack#0'), { present: true, value: 1 });
    assert.deepEqual(r.toJSON(), {
        id: 'root', type: 'Root', children: [
            { id: 'b', type: 'Text', modifiers: [{ kind: 'background', node: { id: 'bg', type: 'Color' } }] },
            {
                id: 'stack', type: 'VStack', modifiers: [{ kind: 'onPreferenceChange', key: 'K' }], children: [
                    { id: 'a', type: 'Text', props: { text: 'A2', color: 'red' }, modifiers: [{ kind: 'preference', key: 'K', value: 1 }] },
                    { id: 'c', type: 'Text', modifiers: [{ kind: 'preference', key: 'K', value: 2 }] },
                ],
            },
        ],
    });
    assert.deepEqual(r.readers()[0], { reader: 'stack#0', node: 'stack', key: 'K', present: true, value: 3 });
});

test('removing a node forgets its subtree, and replacing modifiers drops the old attachments and readers', () => {
    const r = new Replica(smallSnapshot());
    r.apply({ version: 4, ops: [{ op: 'remove', node: 'b' }], changes: [] });
    assert.equal(r.node('b'), undefined);
    assert.equal(r.node('bg'), undefined);
    assert.equal(r.size, 3);
    r.apply({ version: 5, ops: [{ op: 'setModifiers', node: 'stack', modifiers: [{ kind: 'overlay', node: { id: 'ov', type: 'Color' } }] }], changes: [] });
    assert.deepEqual(r.node('ov').attach, { host: 'stack', index: 0, kind: 'overlay' });
    assert.deepEqual(r.readers(), []);
    assert.equal(r.readerValues.has('stack#0'), false);
    r.apply({ version: 6, ops: [{ op: 'setPreference', node: 'a', key: 'K', value: 9 }, { op: 'declareKey', key: 'L', reducer: 'max', default: 0 }], changes: [] });
    assert.deepEqual(r.node('a').modifiers, [{ kind: 'preference', key: 'K', value: 9 }]);
    assert.deepEqual(r.keys.get('L'), { key: 'L', reducer: 'max', default: 0 });
    r.apply({ version: 7, ops: [{ op: 'removePreference', node: 'a', key: 'K' }], changes: [] });
    assert.deepEqual(r.node('a').modifiers, []);
});

test('a diff that does not follow the replica\'s version is refused and changes nothing', () => {
    const r = new Replica(smallSnapshot());
    assert.throws(() => r.apply({ version: 5, ops: [{ op: 'remove', node: 'a' }], changes: [] }), /does not follow version 3/);
    assert.equal(r.version, 3);
    assert.ok(r.node('a'));
});

test('SEMANTICS.md case 6: the recorded diff sets c\'s value and the reader\'s', () => {
    const { snapshot, diff } = fixture('case6');
    const r = new Replica(snapshot);
    assert.deepEqual(r.readers().map((x) => x.value), ['(a (b c))']);
    const applied = r.apply(diff);
    assert.equal(r.version, 1);
    assert.deepEqual(r.node('c').modifiers, [{ kind: 'preference', key: 'K', value: 'C' }]);
    assert.deepEqual(r.readers().map((x) => x.value), ['(a (b C))']);
    assert.deepEqual([...applied.touched].sort(), ['c', 'stack']);
    assert.equal(applied.structural, false);
});

test('a program\'s keystroke diff updates the field, the messages ForEach, the cells and nothing else', () => {
    const { snapshot, diff } = fixture('signup-keystroke');
    const r = new Replica(snapshot);
    const size = r.size;
    assert.equal(r.isProgram, true);
    assert.equal(r.program.view, 'SignupForm');
    assert.equal(r.cells.get(cellKey('SignupForm', 'email')).value, '');
    r.apply(diff);
    assert.equal(r.size, size); // one message Text removed, one inserted
    assert.equal(r.node(TEXT_FIELD).props.text, 'a');
    assert.deepEqual(r.node(MESSAGES).children, [`${MESSAGES}/[Enter a valid email address]:Text`]);
    assert.equal(r.cells.get(cellKey('SignupForm', 'email')).value, 'a');
    assert.deepEqual(r.cellsOf('SignupForm').map((c) => c.name).sort(), ['confirmation', 'email', 'messages', 'password']);
    assert.deepEqual(r.cells.get(cellKey('SignupForm', 'messages')).value,
        ['Enter a valid email address', 'Password is required', 'Password must contain a digit']);
    assert.ok(r.node(TEXT_FIELD).rev >= 1);
});

test('the replica keeps the canvas, the text model, every frame and the layout modifiers\' frames', () => {
    const r = new Replica(laidOutSnapshot());
    assert.deepEqual(r.canvas, CANVAS);
    assert.equal(r.textModel, 'canopy-text-1');
    assert.deepEqual(r.node('header').frame, [0, 59, 393, 52.333]);
    assert.deepEqual(r.node('header').modifierFrames, [{ modifier: 0, frame: [0, 59, 393, 52.333] }]);
    assert.deepEqual(r.node('badge').frame, [350, 75, 27, 20.333]);
    assert.equal(r.toJSON().frame, undefined); // frames are the daemon's, not part of a copied subtree
});

test('a diff\'s frames move only the nodes it names; an inserted node brings its own; the canvas can change', () => {
    const r = new Replica(laidOutSnapshot());
    const rev = r.layoutRev;
    const applied = r.apply({
        version: 3, changes: [],
        ops: [{ op: 'insert', parent: 'rows', node: { id: 'row9', type: 'Text', frame: [0, 400, 393, 44] } }, { op: 'remove', node: 'row1' }],
        frames: [{ node: 'rows', frame: [0, -20.667, 393, 2000] }, { node: 'header', frame: [16, 75, 300, 20.333], modifierFrames: [] }],
    });
    assert.equal(applied.frames, 2);
    assert.deepEqual(r.node('rows').frame, [0, -20.667, 393, 2000]);
    assert.deepEqual(r.node('header').frame, [16, 75, 300, 20.333]);
    assert.deepEqual(r.node('header').modifierFrames, []);
    assert.deepEqual(r.node('row5').frame, [0, 200, 393, 44]);
    assert.deepEqual(r.node('row9').frame, [0, 400, 393, 44]);
    assert.equal(r.node('row1'), undefined);
    assert.equal(r.layoutRev, rev + 1);
    r.apply({ version: 4, ops: [], changes: [], canvas: { width: 852, height: 393, scale: 3 } });
    assert.deepEqual(r.canvas, { width: 852, height: 393, scale: 3 });
    assert.equal(r.layoutRev, rev + 2);
    assert.equal(r.apply({ version: 5, ops: [], changes: [] }).frames, 0);
    assert.equal(r.layoutRev, rev + 2);
});
