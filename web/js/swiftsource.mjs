// Keys written in Swift (docs/protocol.md, "Keys written in Swift"): their source with line numbers, the lines of
// their `reduce` function, and the details of Swift errors. The source is user text: it goes in as text nodes only.

import { h } from './dom.mjs';

/** Whether a key declaration (from a snapshot or a declareKey op) is written in Swift. */
export function isSwiftKey(declaration) {
    return typeof declaration?.swift === 'string';
}

/** What folds a key: "Swift" for a Swift key, else its catalog reducer's name. */
export function keyKind(declaration) {
    return isSwiftKey(declaration) ? 'Swift' : declaration?.reducer ?? '?';
}

/**
 * The 1-based lines `{ start, end }` of the `static func reduce` declaration in `source` (of `struct key` when the
 * source declares several keys), from its first line to the
 * line of the brace that closes its body; null if the source has none. Braces in comments and string literals are
 * ignored (a rough lexer: enough for the subset's keys).
 */
export function reduceLines(source, key = null) {
    const lines = source.split('\n');
    const isReduce = (line) => /\bstatic\s+func\s+reduce\s*\(/.test(withoutLiterals(line));
    // A program declares several keys in one source: the reduce after `struct KEY` is KEY's (else the first one,
    // which a protocol extension may give every key).
    const declared = key ? lines.findIndex((line) => new RegExp(`\\bstruct\\s+${key.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\b`).test(withoutLiterals(line))) : -1;
    let start = declared >= 0 ? lines.findIndex((line, i) => i >= declared && isReduce(line)) : -1;
    if (start < 0) start = lines.findIndex(isReduce);
    if (start < 0) return null;
    let depth = 0;
    let opened = false;
    for (let i = start; i < lines.length; i++) {
        for (const ch of withoutLiterals(lines[i])) {
            if (ch === '{') {
                depth += 1;
                opened = true;
            } else if (ch === '}') {
                depth -= 1;
            }
        }
        if (opened && depth <= 0) return { start: start + 1, end: i + 1 };
    }
    return { start: start + 1, end: start + 1 };
}

/** A line with its string literals emptied and its `//` comment cut. */
function withoutLiterals(line) {
    return line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\/\/.*$/, '');
}

/**
 * The source as numbered lines (`.src-line`, each with `data-line`), the lines of `highlight` ({ start, end })
 * marked `.highlighted` (with `around`, only the lines near it). Built from text nodes: the source is never parsed as markup.
 */
export function sourceView(source, { highlight = null, key = '', around = null } = {}) {
    const lines = source.replace(/\n$/, '').split('\n');
    const width = String(lines.length).length;
    // `around` ({ start, end }): only those lines and three on each side, numbered as in the whole source.
    const first = around ? Math.max(1, around.start - 3) : 1;
    const last = around ? Math.min(lines.length, (around.end ?? around.start) + 3) : lines.length;
    return h('pre', { class: 'swift-source', dataset: { key } },
        lines.slice(first - 1, last).map((text, i) => {
            const n = first + i;
            const lit = highlight && n >= highlight.start && n <= highlight.end;
            return h('div', { class: lit ? 'src-line highlighted' : 'src-line', dataset: { line: n } },
                h('span', { class: 'ln', 'aria-hidden': 'true' }, String(n).padStart(width, ' ')),
                h('code', {}, text || ' '));
        }));
}

/**
 * The details an error reply carries about Swift code, one string each: `line:column: message` per diagnostic of a
 * `compile_error`, `at line:column` (and the stack) for a `runtime_error`. Empty for other errors.
 */
export function errorDetails(reply) {
    if (!reply) return [];
    if (Array.isArray(reply.diagnostics)) {
        return reply.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`);
    }
    if (reply.code === 'runtime_error' && reply.line !== undefined) {
        const stack = Array.isArray(reply.stack) && reply.stack.length
            ? ` (stack: ${reply.stack.map((f) => (typeof f === 'string' ? f : JSON.stringify(f))).join(' ← ')})` : '';
        return [`at ${reply.line}:${reply.column}${stack}`];
    }
    return [];
}
