// Where a node's content is drawn inside its frame (web/js/contentbox.mjs): padding arguments as the daemon sends
// them, and the text model's line heights.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineHeight, paddingInsets, textLines } from '../../web/js/contentbox.mjs';

test('padding: all edges by default 16, a length, an edge set with a length, a list of edges, EdgeInsets', () => {
    const edges = (p) => [p.top, p.leading, p.bottom, p.trailing];
    assert.deepEqual(edges(paddingInsets({})), [16, 16, 16, 16]);
    assert.deepEqual(edges(paddingInsets({ _0: 10 })), [10, 10, 10, 10]);
    assert.deepEqual(edges(paddingInsets({ _0: 'horizontal', _1: 12 })), [0, 12, 0, 12]);
    assert.deepEqual(edges(paddingInsets({ _0: 'vertical', _1: 8 })), [8, 0, 8, 0]);
    assert.deepEqual(edges(paddingInsets({ _0: 'top' })), [16, 0, 0, 0]);
    assert.deepEqual(edges(paddingInsets({ _0: ['top', 'leading'], _1: 4 })), [4, 4, 0, 0]);
    assert.deepEqual(edges(paddingInsets({ _0: { top: 1, leading: 2, bottom: 3, trailing: 4 } })), [1, 2, 3, 4]);
});

test('a line is 1.19336 × the point size on the @3x grid; a box holds the lines it is high', () => {
    assert.equal(lineHeight('body'), 61 / 3); // 20.333, as docs/layout.md pins it
    assert.equal(lineHeight('largeTitle'), 122 / 3);
    assert.equal(lineHeight('title3'), 24);
    assert.equal(lineHeight(undefined), lineHeight('body'));
    assert.equal(textLines(20.333, 'body'), 1);
    assert.equal(textLines(40.667, 'body'), 2);
    assert.equal(textLines(40.667, 'largeTitle'), 1);
    assert.equal(textLines(0, 'body'), 1);
});
