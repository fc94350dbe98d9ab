// The geometry the Layout pane draws (web/js/layoutdraw.mjs), from a laid-out tree.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../web/js/canopy-client.mjs';
import { layoutBoxes, hitTest, isVisible, fitScale, safeAreaRect, scrollViewAt, scrollRange, clampScroll, frameText, sizeText } from '../../web/js/layoutdraw.mjs';
import { CANVAS, laidOutSnapshot } from './laidout.mjs';

const replica = () => new Replica(laidOutSnapshot());

test('boxes come in paint order with their depth: a node, its children, then its overlays', () => {
    const boxes = layoutBoxes(replica());
    assert.deepEqual(boxes.map((b) => `${b.id}@${b.depth}`), ['Feed@0', 'stack@1', 'header@2', 'badge@3', 'list@2', 'rows@3', 'row1@4', 'row5@4']);
    assert.deepEqual(boxes.filter((b) => b.approximate).map((b) => b.id), ['header', 'row1', 'row5']);
    assert.deepEqual(boxes.filter((b) => b.scrolls).map((b) => b.id), ['list']);
    const header = boxes.find((b) => b.id === 'header');
    assert.deepEqual([header.x, header.y, header.w, header.h], [0, 59, 393, 52.333]);
    assert.deepEqual(header.modifiers, [{ modifier: 0, kind: 'padding', x: 0, y: 59, w: 393, h: 52.333 }]);
});

test('what a ScrollView holds is clipped to it: a row scrolled out of view is not visible', () => {
    const boxes = layoutBoxes(replica());
    const of = (id) => boxes.find((b) => b.id === id);
    assert.equal(of('header').clip, null);
    assert.deepEqual(of('rows').clip, { x: 0, y: 119.333, w: 393, h: 698.667 });
    assert.equal(isVisible(of('row1')), false);
    assert.equal(isVisible(of('row5')), true);
    assert.equal(isVisible(of('list')), true);
});

test('a point hits the deepest box under it, and nothing that is clipped away', () => {
    const boxes = layoutBoxes(replica());
    const at = (x, y) => hitTest(boxes, x, y)?.id ?? null;
    assert.equal(at(20, 80), 'header');
    assert.equal(at(360, 80), 'badge');
    assert.equal(at(10, 220), 'row5');
    assert.equal(at(10, 130), 'rows');
    assert.equal(at(10, 30), null); // above the safe area: no view there
    assert.equal(at(5, 113), 'stack'); // between the header and the list
    assert.equal(at(400, 500), null);
});

test('a ScrollView\'s offset and range come from its content\'s frames, clamped to the pixel grid', () => {
    const r = replica();
    assert.equal(scrollViewAt(r, 'row5'), 'list');
    assert.equal(scrollViewAt(r, 'list'), 'list');
    assert.equal(scrollViewAt(r, 'header'), null);
    const range = scrollRange(r, 'list');
    assert.deepEqual(range, { x: 0, y: 120, maxX: 0, maxY: 2000 - 698.667 });
    assert.deepEqual(clampScroll(range, 30, 5000, 3), { x: 0, y: 3904 / 3 }); // 1301.333: whole pixels at @3x
    assert.deepEqual(clampScroll(range, 0, -4, 3), { x: 0, y: 0 });
    assert.deepEqual(clampScroll(range, 0, 10.1, 3), { x: 0, y: 10 });
});

test('the canvas is scaled to fit the pane, never blown up more than twice', () => {
    assert.equal(fitScale(CANVAS, 600, 900), (900 - 24) / 852);
    assert.equal(fitScale(CANVAS, 300, 2000), (300 - 24) / 393);
    assert.equal(fitScale({ width: 200, height: 200 }, 1000, 1000), 2);
    assert.equal(fitScale(CANVAS, 0, 0), 0.01);
    assert.deepEqual(safeAreaRect(CANVAS), { x: 0, y: 59, w: 393, h: 759 });
    assert.deepEqual(safeAreaRect({ width: 200, height: 200 }), { x: 0, y: 0, w: 200, h: 200 });
});

test('frames and sizes print with at most three decimals, nil for an open dimension', () => {
    assert.equal(frameText([16, 59, 361, 20.33333333]), '(16, 59) 361 × 20.333');
    assert.equal(sizeText([361, null]), '361 × nil');
});
