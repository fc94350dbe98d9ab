// The selection (tree, key, node, version, tab) lives in the URL hash, so a view can be bookmarked and shared.

/** Reads `#tree=…&key=…&node=…&version=…&tab=…`. */
export function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const out = {};
    for (const name of ['tree', 'key', 'node', 'tab']) if (params.get(name)) out[name] = params.get(name);
    const version = Number(params.get('version'));
    if (params.get('version') !== null && Number.isInteger(version) && version >= 0) out.version = version;
    return out;
}

/** Writes the selection without adding a history entry; empty values are left out. */
export function writeHash(selection) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(selection)) {
        if (value !== null && value !== undefined && value !== '') params.set(name, String(value));
    }
    const hash = params.toString();
    if (hash !== location.hash.slice(1)) history.replaceState(null, '', hash ? `#${hash}` : location.pathname);
}
