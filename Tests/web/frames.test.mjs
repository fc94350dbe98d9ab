// The replica's frames against canopyd's: the example programs laid out by the daemon, a scroll, a resize to a device
// and taps applied diff by diff, then compared with a fresh snapshot taken after them (Tests/web/fixtures/). And what
// the Layout tab and the Why tab make of the real frames and traces.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { layoutBoxes, scrollRange } from '../../web/js/layoutdraw.mjs';
import { contentInsets } from '../../web/js/contentbox.mjs';
import { LayoutState } from '../../web/js/layout.mjs';
import { transactionSteps } from '../../web/js/transaction.mjs';
import { fixture } from './fixtures.mjs';

const SCROLL_VIEW = 'CollapsingHeader/0:VStack/1:ScrollView';
const HEADER = 'CollapsingHeader/0:VStack/0:ZStack';
const TITLE = 'CollapsingHeader/0:VStack/0:ZStack/1:Text';

/** Every node of a snapshot's tree, attached subtrees included. */
function* walk(node) {
    yield node;
    for (const m of node.modifiers || []) if (m.node) yield* walk(m.node);
    for (const c of node.children || []) yield* walk(c);
}

/** The replica after the fixture's diffs, and the fresh snapshot to compare it with. */
function replay(name) {
    const { snapshot, diffs, final } = fixture(name);
    const replica = new Replica(snapshot);
    for (const d of diffs) replica.apply(d);
    return { replica, diffs, final };
}

for (const name of ['collapsing-header', 'tab-underline', 'equal-width-columns']) {
    test(`${name}: after the diffs every frame, the canvas and the scroll offsets are the fresh snapshot's`, () => {
        const { replica, final } = replay(name);
        assert.equal(replica.version, final.version);
        assert.deepEqual(replica.canvas, final.canvas);
        assert.deepEqual(Object.fromEntries(replica.scroll), final.program.scroll ?? {});
        for (const node of walk(final.root)) {
            const mine = replica.node(node.id);
            assert.deepEqual(mine.frame, node.frame ?? null, node.id);
            // A layout modifier's box is either right or known to be unknown (diffs carry only the outer frames).
            if (mine.modifierFrames !== null) assert.deepEqual(mine.modifierFrames, node.modifierFrames ?? [], node.id);
        }
        assert.deepEqual(layoutBoxes(replica).map((b) => b.id).sort(),
            [...walk(final.root)].filter((n) => n.frame).map((n) => n.id).sort());
    });
}

test('tab-underline: what a tap did not move keeps its modifiers\' boxes; the underline, moved and resized, does not', () => {
    const { replica, final } = replay('tab-underline');
    const tabs = [...walk(final.root)].filter((n) => n.type === 'Button');
    for (const tab of tabs) assert.deepEqual(replica.node(tab.id).modifierFrames, tab.modifierFrames);
    const underline = [...walk(final.root)].find((n) => n.type === 'Color');
    assert.equal(replica.node(underline.id).modifierFrames, null);
    assert.equal(underline.frame[0], tabs[1].frame[0]);
    assert.equal(underline.frame[2], tabs[1].frame[2]);
});

test('a scroll moves the rows\' modifier boxes with them; a header that changed size forgets its own', () => {
    const { snapshot, diffs } = fixture('collapsing-header');
    const replica = new Replica(snapshot);
    replica.apply(diffs[0]);
    const row = replica.node(`${SCROLL_VIEW}/0:VStack/1:ForEach/[3]:Color`);
    assert.deepEqual(row.modifierFrames.map((m) => m.frame), [row.frame, row.frame]);
    assert.equal(replica.node(HEADER).frame[3], 80);
    assert.equal(replica.node(HEADER).modifierFrames, null);
    assert.deepEqual(scrollRange(replica, SCROLL_VIEW), { x: 0, y: 120, maxX: 0, maxY: 881 });
});

test('a padded Text is drawn 16 points inside its frame, from its modifiers\' boxes or else from its padding', () => {
    const replica = new Replica(fixture('collapsing-header').snapshot);
    assert.deepEqual(contentInsets(replica.node(TITLE)), { top: 16, left: 16, bottom: 16, right: 16 });
    const columns = new Replica(fixture('equal-width-columns').snapshot);
    const ada = contentInsets(columns.node('EqualWidthColumns/0:VStack/0:ForEach/[Ada]:Text'));
    assert.deepEqual(ada, { top: 0, left: 12, bottom: 0, right: 12 + 76.33333333333333 - 53.33333333333333 });
    // Its modifiers' boxes unknown (a diff changed its text), the padding alone still says where the text starts.
    assert.deepEqual(contentInsets({ ...replica.node(TITLE), modifierFrames: null }), { top: 16, right: 16, bottom: 16, left: 16 });
    // Past a `frame` nothing is known: `[Ada]`'s padding is inside its frame(width:).
    const adaUnknown = { ...columns.node('EqualWidthColumns/0:VStack/0:ForEach/[Ada]:Text'), modifierFrames: null };
    assert.deepEqual(contentInsets(adaUnknown), { top: 0, right: 0, bottom: 0, left: 0 });
});

test('the Why tab names a modifier\'s layout box by its kind, and highlights the node it belongs to', () => {
    const { snapshot, diffs } = fixture('collapsing-header');
    const replica = new Replica(snapshot);
    replica.apply(diffs[0]);
    const steps = transactionSteps({ diff: diffs[0], events: diffs[0].trace.events, version: 1, replica });
    const frame = steps.find((s) => s.kind === 'layout' && s.node === `${HEADER}#0`);
    assert.equal(frame.host, HEADER);
    assert.match(frame.text, /^0:ZStack \.frame #0 proposed 393 × /);
    const geometry = steps.find((s) => s.kind === 'geometry');
    assert.equal(geometry.node, `${SCROLL_VIEW}/0:VStack/0:GeometryReader`);
    assert.equal(steps.filter((s) => s.kind === 'layout').length, diffs[0].trace.events.filter((e) => e.e === 'layout').length);
});

test('the hover\'s proposals: the outer box first (what the parent proposed), every probe of one version', () => {
    const { snapshot, diffs } = fixture('collapsing-header');
    const replica = new Replica(snapshot);
    const layout = new LayoutState({ schedule: () => {}, send: () => Promise.resolve() });
    replica.apply(diffs[0]);
    layout.noteTrace(1, diffs[0].trace.events);
    const header = layout.proposalsOf(replica.node(HEADER));
    const probes = diffs[0].trace.events.filter((e) => e.e === 'layout' && e.node === `${HEADER}#0`);
    assert.ok(probes.length > 1); // the VStack asks the header's frame more than once
    assert.deepEqual(header[0], { modifier: 0, version: 1, steps: probes.map((e) => ({ proposal: e.proposal, size: e.size })) });
    assert.equal(header.at(-1).modifier, null);
    replica.apply(diffs[1]);
    layout.noteTrace(2, diffs[1].trace.events);
    assert.equal(layout.proposalsOf(replica.node(HEADER))[0].version, 2);
});

test('an attachment re-sent by setModifiers keeps the frames the diff does not repeat (they did not change)', () => {
    const replica = new Replica(fixture('tab-underline').snapshot);
    const bar = replica.find('HStack');
    const overlay = bar.modifiers.find((m) => m.kind === 'overlay').node;
    const before = replica.node(overlay).frame;
    const ops = [{ op: 'setModifiers', node: bar.id, modifiers: replica.modifiersJSON(bar) }];
    replica.apply({ version: replica.version + 1, ops, changes: [] });
    assert.deepEqual(replica.node(overlay).frame, before);
    assert.deepEqual(replica.node(overlay).modifierFrames, []);
    assert.equal(replica.node(bar.id).modifierFrames, null); // its own modifiers were replaced: their boxes are in doubt
});
