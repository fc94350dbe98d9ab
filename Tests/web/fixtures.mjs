// Snapshots and diffs recorded from canopyd (commit d11ff92) by a plain protocol client, with `inputs` (the clock and
// the seed) dropped:
// * case6.json — SEMANTICS.md case 6, `VStack { a; Group { b; c } }` with a reader of K (reducer `nest`) on the stack,
//   subscribed with `trace: true`, then `setPreference c K "C"`;
// * signup-keystroke.json — config/examples/validated-signup.swift subscribed with `trace: true`, then `setText "a"`
//   in the Email field.

import { readFileSync } from 'node:fs';

/** `{ snapshot, diff }` of fixture `name`, parsed afresh (tests may change what they get). */
export function fixture(name) {
    return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
