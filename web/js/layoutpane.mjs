// The Layout tab: the laid-out canvas of a program tree (LAYOUT.md §2, §5), scaled to fit. Every node's frame is
// outlined (Text dashed and marked approximate), the live view is drawn at its frames, hovering shows a node's type,
// frame and proposals, clicking selects it. The device picker sends `resize` by device name, the rotate button and
// the bottom-right edge by width and height; the wheel or a drag over a ScrollView sends `scroll`. Elements are
// patched in place, like the live view.

import { h, fill } from './dom.mjs';
import { Preview } from './preview.mjs';
import { DEVICES, deviceOf } from './layout.mjs';
import { fitScale, frameText, hitTest, isVisible, layoutBoxes, points, safeAreaRect, scrollViewAt, sizeText } from './layoutdraw.mjs';
import { leaf } from './transaction.mjs';

/** Modifiers that have a box of their own (`modifierFrames`), for saying when those boxes are not known. */
const LAYOUT_MODIFIERS = new Set(['frame', 'padding', 'fixedSize', 'offset', 'position', 'aspectRatio', 'background', 'overlay']);

/** A press that moves less than this (CSS pixels) is a click, not a drag. */
const DRAG_THRESHOLD = 4;

export class LayoutPane {
    #boxes = [];
    #boxesKey = null;
    #elements = new Map(); // node id → its outline element
    #scale = 1;
    #offset = { x: 0, y: 0 }; // where the scaled canvas starts in the stage
    #model = null;
    #press = null; // a pointer pressed on the canvas: { x, y, scrollView, scrolling, at }
    #pointer = null; // where the pointer last was over the stage (client coordinates), for the hover card
    #dragged = false; // the last press scrolled: the click that ends it selects nothing

    /**
     * `layout` is the page's LayoutState; `onSelect(id)` selects a node; `send(node, event, value)` and
     * `pending(node)` are the live view's (see Preview).
     */
    constructor(root, { layout, onSelect, send, pending }) {
        this.root = root;
        this.layout = layout;
        this.onSelect = onSelect;
        this.device = h('select', { id: 'layout-device', 'aria-label': 'device', onchange: () => layout.pickDevice(this.device.value) });
        this.size = h('span', { id: 'layout-size', class: 'note' });
        this.note = h('p', { id: 'layout-note', class: 'note' });
        this.safeArea = h('div', { class: 'layout-safe-area', id: 'layout-safe-area' });
        this.live = h('div', { class: 'layout-live', id: 'layout-live' });
        this.outlines = h('div', { class: 'layout-boxes', id: 'layout-boxes' });
        this.ghost = h('div', { class: 'layout-ghost', id: 'layout-ghost', hidden: true });
        this.canvas = h('div', { class: 'layout-canvas', id: 'layout-canvas' }, this.safeArea, this.live, this.outlines, this.ghost);
        this.handle = h('div', { class: 'layout-resize', id: 'layout-resize', title: 'drag to resize the canvas' });
        this.stage = h('div', { class: 'layout-stage', id: 'layout-stage' }, this.canvas, this.handle);
        this.card = h('div', { class: 'layout-hover', id: 'layout-hover', hidden: true });
        const rotate = h('button', {
            type: 'button', id: 'layout-rotate', title: 'swap width and height',
            onclick: () => this.#model && layout.rotate(this.#model.replica.canvas),
        }, '⟲ Rotate');
        this.body = h('div', { class: 'layout-body' },
            h('div', { class: 'button-row layout-toolbar' }, this.device, rotate, this.size), this.stage, this.card, this.note);
        this.preview = new Preview(this.live, { send, pending, onSelect, positioned: true });
        this.#wire();
        new ResizeObserver(() => this.#model && this.draw(this.#model)).observe(this.stage);
    }

    /** Draws `model` ({ replica, selected }); a replica without a canvas shows a note instead. */
    draw(model) {
        const { replica } = model;
        if (!replica?.canvas) {
            this.clear();
            fill(this.root, h('p', { class: 'empty', id: 'layout-note' }, replica?.isProgram
                ? 'This program has no canvas: the daemon has not laid it out.'
                : 'Only a program tree is laid out (it needs a canvas).'));
            return;
        }
        this.#model = model;
        if (this.root.firstChild !== this.body) fill(this.root, this.body);
        const canvas = replica.canvas;
        this.#toolbar(replica);
        this.#scale = this.layout.drag?.scale ?? fitScale(canvas, this.stage.clientWidth, this.stage.clientHeight);
        const s = this.#scale;
        this.#offset = { x: Math.max(0, (this.stage.clientWidth - canvas.width * s) / 2), y: 12 };
        Object.assign(this.canvas.style, {
            width: `${canvas.width}px`, height: `${canvas.height}px`,
            transform: `translate(${this.#offset.x}px, ${this.#offset.y}px) scale(${s})`,
        });
        this.canvas.style.setProperty('--layout-scale', String(s));
        const safe = safeAreaRect(canvas);
        Object.assign(this.safeArea.style, { left: `${safe.x}px`, top: `${safe.y}px`, width: `${safe.w}px`, height: `${safe.h}px` });
        const drag = this.layout.drag;
        const [width, height] = drag ? [drag.width, drag.height] : [canvas.width, canvas.height];
        Object.assign(this.handle.style, { left: `${this.#offset.x + width * s}px`, top: `${this.#offset.y + height * s}px` });
        this.ghost.hidden = !drag;
        if (drag) Object.assign(this.ghost.style, { width: `${drag.width}px`, height: `${drag.height}px` });
        this.ghost.textContent = drag ? `${drag.width} × ${drag.height}` : '';
        this.preview.draw(replica);
        this.#outline(replica, model);
        this.#hoverCard(replica);
    }

    /** Drops what was drawn (the tab is closed: no second copy of the live view stays in the page). */
    clear() {
        if (!this.#model && !this.#elements.size) return;
        this.#model = null;
        this.preview.draw(null);
        this.#elements.clear();
        this.outlines.replaceChildren();
        this.#boxes = [];
        this.#boxesKey = null;
        this.card.hidden = true;
    }

    #toolbar(replica) {
        const canvas = replica.canvas;
        const device = deviceOf(canvas);
        const custom = device ? null : `custom ${points(canvas.width)} × ${points(canvas.height)}`;
        const options = [...DEVICES.map((d) => [d.name, `${d.name} — ${d.width} × ${d.height}`]), ...(custom ? [['', custom]] : [])];
        const signature = JSON.stringify(options);
        if (this.device.dataset.options !== signature) {
            fill(this.device, options.map(([value, label]) => h('option', { value }, label)));
            this.device.dataset.options = signature;
        }
        this.device.value = device?.name ?? '';
        const insets = canvas.safeArea ? ['top', 'bottom', 'leading', 'trailing'].map((e) => points(canvas.safeArea[e] ?? 0)) : null;
        this.size.textContent = `${points(canvas.width)} × ${points(canvas.height)} @${canvas.scale ?? 1}x`
            + (insets ? ` · safe area ${insets.join('/')}` : '');
        this.note.textContent = `Dashed boxes are Text, measured by the text model ${replica.textModel ?? '(not named)'}: `
            + 'their frames are approximate. Hover a box for its frame and proposal, click to select it; scroll a '
            + 'ScrollView with the wheel or by dragging it.';
    }

    /** One outline per box, patched in place; the selected and the hovered node are marked. */
    #outline(replica, { selected }) {
        const key = [replica, replica.version, replica.layoutRev];
        if (!this.#boxesKey || key.some((v, i) => v !== this.#boxesKey[i])) {
            this.#boxes = layoutBoxes(replica);
            this.#boxesKey = key;
        }
        const seen = new Set();
        const els = [];
        for (const b of this.#boxes) {
            seen.add(b.id);
            let el = this.#elements.get(b.id);
            if (!el) {
                el = h('div', { class: 'layout-box', dataset: { node: b.id } });
                this.#elements.set(b.id, el);
            }
            el.dataset.type = b.type;
            el.className = ['layout-box', b.approximate ? 'approximate' : '', b.scrolls ? 'scrolls' : '',
                b.id === selected ? 'selected' : '',
                b.id === this.layout.hovered ? 'hovered' : '', isVisible(b) ? '' : 'clipped'].filter(Boolean).join(' ');
            placeBox(el, b);
            el.style.zIndex = String(b.depth);
            el.style.clipPath = b.clip ? clipInset(b) : '';
            if (b.approximate && !el.firstChild) el.append(h('span', { class: 'layout-approx', title: 'approximate: measured by the text model' }, '≈'));
            els.push(el);
            for (const m of b.modifiers) {
                const box = h('div', { class: 'layout-modifier-box', dataset: { node: b.id, modifier: m.modifier, kind: m.kind } });
                placeBox(box, m);
                const clipped = { ...m, clip: b.clip };
                if (!isVisible(clipped)) box.hidden = true;
                else if (b.clip) box.style.clipPath = clipInset(clipped);
                els.push(box);
            }
        }
        for (const id of [...this.#elements.keys()]) if (!seen.has(id)) this.#elements.delete(id);
        this.outlines.replaceChildren(...els);
    }

    /** The card of the hovered node: type, id, frame, whether it is approximate, its last proposal. */
    #hoverCard(replica) {
        const id = this.layout.hovered;
        const node = id && replica.node(id);
        if (!node?.frame) {
            this.card.hidden = true;
            return;
        }
        const proposals = this.layout.proposalsOf(node);
        const box = (modifier) => (modifier === null ? node.type : `.${node.modifiers[modifier]?.kind ?? '?'} #${modifier}`);
        const steps = (p) => p.steps.map((s) => `${sizeText(s.proposal)} → ${sizeText(s.size)}`).join(', then ');
        fill(this.card,
            h('div', {}, h('strong', { class: 'type' }, node.type), ' ', h('span', { class: 'id' }, leaf(id))),
            h('div', { dataset: { field: 'frame' } }, `frame ${frameText(node.frame)}`),
            this.#boxes.find((b) => b.id === id)?.approximate
                ? h('div', { class: 'layout-approx-note' }, `approximate: Text measured by ${replica.textModel ?? 'the text model'}`) : null,
            // The box its parent proposed to first (with the version), then each box inside it.
            proposals.length
                ? proposals.map((p, i) => (i === 0
                    ? h('div', { dataset: { field: 'proposal' } }, `proposed ${steps(p)} (${box(p.modifier)}, v${p.version})`)
                    : h('div', { class: 'note' }, `${box(p.modifier)} proposed ${steps(p)}`)))
                : h('div', { dataset: { field: 'proposal' } },
                    'proposal: not in a trace this page saw (a resize lays everything out again)'),
            node.modifierFrames
                ? node.modifierFrames.map((m) => h('div', { class: 'note' }, `${box(m.modifier)}: ${frameText(m.frame)}`))
                : node.modifiers.some((m) => LAYOUT_MODIFIERS.has(m.kind))
                    ? h('div', { class: 'note' }, 'its modifiers\' own boxes changed since the snapshot: diffs do not carry them')
                    : null);
        this.card.hidden = false;
        this.#placeCard();
    }

    /** Puts the hover card beside the pointer, on its left when there is no room on its right. */
    #placeCard() {
        if (!this.#pointer) return;
        const area = this.body.getBoundingClientRect();
        const width = this.card.offsetWidth;
        let left = this.#pointer.x - area.left + 16;
        if (left + width > area.width) left = Math.max(0, this.#pointer.x - area.left - width - 16);
        Object.assign(this.card.style, { left: `${left}px`, top: `${this.#pointer.y - area.top + 16}px` });
    }

    /** The canvas point under a pointer event. */
    #point(event) {
        const r = this.stage.getBoundingClientRect();
        return { x: (event.clientX - r.left - this.#offset.x) / this.#scale, y: (event.clientY - r.top - this.#offset.y) / this.#scale };
    }

    #boxAt(event) {
        const p = this.#point(event);
        return hitTest(this.#boxes, p.x, p.y);
    }

    #setHover(id) {
        if (this.layout.hovered === id) return;
        this.layout.hover(id);
        if (!this.#model) return;
        this.#outline(this.#model.replica, this.#model);
        this.#hoverCard(this.#model.replica);
    }

    #wire() {
        const stage = this.stage;
        stage.addEventListener('pointermove', (event) => {
            if (this.#press) return this.#dragScroll(event);
            this.#pointer = { x: event.clientX, y: event.clientY };
            const id = this.#boxAt(event)?.id ?? null;
            if (id === this.layout.hovered) this.#placeCard();
            else this.#setHover(id);
        });
        stage.addEventListener('pointerleave', () => !this.#press && this.#setHover(null));
        stage.addEventListener('pointerdown', (event) => {
            if (event.target === this.handle || event.button !== 0) return;
            const box = this.#boxAt(event);
            const replica = this.#model?.replica;
            const scrollView = box && replica ? scrollViewAt(replica, box.id) : null;
            const at = { x: event.clientX, y: event.clientY };
            this.#press = { ...at, at, box, scrollView, scrolling: false };
            this.#dragged = false;
        });
        // A drag that scrolled ends in a click on what is under the pointer: it neither works a control nor selects.
        stage.addEventListener('click', (event) => {
            if (!this.#dragged) return;
            this.#dragged = false;
            event.stopPropagation();
            event.preventDefault();
        }, true);
        stage.addEventListener('pointerup', (event) => {
            const press = this.#press;
            this.#press = null;
            this.#dragged = !!press?.scrolling;
            // A click on a control of the live view works the control; anywhere else it selects the node.
            if (!press || press.scrolling || !press.box || event.target.closest('input, button, select, textarea, label')) return;
            this.onSelect(press.box.id);
        });
        stage.addEventListener('wheel', (event) => {
            const replica = this.#model?.replica;
            const box = this.#boxAt(event);
            const scrollView = box && replica ? scrollViewAt(replica, box.id) : null;
            if (!scrollView) return;
            event.preventDefault();
            // Deltas come in pixels, or (Firefox, some mice) in lines or pages.
            const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? this.stage.clientHeight : 1;
            this.layout.scrollBy(replica, scrollView, (event.deltaX * unit) / this.#scale, (event.deltaY * unit) / this.#scale);
        }, { passive: false });
        this.handle.addEventListener('pointerdown', (event) => {
            const canvas = this.#model?.replica.canvas;
            if (!canvas) return;
            event.preventDefault();
            this.handle.setPointerCapture(event.pointerId);
            const start = { x: event.clientX, y: event.clientY };
            const redraw = () => this.#model && this.draw(this.#model);
            const dragging = new AbortController();
            const up = () => {
                dragging.abort();
                this.layout.endDrag();
                redraw();
            };
            this.layout.startDrag(canvas, this.#scale);
            this.handle.addEventListener('pointermove', (e) => {
                this.layout.dragBy(e.clientX - start.x, e.clientY - start.y);
                redraw();
            }, { signal: dragging.signal });
            this.handle.addEventListener('pointerup', up, { signal: dragging.signal });
            this.handle.addEventListener('pointercancel', up, { signal: dragging.signal });
        });
    }

    /** A press on a ScrollView that moves more than a few pixels drags its content (the offset goes the other way). */
    #dragScroll(event) {
        const press = this.#press;
        if (!press.scrollView || event.target.closest('input, textarea, select')) return;
        if (!press.scrolling && Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD) return;
        press.scrolling = true;
        event.preventDefault();
        const dx = (press.at.x - event.clientX) / this.#scale;
        const dy = (press.at.y - event.clientY) / this.#scale;
        press.at = { x: event.clientX, y: event.clientY };
        this.layout.scrollBy(this.#model.replica, press.scrollView, dx, dy);
    }
}

/** The part of box `b` outside its clip, as a CSS `inset()` (top, right, bottom, left). */
function clipInset(b) {
    const c = b.clip;
    return `inset(${c.y - b.y}px ${b.x + b.w - c.x - c.w}px ${b.y + b.h - c.y - c.h}px ${c.x - b.x}px)`;
}

/** Places an outline at a rect of the canvas (through the CSSOM: the daemon's CSP forbids style attributes). */
function placeBox(el, r) {
    Object.assign(el.style, { left: `${r.x}px`, top: `${r.y}px`, width: `${r.w}px`, height: `${r.h}px` });
}
