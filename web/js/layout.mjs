// The Layout pane's state: the devices its picker offers, the layout steps last seen for each box of a node (the
// hover shows what it was proposed), the node hovered, a resize being dragged, and the `resize` and `scroll` events
// it sends (LAYOUT.md §2) — at most one per animation frame and one in flight per target, always the latest value, so
// a drag or a wheel never queues up stale offsets. No DOM: the frame scheduler and the sender are passed in.

import { remember } from './bounded.mjs';
import { clampScroll, scrollRange } from './layoutdraw.mjs';

const NO_INSETS = { top: 0, bottom: 0, leading: 0, trailing: 0 };

/**
 * The daemon's device presets (docs/layout.md; its default is the first), for the picker's labels: picking one sends
 * its name, and the daemon gives the canvas the preset's size, safe area and scale.
 */
export const DEVICES = [
    { name: 'iPhone 15', width: 393, height: 852, safeArea: { top: 59, bottom: 34, leading: 0, trailing: 0 }, scale: 3 },
    { name: 'iPhone 15 Pro Max', width: 430, height: 932, safeArea: { top: 59, bottom: 34, leading: 0, trailing: 0 }, scale: 3 },
    { name: 'iPhone SE', width: 375, height: 667, safeArea: { top: 20, bottom: 0, leading: 0, trailing: 0 }, scale: 2 },
    { name: 'iPad', width: 820, height: 1180, safeArea: { top: 24, bottom: 20, leading: 0, trailing: 0 }, scale: 2 },
    { name: 'Mac window', width: 800, height: 600, safeArea: NO_INSETS, scale: 2 },
];

/** The smallest and largest side a resize asks for (the daemon refuses a canvas over 100,000). */
export const MIN_SIDE = 20;
export const MAX_SIDE = 100000;

/** Layout boxes whose last layout steps are remembered; the one laid out longest ago goes first. */
export const LAYOUT_STEPS_KEPT = 20000;

/** Layout steps kept per box and version: a stack may propose a child several sizes before it places it. */
export const STEPS_PER_BOX = 8;

/**
 * The device preset `canvas` came from (the daemon names it), or null: a canvas sized by width and height is a bare
 * host (scale 1, no safe area) even when its size is a device's.
 */
export function deviceOf(canvas) {
    if (!canvas?.device) return null;
    return DEVICES.find((d) => d.name === canvas.device) ?? null;
}

/** A `resize` event's value: whole points within [MIN_SIDE, MAX_SIDE]. */
export function resizeValue(width, height) {
    const side = (v) => Math.max(MIN_SIDE, Math.min(MAX_SIDE, Math.round(v)));
    return { width: side(width), height: side(height) };
}

/**
 * Sends the latest value wanted for each target, at most once per frame (`schedule(callback)`, the page's
 * requestAnimationFrame) and with one send in flight per target: `send(target, value)` returns a promise that settles
 * when the daemon acknowledged or rejected it. Values wanted meanwhile replace each other; the last one goes next.
 */
export class LatestSender {
    #schedule;
    #send;
    #wanted = new Map(); // target → the value to send next
    #inFlight = new Map(); // target → the value sent and not settled
    #scheduled = new Set();

    constructor({ schedule, send }) {
        this.#schedule = schedule;
        this.#send = send;
    }

    want(target, value) {
        this.#wanted.set(target, value);
        this.#pump(target);
    }

    /** The value last wanted for `target` that the daemon has not acknowledged yet, or undefined. */
    pending(target) {
        return this.#wanted.has(target) ? this.#wanted.get(target) : this.#inFlight.get(target);
    }

    /** Whether nothing is waiting or in flight. */
    get idle() {
        return !this.#wanted.size && !this.#inFlight.size;
    }

    #pump(target) {
        if (this.#inFlight.has(target) || this.#scheduled.has(target)) return;
        this.#scheduled.add(target);
        this.#schedule(() => {
            this.#scheduled.delete(target);
            if (!this.#wanted.has(target)) return;
            const value = this.#wanted.get(target);
            this.#wanted.delete(target);
            this.#inFlight.set(target, value);
            const settled = () => {
                this.#inFlight.delete(target);
                if (this.#wanted.has(target)) this.#pump(target);
            };
            Promise.resolve()
                .then(() => this.#send(target, value))
                .then(settled, settled);
        });
    }
}

/** The target of `resize` events in a LatestSender (they name no node). */
export const CANVAS = '';

export class LayoutState {
    /** `schedule(callback)` runs a callback before the next frame; `send(node, event, value)` sends an event. */
    constructor({ schedule, send }) {
        this.schedule = schedule;
        this.send = send;
        this.openTree();
    }

    openTree() {
        this.lastLayout = new Map(); // box (`node` or `node#modifier`) → { version, steps: [{ proposal, size }] }
        this.hovered = null;
        this.drag = null; // { scale, width, height } while the resize edge is dragged
        this.resizes = new LatestSender({ schedule: this.schedule, send: (_, value) => this.send(null, 'resize', value) });
        this.scrolls = new LatestSender({ schedule: this.schedule, send: (node, value) => this.send(node, 'scroll', value) });
    }

    /**
     * Remembers the `layout` steps of version `version`'s trace, by the box they name: a node's own content (`id`) or
     * one of its layout modifiers (`id#index`, the modifier's position). The steps of one version stay together.
     */
    noteTrace(version, events) {
        for (const e of events) {
            if (e.e !== 'layout') continue;
            const seen = this.lastLayout.get(e.node);
            const steps = seen?.version === version ? seen.steps : [];
            if (steps.length < STEPS_PER_BOX) steps.push({ proposal: e.proposal, size: e.size });
            remember(this.lastLayout, e.node, { version, steps }, LAYOUT_STEPS_KEPT);
        }
    }

    /** The layout steps last seen for box `box` (`id` or `id#index`): `{ version, steps }`, or null. */
    layoutOf(box) {
        return this.lastLayout.get(box) ?? null;
    }

    /**
     * What node `node` was last proposed, from the outside in: one entry per layout modifier (highest index first,
     * the one its parent proposed to) and then its content, each `{ modifier, version, steps }` (modifier null for the
     * content), leaving out boxes no trace this page saw laid out.
     */
    proposalsOf(node) {
        const out = [];
        for (let i = node.modifiers.length - 1; i >= 0; i--) {
            const seen = this.lastLayout.get(`${node.id}#${i}`);
            if (seen) out.push({ modifier: i, ...seen });
        }
        const own = this.lastLayout.get(node.id);
        if (own) out.push({ modifier: null, ...own });
        return out;
    }

    hover(id) {
        this.hovered = id;
    }

    /** Asks for a canvas of `width` × `height` points. */
    resize(width, height) {
        this.resizes.want(CANVAS, resizeValue(width, height));
    }

    /** Asks for the canvas of the device named `name`: its size, safe area and scale are the daemon's preset. */
    pickDevice(name) {
        if (DEVICES.some((d) => d.name === name)) this.resizes.want(CANVAS, { device: name });
    }

    /** Turns `canvas` a quarter turn (width and height swapped: a bare host, as any resize by size). */
    rotate(canvas) {
        this.resize(canvas.height, canvas.width);
    }

    /** The resize edge is grabbed; the pane keeps `scale` until it is let go, so the canvas does not run away. */
    startDrag(canvas, scale) {
        this.drag = { scale, width: canvas.width, height: canvas.height, startWidth: canvas.width, startHeight: canvas.height };
    }

    /** The edge moved `dx`, `dy` CSS pixels from where it was grabbed. */
    dragBy(dx, dy) {
        if (!this.drag) return;
        const { width, height } = resizeValue(this.drag.startWidth + dx / this.drag.scale, this.drag.startHeight + dy / this.drag.scale);
        if (width === this.drag.width && height === this.drag.height) return;
        Object.assign(this.drag, { width, height });
        this.resize(width, height);
    }

    endDrag() {
        this.drag = null;
    }

    /**
     * Scrolls ScrollView `id` of `replica` by (dx, dy) points from where it is (or is about to be), clamped to its
     * content; returns the offset asked for, or null when it would not move.
     */
    scrollBy(replica, id, dx, dy) {
        const range = scrollRange(replica, id);
        if (!range) return null;
        const base = this.scrolls.pending(id) ?? range;
        const next = clampScroll(range, base.x + dx, base.y + dy, replica.canvas?.scale ?? 1);
        if (next.x === base.x && next.y === base.y) return null;
        this.scrolls.want(id, next);
        return next;
    }
}
