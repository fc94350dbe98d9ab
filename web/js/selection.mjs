// What the person looking at the page picked: the tree, the key, the node, the version, the tab, the collapsed rows
// and the filter, and where they are in the reduce order and in a transaction. No DOM: the collapsed rows are kept
// through a `Storage` (the page passes localStorage).

/** The selection of one page. Every change goes through a method; the page redraws after it. */
export class Selection {
    constructor({ storage = globalThis.localStorage } = {}) {
        this.storage = storage;
        this.treeId = null;
        this.key = '';
        this.selected = null;
        this.version = null; // the selected version; null follows the latest
        this.tab = 'node';
        this.collapsed = new Set();
        this.filter = '';
        this.step = 0; // the reduce call shown in the Reduce order tab
        this.whyStep = 0; // the step shown in the Why it ran tab
        this.whyVersion = null; // the version whose steps `whyStep` counts
    }

    /** Takes tree, key, node, version and tab from a read URL hash (hash.mjs). */
    adopt(hash) {
        this.treeId = hash.tree || null;
        this.key = hash.key || '';
        this.selected = hash.node || this.selected;
        this.version = hash.version ?? null;
        this.tab = hash.tab || 'node';
    }

    /** What the URL hash keeps (the default tab is left out). */
    hash() {
        return { tree: this.treeId, key: this.key, node: this.selected, version: this.version, tab: this.tab === 'node' ? null : this.tab };
    }

    /** Starts over on tree `id` (null: none): nothing selected, the latest version, nothing collapsed. */
    openTree(id) {
        Object.assign(this, { treeId: id, selected: null, version: null, step: 0, whyStep: 0 });
        this.collapsed = new Set();
    }

    /** Restores the collapsed rows saved for the open tree. */
    loadCollapsed() {
        this.collapsed = new Set(JSON.parse(this.storage?.getItem(this.#collapsedKey()) || '[]'));
    }

    select(id) {
        this.selected = id;
    }

    /** Forgets the selected node if `replica` no longer has it. */
    keepSelectedIn(replica) {
        if (this.selected && !replica.node(this.selected)) this.selected = null;
    }

    setKey(key) {
        this.key = key;
        this.step = 0;
    }

    setTab(tab) {
        this.tab = tab;
    }

    setFilter(text) {
        this.filter = text;
    }

    selectVersion(version) {
        this.version = version;
        this.step = 0;
    }

    toggle(id) {
        if (this.collapsed.has(id)) this.collapsed.delete(id);
        else this.collapsed.add(id);
        this.#saveCollapsed();
    }

    expandAll() {
        this.collapsed.clear();
        this.#saveCollapsed();
    }

    /** Collapses every node of `replica` that has something under it, except the root. */
    collapseAll(replica) {
        this.collapsed = new Set();
        replica.walk((node) => {
            if (replica.under(node).length) this.collapsed.add(node.id);
        });
        this.collapsed.delete(replica.rootId);
        this.#saveCollapsed();
    }

    /** Expands every ancestor of `id` so that its row exists; returns whether anything changed. */
    expandTo(replica, id) {
        let changed = false;
        for (let at = replica.above(id); at != null; at = replica.above(at)) {
            if (this.collapsed.delete(at)) changed = true;
        }
        if (changed) this.#saveCollapsed();
        return changed;
    }

    /** Moves to reduce call `step` of `count`, clamped; returns the index, or null when there are no calls. */
    setStep(step, count) {
        if (!count) return null;
        this.step = clamp(step, count);
        return this.step;
    }

    /** The Why tab shows `version`: a different version starts at its first step. */
    showWhy(version) {
        if (this.whyVersion === version) return;
        this.whyVersion = version;
        this.whyStep = 0;
    }

    /** Moves to transaction step `step` of `count`, clamped. */
    setWhyStep(step, count) {
        if (!count) return null;
        this.whyStep = clamp(step, count);
        return this.whyStep;
    }

    #collapsedKey() {
        return `canopy.collapsed.${this.treeId}`;
    }

    #saveCollapsed() {
        if (this.treeId) this.storage?.setItem(this.#collapsedKey(), JSON.stringify([...this.collapsed]));
    }
}

function clamp(step, count) {
    return Math.max(0, Math.min(count - 1, step));
}
