// The selection (tree, key, node, version, tab) lives in the URL hash, so a view can be bookmarked and shared.

// The hash as the page last wrote or adopted it. A hash that differs was typed, pasted or navigated to, and its
// `hashchange` event has not been handled yet: the page must not overwrite it before adopting it.
let known = location.hash.slice(1);

/** Reads `#tree=…&key=…&node=…&version=…&tab=…`, and marks it as adopted. */
export function readHash() {
    known = location.hash.slice(1);
    const params = new URLSearchParams(known);
    const out = {};
    for (const name of ['tree', 'key', 'node', 'tab']) if (params.get(name)) out[name] = params.get(name);
    const version = Number(params.get('version'));
    if (params.get('version') !== null && Number.isInteger(version) && version >= 0) out.version = version;
    return out;
}

/** Writes the selection without adding a history entry; empty values are left out. */
export function writeHash(selection) {
    if (location.hash.slice(1) !== known) return; // an outside change is pending: `hashchange` adopts it first
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(selection)) {
        if (value !== null && value !== undefined && value !== '') params.set(name, String(value));
    }
    const hash = params.toString();
    if (hash !== known) {
        history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
        known = hash;
    }
}
