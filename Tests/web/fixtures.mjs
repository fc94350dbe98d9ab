// Snapshots and diffs recorded from canopyd (commit d11ff92) by a plain protocol client, with `inputs` (the clock and
// the seed) dropped:
// * case6.json — SEMANTICS.md case 6, `VStack { a; Group { b; c } }` with a reader of K (reducer `nest`) on the stack,
//   subscribed with `trace: true`, then `setPreference c K "C"`;
// * signup-keystroke.json — config/examples/validated-signup.swift subscribed with `trace: true`, then `setText "a"`
//   in the Email field;
// * collapsing-header.json, tab-underline.json, equal-width-columns.json — `{ snapshot, diffs, final }`: the example
//   programs of config/examples laid out by canopyd (commit 802c160) on an iPhone 15, subscribed with `trace: true`,
//   then: a `scroll` of the ScrollView to y 120 and a `resize` to `{"device":"iPhone SE"}`; a `tap` on the second tab;
//   a `tap` on "Add Barbara Liskov"; `final` is a fresh snapshot taken after them by another client (the snapshots'
//   `rid` and `clients` dropped too, and the first snapshot's trace).

import { readFileSync } from 'node:fs';

/** The fixture `name` (`{ snapshot, diff }` or `{ snapshot, diffs, final }`), parsed afresh (tests may change it). */
export function fixture(name) {
    return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
