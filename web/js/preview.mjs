// The live rendering of a program tree: every node drawn plainly with an HTML control, kept in step with the
// replica by patching elements in place (keyed by node id), so that a diff from another client never replaces the
// field someone is typing in. Typing, tapping, toggling, sliding and stepping send PROGRAMS.md §6 events.
// Positioned (the Layout pane), every element is placed at its node's frame instead of flowing: its content at the
// box inside its layout modifiers (a padded Text's text 16 points in), its backgrounds and overlays beside it, under
// and over it, in the canvas's coordinates.

import { h, fill } from './dom.mjs';
import { contentInsets, textLines } from './contentbox.mjs';
import { FILLED, paintOf } from './swiftcolors.mjs';

const STACKS = { VStack: 'column', LazyVStack: 'column', HStack: 'row', LazyHStack: 'row', ZStack: 'stack' };
const CONTAINERS = new Set(['Form', 'List', 'Section', 'Group', 'NavigationStack', 'NavigationView', 'ScrollView',
    'GroupBox', 'If', 'ForEach', 'AnyView']);
const FONTS = new Set(['largeTitle', 'title', 'title2', 'title3', 'headline', 'subheadline', 'body', 'callout',
    'footnote', 'caption', 'caption2']);
const COLORS = new Set(['red', 'orange', 'yellow', 'green', 'mint', 'teal', 'cyan', 'blue', 'indigo', 'purple',
    'pink', 'brown', 'gray', 'black', 'white', 'primary', 'secondary', 'accentColor']);

/** A prop that is a string, or the text of a view argument (`label: Text("…")`). */
function text(value) {
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object' && value.props) return text(value.props.text ?? value.props.title);
    return value === undefined || value === null ? '' : String(value);
}

/** The first unlabeled argument of a modifier (`.font(.caption)` → "caption"). */
function arg(m) {
    return m.args?._0 ?? m.args?.value;
}

function bounds(props) {
    const r = props.in;
    return r && typeof r === 'object' ? { lo: r.lowerBound, hi: r.upperBound } : { lo: 0, hi: 1 };
}

export class Preview {
    /**
     * `send(node, event, value)` sends an event; `pending(node)` says whether this page has events in flight for
     * the node (its field is not overwritten then); `onSelect(id)` selects a node in the inspector. `positioned`
     * places each element at its node's frame (canvas coordinates; the root element is at the canvas's origin).
     */
    constructor(root, { send, pending, onSelect, positioned = false }) {
        this.root = root;
        this.positioned = positioned;
        this.send = send;
        this.pending = pending;
        this.onSelect = onSelect;
        this.records = new Map(); // node id → { type, el, box, parts }
        this.highlighted = null;
    }

    /** Draws `replica` (null: nothing), reusing the elements of nodes that are still there. */
    draw(replica) {
        if (!replica || !replica.isProgram) {
            this.records.clear();
            fill(this.root);
            return;
        }
        const seen = new Set();
        const top = this.#node(replica, replica.rootId, seen, { disabled: false }, [0, 0]);
        this.#place(this.root, top);
        for (const id of [...this.records.keys()]) if (!seen.has(id)) this.records.delete(id);
        this.highlight(this.highlighted);
    }

    /** Marks the element of node `id` (a step of the transaction timeline, say). */
    highlight(id) {
        this.root.querySelector('.pv-highlight')?.classList.remove('pv-highlight');
        this.highlighted = id;
        const el = id && this.records.get(id)?.el;
        if (el) {
            el.classList.add('pv-highlight');
            if (el.scrollIntoView) el.scrollIntoView({ block: 'nearest' });
        }
    }

    /** The element drawn for node `id` (for tests and the curious). */
    element(id) {
        return this.records.get(id)?.el ?? null;
    }

    /**
     * Draws node `id`; returns the elements to put where it goes. Flowing, that is its element, holding its attached
     * subtrees and children. Positioned, its backgrounds, its element (holding its children) and its overlays, side
     * by side in that paint order; `origin` is the canvas position of the box they are placed in.
     */
    #node(replica, id, seen, inherited, origin) {
        const node = replica.node(id);
        seen.add(id);
        let record = this.records.get(id);
        if (!record || record.type !== node.type) {
            record = this.#create(node);
            this.records.set(id, record);
        }
        const look = this.#look(node, inherited);
        this.#update(record, node, look);
        const inner = { disabled: look.disabled };
        const draw = (ids, at) => ids.flatMap((c) => this.#node(replica, c, seen, inner, at));
        if (!this.positioned) {
            if (record.box) this.#place(record.box, draw(replica.under(node), origin));
            return [record.el];
        }
        const inside = place(record.el, node, origin);
        if (node.type === 'Text' && node.frame) {
            const insets = contentInsets(node);
            setData(record.el, 'lines', String(textLines(node.frame[3] - insets.top - insets.bottom, look.font)));
        }
        if (record.box) this.#place(record.box, draw(node.children, inside));
        const attached = (kind) => node.modifiers.filter((m) => m.kind === kind && m.node).map((m) => m.node);
        return [...draw(attached('background'), origin), record.el, ...draw(attached('overlay'), origin)];
    }

    /** Puts `els` in `box` in order, touching only what moved: a focused field stays where it is. */
    #place(box, els) {
        const keep = new Set(els);
        for (const child of [...box.childNodes]) if (!keep.has(child)) child.remove();
        els.forEach((el, i) => {
            if (box.childNodes[i] !== el) box.insertBefore(el, box.childNodes[i] ?? null);
        });
    }

    /** What the display modifiers ask for: colour, font, hidden, padding, bold, disabled. */
    #look(node, inherited) {
        const look = { color: '', font: '', hidden: false, padding: false, bold: false, disabled: inherited.disabled };
        for (const m of node.modifiers) {
            const a = arg(m);
            switch (m.kind) {
                case 'foregroundColor':
                case 'foregroundStyle':
                case 'tint':
                    if (COLORS.has(a)) look.color = a;
                    break;
                case 'font':
                    if (FONTS.has(a)) look.font = a;
                    break;
                case 'fontWeight':
                case 'bold':
                    look.bold = m.kind === 'bold' || ['semibold', 'bold', 'heavy', 'black'].includes(a);
                    break;
                case 'hidden':
                    look.hidden = true;
                    break;
                case 'padding':
                    look.padding = true;
                    break;
                case 'disabled':
                    if (a !== false) look.disabled = true;
                    break;
                default:
                    break;
            }
        }
        return look;
    }

    #create(node) {
        const id = node.id;
        const base = { 'data-node': id, title: `${node.type} ${id}` };
        const select = (event) => {
            if (event.target.closest('[data-node]') === event.currentTarget) this.onSelect(id);
        };
        switch (node.type) {
            case 'Text':
                return { type: node.type, el: h('span', { ...base, class: 'pv pv-text', onclick: select }) };
            case 'TextField':
            case 'SecureField': {
                const secure = node.type === 'SecureField';
                const input = h('input', {
                    type: secure ? 'password' : 'text', class: 'pv-input', autocomplete: 'off', spellcheck: false,
                    oninput: () => this.send(id, 'setText', input.value),
                    onkeydown: (event) => {
                        if (event.key === 'Enter') {
                            event.preventDefault();
                            this.send(id, 'commit');
                        }
                    },
                    onfocus: () => {
                        this.onSelect(id);
                        if (!secure) this.send(id, 'focus', true);
                    },
                    onblur: () => !secure && this.send(id, 'focus', false),
                });
                const label = h('span', { class: 'pv-caption' });
                return { type: node.type, el: h('label', { ...base, class: 'pv pv-field' }, label, input), parts: { input, label } };
            }
            case 'Button': {
                const button = h('button', { ...base, type: 'button', class: 'pv pv-button', onclick: () => this.send(id, 'tap') });
                return { type: node.type, el: button, parts: { button } };
            }
            case 'Toggle': {
                const input = h('input', { type: 'checkbox', onchange: () => this.send(id, 'setValue', input.checked) });
                const label = h('span', { class: 'pv-caption' });
                return { type: node.type, el: h('label', { ...base, class: 'pv pv-toggle' }, input, label), parts: { input, label } };
            }
            case 'Slider': {
                // onEditingChanged: true when a drag (or a run of arrow keys) starts, false when it ends.
                let editing = false;
                const begin = () => {
                    if (!editing) this.send(id, 'focus', (editing = true));
                };
                const input = h('input', {
                    type: 'range', class: 'pv-slider',
                    oninput: () => {
                        begin();
                        this.send(id, 'setValue', Number(input.value));
                    },
                    onpointerdown: begin,
                    onchange: () => editing && this.send(id, 'focus', (editing = false)),
                });
                const out = h('output', { class: 'pv-value' });
                return { type: node.type, el: h('label', { ...base, class: 'pv pv-slider-row' }, input, out), parts: { input, out } };
            }
            case 'Stepper': {
                const label = h('span', { class: 'pv-caption' });
                const out = h('output', { class: 'pv-value' });
                const minus = h('button', { type: 'button', class: 'pv-step', 'aria-label': 'decrement', onclick: () => this.send(id, 'decrement') }, '−');
                const plus = h('button', { type: 'button', class: 'pv-step', 'aria-label': 'increment', onclick: () => this.send(id, 'increment') }, '+');
                return { type: node.type, el: h('div', { ...base, class: 'pv pv-stepper', onclick: select }, label, out, minus, plus), parts: { label, out, minus, plus } };
            }
            case 'Label':
            case 'Image': {
                const symbol = h('span', { class: 'pv-symbol' });
                const label = h('span', { class: 'pv-caption' });
                return { type: node.type, el: h('span', { ...base, class: `pv pv-${node.type.toLowerCase()}`, onclick: select }, symbol, label), parts: { symbol, label } };
            }
            case 'Spacer':
                return { type: node.type, el: h('span', { ...base, class: 'pv pv-spacer' }) };
            case 'Divider':
                return { type: node.type, el: h('hr', { ...base, class: 'pv pv-divider' }) };
            case 'Rectangle':
            case 'Color':
            case 'Circle':
            case 'Capsule':
            case 'RoundedRectangle':
            case 'Ellipse': {
                // A shape holds what is attached to it (the live view's rows: `Color.gray.overlay(Text(…))`).
                const el = h('span', { ...base, class: 'pv pv-shape', onclick: select });
                return { type: node.type, el, box: el };
            }
            default:
                break;
        }
        if (node.type === 'Section') {
            const legend = h('legend', { class: 'pv-caption' });
            const box = h('div', { class: 'pv-box' });
            return { type: node.type, el: h('fieldset', { ...base, class: 'pv pv-section', onclick: select }, legend, box), box, parts: { legend } };
        }
        const axis = STACKS[node.type];
        const kind = axis ? `pv-stack pv-${axis}` : CONTAINERS.has(node.type) ? `pv-container pv-${node.type.toLowerCase()}` : 'pv-view';
        const el = h('div', { ...base, class: `pv ${kind}`, onclick: select });
        return { type: node.type, el, box: el };
    }

    #update(record, node, look) {
        const { el, parts } = record;
        const p = node.props;
        el.hidden = look.hidden;
        setClass(el, 'pv-padding', look.padding);
        setClass(el, 'pv-bold', look.bold);
        setData(el, 'font', look.font);
        setData(el, 'color', look.color);
        const paint = paintOf(node);
        if (FILLED.has(node.type) && el.style.backgroundColor !== paint.fill) el.style.backgroundColor = paint.fill;
        const opacity = paint.opacity === 1 ? '' : String(paint.opacity);
        if (el.style.opacity !== opacity) el.style.opacity = opacity;
        switch (node.type) {
            case 'Text':
                setText(el, text(p.text));
                break;
            case 'TextField':
            case 'SecureField': {
                setText(parts.label, text(p.title));
                parts.input.placeholder = text(p.title);
                parts.input.disabled = look.disabled;
                this.#setField(node.id, parts.input, text(p.text));
                break;
            }
            case 'Button':
                setText(parts.button, text(p.title ?? p.label));
                parts.button.disabled = look.disabled;
                break;
            case 'Toggle':
                setText(parts.label, text(p.title ?? p.label));
                parts.input.checked = p.isOn === true;
                parts.input.disabled = look.disabled;
                break;
            case 'Slider': {
                const { lo, hi } = bounds(p);
                parts.input.min = String(lo);
                parts.input.max = String(hi);
                parts.input.step = p.step !== undefined ? String(p.step) : 'any';
                if (document.activeElement !== parts.input || !this.pending(node.id)) parts.input.value = String(p.value ?? lo);
                parts.input.disabled = look.disabled;
                setText(parts.out, formatNumber(p.value));
                break;
            }
            case 'Stepper': {
                setText(parts.label, text(p.title ?? p.label));
                // SwiftUI shows the label only; the value is shown when there is no label to carry it.
                setText(parts.out, parts.label.textContent ? '' : formatNumber(p.value));
                parts.minus.disabled = parts.plus.disabled = look.disabled;
                break;
            }
            case 'Label':
            case 'Image':
            {
                const symbol = node.type === 'Label' ? p.systemImage : p.systemName ?? p._0 ?? p.title;
                setText(parts.symbol, symbol ? `⟨${text(symbol)}⟩` : '');
                setText(parts.label, node.type === 'Label' ? text(p.title) : '');
                break;
            }
            case 'Section':
                setText(parts.legend, text(p.title ?? p.header));
                parts.legend.hidden = !parts.legend.textContent;
                break;
            default:
                break;
        }
    }

    /**
     * A text field's value: the daemon's, except while this page has keystrokes in flight for it (their diffs are
     * on the way), and never touching the caret of a field whose value did not change.
     */
    #setField(id, input, value) {
        if (input.value === value) return;
        const focused = document.activeElement === input;
        if (focused && this.pending(id)) return;
        if (!focused) {
            input.value = value;
            return;
        }
        // Someone else typed into the field this person is in: take their text, keep the caret where it was.
        const { selectionStart: start, selectionEnd: end } = input;
        input.value = value;
        input.setSelectionRange(Math.min(start, value.length), Math.min(end, value.length));
    }
}

/**
 * Places `node`'s element `el` at its frame relative to `origin`, its content inset to the box inside its layout
 * modifiers (CSS padding); returns the origin of what is inside it. A node without a frame gets no box of its own
 * (`display: contents`), so what is inside it is placed relative to the same origin.
 */
function place(el, node, origin) {
    const style = el.style;
    const frame = node.frame;
    if (!frame) {
        if (style.display !== 'contents') style.display = 'contents';
        return origin;
    }
    if (style.display) style.display = '';
    const px = (v) => `${v}px`;
    const [left, top, width, height] = [px(frame[0] - origin[0]), px(frame[1] - origin[1]), px(frame[2]), px(frame[3])];
    if (style.left !== left) style.left = left;
    if (style.top !== top) style.top = top;
    if (style.width !== width) style.width = width;
    if (style.height !== height) style.height = height;
    const i = contentInsets(node);
    const padding = i.top || i.right || i.bottom || i.left ? `${px(i.top)} ${px(i.right)} ${px(i.bottom)} ${px(i.left)}` : '';
    if (el.dataset.padding !== padding) {
        el.style.padding = padding;
        el.dataset.padding = padding;
    }
    return [frame[0], frame[1]];
}

function setText(el, value) {
    if (el.textContent !== value) el.textContent = value;
}

function setClass(el, name, on) {
    if (el.classList.contains(name) !== on) el.classList.toggle(name, on);
}

function setData(el, name, value) {
    if ((el.dataset[name] ?? '') !== value) {
        if (value) el.dataset[name] = value;
        else delete el.dataset[name];
    }
}

function formatNumber(v) {
    if (typeof v !== 'number') return v === undefined ? '' : String(v);
    return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
}
