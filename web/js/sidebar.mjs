// The left column: the daemon's trees (polled, the open one kept current by the page), the bundled examples, and
// creating (empty, from an example, from pasted Swift source) and deleting trees.

import { h, fill } from './dom.mjs';
import { errorDetails } from './swiftsource.mjs';

const $ = (id) => document.getElementById(id);

export class Sidebar {
    #shown = ''; // what the tree list shows: it is redrawn only when that changes (a redraw swallows clicks)

    /**
     * `conn` is the client's connection; `open(id)` opens a tree (null: none), `openId()` says which is open,
     * `toast(text, kind, details)` shows a notice.
     */
    constructor({ conn, open, openId, toast }) {
        this.conn = conn;
        this.open = open;
        this.openId = openId;
        this.toast = toast;
        this.trees = [];
        this.examples = [];
        this.#wire();
    }

    async refresh() {
        try {
            const reply = await this.conn.request({ type: 'listTrees' });
            this.trees = reply.trees;
            this.render();
        } catch (error) {
            if (this.conn.isOpen) this.toast(`listing trees failed: ${error.message}`, 'error');
        }
    }

    /** The open tree's entry follows what the page holds at once (the list itself is polled). */
    noteOpenTree(replica, subscribers) {
        const entry = this.trees.find((t) => t.tree === replica?.tree);
        if (!entry) return;
        entry.version = replica.version;
        entry.nodes = replica.size;
        entry.subscribers = subscribers;
    }

    render() {
        const current = this.openId();
        const signature = JSON.stringify([this.trees, current]);
        if (signature === this.#shown) return;
        this.#shown = signature;
        fill($('tree-list'), this.trees.map((t) => h('li', { class: t.tree === current ? 'current' : '', dataset: { tree: t.tree } },
            h('button', { type: 'button', class: 'link', title: t.title || t.tree, onclick: () => this.open(t.tree) }, t.tree),
            h('span', { class: 'meta' }, `${t.program ? 'Swift · ' : ''}v${t.version} · ${t.nodes} nodes · ${t.subscribers} watching`),
            h('button', { type: 'button', class: 'icon danger', title: `delete ${t.tree}`, onclick: () => this.remove(t.tree) }, '✕'))));
    }

    async loadExamples() {
        try {
            const response = await fetch('examples/index.json');
            if (!response.ok) throw new Error(`HTTP ${response.status}`);
            this.examples = await response.json();
        } catch (error) {
            this.examples = [];
            console.info('canopy: no bundled examples', error.message);
        }
        fill($('example-select'), this.examples.length
            ? this.examples.map((e) => h('option', { value: e.file, title: e.title || '' }, e.program ? `${e.tree} (Swift)` : e.tree))
            : h('option', { value: '' }, '(no examples served)'));
    }

    async create(body) {
        try {
            await this.conn.request({ type: 'createTree', ...body });
            this.toast(`created "${body.tree}"`, 'info');
            await this.refresh();
            this.open(body.tree);
        } catch (error) {
            this.toast(`create failed — ${error.reply?.code || ''}: ${error.message}`, 'error', errorDetails(error.reply));
        }
    }

    async remove(id) {
        if (!confirm(`Delete tree "${id}" for everyone?`)) return;
        try {
            await this.conn.request({ type: 'deleteTree', tree: id });
            if (this.openId() === id) this.open(null);
            this.refresh();
        } catch (error) {
            this.toast(`delete failed — ${error.reply?.code || ''}: ${error.message}`, 'error');
        }
    }

    async importExample(file) {
        try {
            const response = await fetch(`examples/${encodeURIComponent(file)}`);
            if (!response.ok) throw new Error(`HTTP ${response.status}`);
            const entry = this.examples.find((e) => e.file === file);
            if (entry?.program) {
                // A program: its header's settings come with the index entry (docs/protocol.md, "HTTP").
                const body = { tree: entry.tree, source: await response.text() };
                for (const field of ['view', 'previewModifiers', 'title', 'description']) if (entry[field]) body[field] = entry[field];
                await this.create(body);
                return;
            }
            const example = await response.json();
            const body = { tree: example.tree, keys: example.keys || [], root: example.root };
            if (example.title) body.title = example.title;
            if (example.description) body.description = example.description;
            await this.create(body);
        } catch (error) {
            this.toast(`import failed: ${error.message}`, 'error');
        }
    }

    #wire() {
        $('create-form').addEventListener('submit', (event) => {
            event.preventDefault();
            this.create({ tree: $('create-id').value.trim() });
            $('create-id').value = '';
        });
        $('import-form').addEventListener('submit', (event) => {
            event.preventDefault();
            if ($('example-select').value) this.importExample($('example-select').value);
        });
        $('source-form').addEventListener('submit', (event) => {
            event.preventDefault();
            const body = { tree: $('source-tree-id').value.trim(), source: $('new-source').value };
            const view = $('source-view').value.trim();
            if (view) body.view = view;
            this.create(body);
        });
    }
}
