// Small DOM helpers. Everything user-supplied goes in as text, never as markup.

/** `h('div', {class: 'x', onclick: f}, child, 'text', [more])`: an element with attributes and children. */
export function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
        if (value === undefined || value === null || value === false) continue;
        if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
        else if (name === 'class') el.className = value;
        else if (name === 'dataset') Object.assign(el.dataset, value);
        else if (name in el && typeof value !== 'string') el[name] = value;
        else el.setAttribute(name, value === true ? '' : value);
    }
    append(el, children);
    return el;
}

function append(el, children) {
    for (const child of children) {
        if (child === null || child === undefined || child === false) continue;
        if (Array.isArray(child)) append(el, child);
        else el.append(child instanceof Node ? child : String(child));
    }
}

/** Replaces an element's content. */
export function fill(el, ...children) {
    el.replaceChildren();
    append(el, children);
    return el;
}

/** A JSON value, short: strings quoted, long values cut with an ellipsis. */
export function short(value, max = 40) {
    if (value === undefined) return '∅';
    const text = JSON.stringify(value);
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** A JSON value, pretty-printed for a detail view. */
export function pretty(value) {
    return value === undefined ? '(absent)' : JSON.stringify(value, null, 2);
}

/** Parses a JSON value typed by a user, with a readable error. */
export function parseJSON(text, what) {
    try {
        return JSON.parse(text);
    } catch (error) {
        throw new Error(`${what} is not valid JSON: ${error.message}`);
    }
}
