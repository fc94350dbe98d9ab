// The tree as a virtual list: only the rows in view (plus a margin) exist in the DOM, so a 10k-node tree scrolls
// as smoothly as a small one. Rows are recomputed when the tree, the collapsed set or the filter change.

import { h, short } from './dom.mjs';
import { ATTACHING } from './canopy-client.mjs';

const ROW_HEIGHT = 24;
const OVERSCAN = 12;
const FLASH_MS = 1200;

export class TreeView {
    constructor(container, { onSelect, onToggle, onDrop }) {
        this.container = container;
        this.onSelect = onSelect;
        this.onToggle = onToggle;
        this.onDrop = onDrop;
        this.spacer = h('div', { class: 'tree-spacer' });
        this.layer = h('div', { class: 'tree-rows', role: 'tree' });
        container.append(this.spacer, this.layer);
        this.rows = [];
        this.rowIndex = new Map();
        this.flashes = new Map();
        this.elements = new Map(); // node id → the row element on screen
        this.model = null;
        this.dirtyRows = true;
        container.addEventListener('scroll', () => this.#paint());
        new ResizeObserver(() => this.#paint()).observe(container);
    }

    /**
     * `model`: { replica, collapsed: Set, filter, selected, classes: Map|null, highlight }. `structure: false` says
     * that no node was added, removed or moved; the rows are still recomputed while a filter is active, since it
     * matches props, which any edit may have changed.
     */
    update(model, { structure = true } = {}) {
        this.model = model;
        if (structure || model.filter) this.dirtyRows = true;
        this.render();
    }

    render() {
        if (!this.model?.replica) {
            this.rows = [];
            this.rowIndex.clear();
            this.spacer.style.height = '0px';
            this.layer.replaceChildren();
            this.elements.clear();
            return;
        }
        if (this.dirtyRows) this.#computeRows();
        this.#paint();
    }

    /** Marks nodes as changed: each flashes, or its first visible ancestor if it is hidden. */
    flash(ids) {
        if (!this.model?.replica) return;
        if (this.dirtyRows) this.#computeRows();
        const now = performance.now();
        for (const id of ids) {
            let at = id;
            while (at != null && !this.rowIndex.has(at)) at = this.model.replica.above(at);
            if (at != null) this.flashes.set(at, now);
        }
        this.#paint();
        setTimeout(() => this.#paint(), FLASH_MS + 50);
    }

    /** Scrolls so that node `id` is in view (expanding is the caller's job). */
    reveal(id) {
        const i = this.rowIndex.get(id);
        if (i === undefined) return;
        const top = i * ROW_HEIGHT;
        const c = this.container;
        if (top < c.scrollTop || top + ROW_HEIGHT > c.scrollTop + c.clientHeight) {
            c.scrollTop = Math.max(0, top - c.clientHeight / 3);
        }
        this.#paint();
    }

    #computeRows() {
        const { replica, collapsed, filter } = this.model;
        const rows = [];
        const keep = filter ? this.#filterKeep(replica, filter) : null;
        replica.walk((node, depth) => {
            if (keep && !keep.has(node.id)) return false;
            rows.push({ id: node.id, depth });
            if (!keep && collapsed.has(node.id)) return false;
            return true;
        });
        this.rows = rows;
        this.rowIndex = new Map(rows.map((r, i) => [r.id, i]));
        this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
        this.dirtyRows = false;
    }

    /** Nodes whose id, type or props contain `filter` (case-insensitive), and their ancestors. */
    #filterKeep(replica, filter) {
        const needle = filter.toLowerCase();
        const keep = new Set();
        replica.walk((node) => {
            const text = `${node.id} ${node.type} ${JSON.stringify(node.props)}`.toLowerCase();
            if (!text.includes(needle)) return;
            for (let at = node.id; at != null && !keep.has(at); at = replica.above(at)) keep.add(at);
        });
        return keep;
    }

    // Rows that did not change keep their element: replacing the element under the pointer between mousedown and
    // mouseup would swallow the click, and diffs can arrive many times a second.
    #paint() {
        if (!this.model?.replica) return;
        const c = this.container;
        const first = Math.max(0, Math.floor(c.scrollTop / ROW_HEIGHT) - OVERSCAN);
        const last = Math.min(this.rows.length, Math.ceil((c.scrollTop + c.clientHeight) / ROW_HEIGHT) + OVERSCAN);
        const now = performance.now();
        const next = new Map();
        for (let i = first; i < last; i++) {
            const row = this.rows[i];
            const signature = this.#signature(row, now);
            let el = this.elements.get(row.id);
            if (!el || el.signature !== signature) {
                el?.remove();
                el = this.#row(row, now);
                el.signature = signature;
                this.layer.append(el);
            }
            if (el.index !== i) {
                el.index = i;
                el.style.transform = `translateY(${i * ROW_HEIGHT}px)`;
            }
            next.set(row.id, el);
        }
        for (const [id, el] of this.elements) if (next.get(id) !== el) el.remove();
        this.elements = next;
    }

    /** Everything a row's element depends on, besides its position. */
    #signature(row, now) {
        const { replica, collapsed, selected, classes, highlight, filter } = this.model;
        const node = replica.node(row.id);
        const flashed = this.flashes.get(row.id);
        const flashing = flashed !== undefined && now - flashed < FLASH_MS;
        if (flashed !== undefined && !flashing) this.flashes.delete(row.id);
        return [
            replica.epoch, node.rev ?? 0, row.depth, node.children.length > 0, !filter && collapsed.has(row.id), row.id === selected,
            row.id === highlight, classes ? classes.get(row.id) : '', flashing ? flashed : 0,
        ].join('|');
    }

    #row(row, now) {
        const { replica, collapsed, selected, classes, highlight, filter } = this.model;
        const node = replica.node(row.id);
        const hasUnder = node.children.length > 0 || node.modifiers.some((m) => ATTACHING.has(m.kind));
        const isCollapsed = !filter && collapsed.has(node.id);
        let cls = 'row';
        if (node.id === selected) cls += ' selected';
        if (node.id === highlight) cls += ' current-call';
        if (classes) cls += ` lz-${classes.get(node.id)}`;
        const flashed = this.flashes.get(node.id);
        if (flashed !== undefined && now - flashed < FLASH_MS) cls += ' flash';
        const el = h(
            'div',
            {
                class: cls,
                role: 'treeitem',
                draggable: node.parent !== null ? 'true' : 'false',
                dataset: { node: node.id, category: classes ? classes.get(node.id) : '' },
                'aria-expanded': hasUnder ? String(!isCollapsed) : undefined,
                'aria-selected': String(node.id === selected),
            },
            h(
                'span',
                { class: hasUnder ? 'toggle' : 'toggle leaf', title: hasUnder ? 'expand / collapse' : '' },
                hasUnder ? (isCollapsed ? '▸' : '▾') : '·',
            ),
            node.attach ? h('span', { class: `chip attach ${node.attach.kind}` }, node.attach.kind) : null,
            h('span', { class: 'type' }, node.type),
            h('span', { class: 'id' }, node.id),
            propsSummary(node.props),
            node.modifiers.map((m, index) => chip(replica, node, m, index)),
        );
        el.style.paddingLeft = `${6 + row.depth * 16}px`;
        el.addEventListener('click', (event) => {
            if (event.target.classList.contains('toggle')) this.onToggle(node.id);
            else this.onSelect(node.id);
        });
        if (node.parent !== null) {
            el.addEventListener('dragstart', (event) => {
                event.dataTransfer.setData('text/x-canopy-node', node.id);
                event.dataTransfer.effectAllowed = 'move';
            });
        }
        el.addEventListener('dragover', (event) => {
            if (!event.dataTransfer.types.includes('text/x-canopy-node')) return;
            event.preventDefault();
            el.dataset.drop = dropZone(el, event);
        });
        el.addEventListener('dragleave', () => delete el.dataset.drop);
        el.addEventListener('drop', (event) => {
            event.preventDefault();
            const dragged = event.dataTransfer.getData('text/x-canopy-node');
            const zone = dropZone(el, event);
            delete el.dataset.drop;
            if (dragged) this.onDrop(dragged, node.id, zone);
        });
        return el;
    }
}

function dropZone(el, event) {
    const box = el.getBoundingClientRect();
    const y = (event.clientY - box.top) / box.height;
    return y < 0.3 ? 'before' : y > 0.7 ? 'after' : 'into';
}

function propsSummary(props) {
    const entries = Object.entries(props);
    if (!entries.length) return null;
    const text = entries
        .slice(0, 3)
        .map(([k, v]) => `${k}: ${short(v, 24)}`)
        .join(', ');
    return h('span', { class: 'props', title: JSON.stringify(props) }, entries.length > 3 ? `${text}, …` : text);
}

function chip(replica, node, m, index) {
    switch (m.kind) {
        case 'preference':
            return h('span', { class: 'chip writer', title: `preference(${m.key}, ${JSON.stringify(m.value)})` }, `${m.key} = ${short(m.value, 28)}`);
        case 'transformPreference':
            return h('span', { class: 'chip transform', title: `transformPreference(${m.key}, ${JSON.stringify(m.transform)})` }, `${m.key} ⟲ ${short(m.transform, 24)}`);
        case 'onPreferenceChange': {
            const reader = replica.readerId(node, index);
            const v = replica.readerValues.get(reader);
            const shown = v?.present ? short(v.value, 28) : 'never fired';
            return h('span', { class: 'chip reader', title: `onPreferenceChange(${m.key}) — reader ${reader}` }, `⟵ ${m.key}: ${shown}`);
        }
        case 'background':
        case 'overlay':
            return h('span', { class: `chip ${m.kind}`, title: `${m.kind} { ${m.node} }` }, `${m.kind} ↳ ${m.node}`);
        default:
            return h('span', { class: 'chip other', title: JSON.stringify(m.args || {}) }, m.kind);
    }
}
