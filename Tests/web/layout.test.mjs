// The Layout pane's state (web/js/layout.mjs): devices, resize values, the latest-value sender behind `resize` and
// `scroll`, scrolling a ScrollView from its frames, dragging the resize edge, and the last layout step per node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { DEVICES, LatestSender, LayoutState, deviceOf, resizeValue } from '../../web/js/layout.mjs';
import { CANVAS, laidOutSnapshot } from './laidout.mjs';

/** A frame scheduler run by hand, and a sender whose sends the test settles. */
function harness() {
    const frames = [];
    const sent = [];
    return {
        frames,
        sent,
        schedule: (callback) => frames.push(callback),
        send: (target, value) => new Promise((resolve) => sent.push({ target, value, settle: resolve })),
        runFrames: async () => {
            for (const f of frames.splice(0)) f();
            await new Promise((resolve) => setImmediate(resolve));
        },
        settle: async (i) => {
            sent[i].settle();
            await new Promise((resolve) => setImmediate(resolve));
        },
    };
}

test('the picker knows the daemon\'s five presets, and a canvas by the device the daemon names, never by its size', () => {
    assert.deepEqual(DEVICES.map((d) => `${d.name} ${d.width}×${d.height} @${d.scale}x`),
        ['iPhone 15 393×852 @3x', 'iPhone 15 Pro Max 430×932 @3x', 'iPhone SE 375×667 @2x', 'iPad 820×1180 @2x',
            'Mac window 800×600 @2x']);
    assert.equal(deviceOf({ ...CANVAS, device: 'iPhone 15' }).name, 'iPhone 15');
    assert.equal(deviceOf({ device: 'iPad' }).name, 'iPad');
    assert.equal(deviceOf(CANVAS), null); // an iPhone 15's size by width and height is a bare host at @1x
    assert.equal(deviceOf({ width: 200, height: 200 }), null);
    assert.equal(deviceOf(null), null);
});

test('a resize asks for whole points between 20 and 100,000', () => {
    assert.deepEqual(resizeValue(393.6, 852.2), { width: 394, height: 852 });
    assert.deepEqual(resizeValue(3, 250000), { width: 20, height: 100000 });
});

test('the sender sends the latest value once per frame, one in flight per target', async () => {
    const t = harness();
    const sender = new LatestSender(t);
    sender.want('a', 1);
    sender.want('a', 2);
    sender.want('b', 'x');
    assert.equal(t.frames.length, 2); // one per target
    assert.equal(sender.pending('a'), 2);
    await t.runFrames();
    assert.deepEqual(t.sent.map((s) => [s.target, s.value]), [['a', 2], ['b', 'x']]);
    sender.want('a', 3);
    sender.want('a', 4);
    assert.equal(t.frames.length, 0); // 'a' is in flight: nothing is scheduled until it settles
    assert.equal(sender.pending('a'), 4);
    await t.runFrames();
    assert.equal(t.sent.length, 2);
    await t.settle(0);
    await t.runFrames();
    assert.deepEqual(t.sent.map((s) => [s.target, s.value]), [['a', 2], ['b', 'x'], ['a', 4]]);
    await t.settle(1);
    await t.settle(2);
    assert.equal(sender.idle, true);
    assert.equal(sender.pending('a'), undefined);
});

test('a rejected send lets the next value go', async () => {
    const frames = [];
    const sent = [];
    const sender = new LatestSender({ schedule: (f) => frames.push(f), send: (_, v) => (sent.push(v), Promise.reject(new Error('rejected'))) });
    sender.want('a', 1);
    frames.shift()();
    sender.want('a', 2);
    await new Promise((resolve) => setImmediate(resolve));
    frames.shift()();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sent, [1, 2]);
    assert.equal(sender.idle, true);
});

test('the wheel scrolls a ScrollView from where its frames say it is, adding up deltas until they are sent', async () => {
    const t = harness();
    const events = [];
    const layout = new LayoutState({ schedule: t.schedule, send: (node, event, value) => (events.push({ node, event, value }), Promise.resolve()) });
    const replica = new Replica(laidOutSnapshot());
    assert.deepEqual(layout.scrollBy(replica, 'list', 0, 50), { x: 0, y: 170 });
    assert.deepEqual(layout.scrollBy(replica, 'list', 0, 30), { x: 0, y: 200 });
    assert.equal(layout.scrollBy(replica, 'list', 10, 0), null); // no room sideways: nothing to send
    await t.runFrames();
    assert.deepEqual(events, [{ node: 'list', event: 'scroll', value: { x: 0, y: 200 } }]);
    assert.deepEqual(layout.scrollBy(replica, 'list', 0, -500), { x: 0, y: 0 });
    assert.equal(layout.scrollBy(replica, 'header', 0, 10), null); // not laid out as a ScrollView: no range
});

test('picking a device sends its name; rotating and dragging the edge send width and height; none names a node', async () => {
    const t = harness();
    const events = [];
    const layout = new LayoutState({ schedule: t.schedule, send: (node, event, value) => (events.push({ node, event, value }), Promise.resolve()) });
    layout.pickDevice('iPhone SE');
    await t.runFrames();
    layout.rotate({ width: 375, height: 667 });
    await t.runFrames();
    layout.startDrag(CANVAS, 0.5);
    layout.dragBy(100, -50);
    layout.dragBy(100.2, -50); // 0.4 points more at this scale: the same whole size, nothing new
    await t.runFrames();
    assert.deepEqual(layout.drag, { scale: 0.5, width: 593, height: 752, startWidth: 393, startHeight: 852 });
    layout.endDrag();
    assert.equal(layout.drag, null);
    assert.deepEqual(events, [
        { node: null, event: 'resize', value: { device: 'iPhone SE' } },
        { node: null, event: 'resize', value: { width: 667, height: 375 } },
        { node: null, event: 'resize', value: { width: 593, height: 752 } },
    ]);
});

test('the layout steps of each box are remembered from the traces, the latest version\'s, for the hover', () => {
    const layout = new LayoutState({ schedule: () => {}, send: () => Promise.resolve() });
    layout.noteTrace(3, [{ e: 'layout', node: 'header', proposal: [361, null], size: [120, 20.333] }, { e: 'body', node: 'Feed' }]);
    layout.noteTrace(4, [
        { e: 'layout', node: 'header', proposal: [300, null], size: [120, 40.667] },
        { e: 'layout', node: 'header#0', proposal: [393, 0], size: [393, 52.333] },
        { e: 'layout', node: 'header#0', proposal: [393, null], size: [393, 72.667] },
    ]);
    assert.deepEqual(layout.layoutOf('header'), { version: 4, steps: [{ proposal: [300, null], size: [120, 40.667] }] });
    assert.equal(layout.layoutOf('header#0').steps.length, 2);
    assert.equal(layout.layoutOf('Feed'), null);
    const header = new Replica(laidOutSnapshot()).node('header');
    assert.deepEqual(layout.proposalsOf(header).map((p) => [p.modifier, p.steps.length]), [[0, 2], [null, 1]]);
    layout.openTree();
    assert.equal(layout.layoutOf('header'), null);
});
