// Maps that keep at most a given number of entries, dropping the oldest first, so that a page left open for days
// holds no more than it shows. Pure: no DOM.

/** Sets `key` and drops the earliest inserted entries beyond `cap` (a key set again counts as new). */
export function remember(map, key, value, cap) {
    map.delete(key);
    map.set(key, value);
    while (map.size > cap) map.delete(map.keys().next().value);
}

/**
 * Sets `version` (a number) and drops the lowest versions beyond `cap`. Versions can arrive out of order (the log's
 * history is fetched while live diffs come in), so the oldest is the smallest key, not the first inserted.
 */
export function rememberVersion(map, version, value, cap) {
    map.set(version, value);
    while (map.size > cap) {
        let lowest = Infinity;
        for (const v of map.keys()) if (v < lowest) lowest = v;
        map.delete(lowest);
    }
}
