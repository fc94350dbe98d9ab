// The geometry the Layout pane draws, from a replica's frames and canvas (LAYOUT.md §2): the scale that fits the
// canvas in the pane, every node's box in paint order with its depth, which boxes are only approximate (Text is
// measured by a text model, not by Apple's fonts), what each ScrollView clips and how far it scrolls, which node
// is under a point, and which box a `layout` trace step names. Pure: no DOM. Coordinates are the canvas's points, origin top-left.

/** Node types whose frames depend on the text model: drawn dashed and labelled approximate. */
export const APPROXIMATE_TYPES = new Set(['Text']);

/** The type whose box scrolls its content (a `scroll` event names it). */
export const SCROLL_VIEW = 'ScrollView';

/** `[x, y, width, height]` as `{ x, y, w, h }`. */
export function rectOf(frame) {
    return { x: frame[0], y: frame[1], w: frame[2], h: frame[3] };
}

function contains(r, x, y) {
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

function intersect(a, b) {
    if (!a) return b;
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    return { x, y, w: Math.max(0, Math.min(a.x + a.w, b.x + b.w) - x), h: Math.max(0, Math.min(a.y + a.h, b.y + b.h) - y) };
}

/** The union of rects, or null for none. */
function union(rects) {
    if (!rects.length) return null;
    const x = Math.min(...rects.map((r) => r.x));
    const y = Math.min(...rects.map((r) => r.y));
    return { x, y, w: Math.max(...rects.map((r) => r.x + r.w)) - x, h: Math.max(...rects.map((r) => r.y + r.h)) - y };
}

/**
 * The scale at which a `canvas` ({ width, height }) fits a pane of `width` × `height` CSS pixels, less `margin` on
 * each side; never above `max` (a 200×200 canvas is not blown up to fill a big pane), never 0.
 */
export function fitScale(canvas, width, height, { margin = 12, max = 2 } = {}) {
    if (!canvas?.width || !canvas?.height) return 1;
    const s = Math.min((width - 2 * margin) / canvas.width, (height - 2 * margin) / canvas.height, max);
    return s > 0 ? s : 0.01;
}

/** The part of `canvas` inside its safe area, as a rect. */
export function safeAreaRect(canvas) {
    const a = { top: 0, bottom: 0, leading: 0, trailing: 0, ...(canvas.safeArea || {}) };
    return { x: a.leading, y: a.top, w: canvas.width - a.leading - a.trailing, h: canvas.height - a.top - a.bottom };
}

/**
 * The boxes to draw for `replica`, in paint order (a node, its backgrounds, its children, its overlays), each
 * `{ id, type, x, y, w, h, depth, approximate, scrolls, clip, modifiers }`: `depth` counts from the root (an attached
 * subtree one below its host), `clip` is the visible part (inside every enclosing ScrollView) or null when nothing
 * clips it, `modifiers` the node's layout modifiers' own boxes `{ modifier, kind, x, y, w, h }`. Nodes without a
 * frame have no box; what is under them still does.
 */
export function layoutBoxes(replica) {
    const boxes = [];
    if (!replica) return boxes;
    const visit = (id, depth, clip) => {
        const node = replica.node(id);
        if (!node) return;
        let inner = clip;
        if (node.frame) {
            const r = rectOf(node.frame);
            boxes.push({
                id, type: node.type, ...r, depth, clip,
                approximate: APPROXIMATE_TYPES.has(node.type),
                scrolls: node.type === SCROLL_VIEW,
                modifiers: modifierBoxes(node),
            });
            if (node.type === SCROLL_VIEW) inner = intersect(clip, r);
        }
        const attached = (kind) => node.modifiers.filter((m) => m.kind === kind && m.node).map((m) => m.node);
        for (const b of attached('background')) visit(b, depth + 1, inner);
        for (const c of node.children) visit(c, depth + 1, inner);
        for (const o of attached('overlay')) visit(o, depth + 1, inner);
    };
    visit(replica.rootId, 0, null);
    return boxes;
}

/** A node's layout modifiers' own boxes: `{ modifier, kind, x, y, w, h }`. */
function modifierBoxes(node) {
    return (node.modifierFrames ?? []).map((m) => ({ modifier: m.modifier, kind: node.modifiers[m.modifier]?.kind ?? '?', ...rectOf(m.frame) }));
}

/** Whether any part of `box` can be seen (its clip is not empty). */
export function isVisible(box) {
    if (!box.clip) return true;
    const seen = intersect(box.clip, box);
    return seen.w > 0 && seen.h > 0;
}

/**
 * The box under point (x, y) in canvas coordinates: the deepest one containing it (and whose clip contains it);
 * between boxes of the same depth, the one painted last. Null when the point hits nothing.
 */
export function hitTest(boxes, x, y) {
    let best = null;
    for (const b of boxes) {
        if (!contains(b, x, y) || (b.clip && !contains(b.clip, x, y))) continue;
        if (!best || b.depth >= best.depth) best = b;
    }
    return best;
}

/** The nearest ScrollView at or above node `id` (through attachments), or null. */
export function scrollViewAt(replica, id) {
    for (let at = id; at != null; at = replica.above(at)) {
        if (replica.node(at)?.type === SCROLL_VIEW) return at;
    }
    return null;
}

/**
 * How far ScrollView `id` is scrolled and can be: the offset the daemon last reported (`replica.scroll`), else the one
 * the frames show (its content, its children, starts at its top-leading corner moved back by the offset); the most
 * is the content's size less the view's. `{ x, y, maxX, maxY }`, or null without frames.
 */
export function scrollRange(replica, id) {
    const node = replica.node(id);
    if (!node?.frame) return null;
    const view = rectOf(node.frame);
    const content = union(node.children.map((c) => replica.node(c)?.frame).filter(Boolean).map(rectOf));
    if (!content) return { x: 0, y: 0, maxX: 0, maxY: 0 };
    const reported = replica.scroll?.get(id);
    return {
        x: reported ? reported[0] : Math.max(0, view.x - content.x),
        y: reported ? reported[1] : Math.max(0, view.y - content.y),
        maxX: Math.max(0, content.w - view.w),
        maxY: Math.max(0, content.h - view.h),
    };
}

/**
 * The node and layout box a `layout` trace step names: `id` is the node's own content, `id#index` the box of its
 * modifier at `index`. `{ node, modifier }` (modifier null for the content); the name as a node when the replica
 * knows neither.
 */
export function layoutStepBox(replica, name) {
    if (!replica || replica.node(name)) return { node: name, modifier: null };
    const m = /^(.*)#(\d+)$/.exec(name);
    return m && replica.node(m[1]) ? { node: m[1], modifier: Number(m[2]) } : { node: name, modifier: null };
}

/** An offset within `range`, rounded to the canvas's pixel grid (1/scale). */
export function clampScroll(range, x, y, scale = 1) {
    const grid = (v) => Math.round(v * scale) / scale;
    return { x: grid(Math.max(0, Math.min(range.maxX, x))), y: grid(Math.max(0, Math.min(range.maxY, y))) };
}

/** A number as the pane shows it: at most three decimals (a @3x pixel grid gives 20.333). */
export function points(v) {
    return v === null || v === undefined ? 'nil' : String(Math.round(v * 1000) / 1000);
}

/** `[x, y, w, h]` as `(x, y) w × h`. */
export function frameText(frame) {
    return `(${points(frame[0])}, ${points(frame[1])}) ${points(frame[2])} × ${points(frame[3])}`;
}

/** A proposal or size `[w|null, h|null]` as `w × h` (nil for an unspecified dimension). */
export function sizeText(size) {
    return Array.isArray(size) ? `${points(size[0])} × ${points(size[1])}` : '?';
}

