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
 * The 1-based lines `{ start, end }` of the `static func reduce` declaration in `source`, from its first line to the
 * line of the brace that closes its body; null if the source has none. Braces in comments and string literals are
 * ignored (a rough lexer: enough for the subset's keys).
 */
export function reduceLines(source) {
    const lines = source.split('\n');
    const start = lines.findIndex((line) => /\bstatic\s+func\s+reduce\s*\(/.test(withoutLiterals(line)));
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
 * marked `.highlighted`. Built from text nodes: the source is never parsed as markup.
 */
export function sourceView(source, { highlight = null, key = '' } = {}) {
    const lines = source.replace(/\n$/, '').split('\n');
    const width = String(lines.length).length;
    return h('pre', { class: 'swift-source', dataset: { key } },
        lines.map((text, i) => {
            const n = i + 1;
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
