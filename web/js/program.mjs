// A program tree's page-side state: the live view's events still on their way, the source being edited and its
// diagnostics, the source lines shown, and the selected node's bindings and environment (the `inspect` request).
// No DOM: the daemon is reached through the TreeHandle and client passed in.

import { remember } from './bounded.mjs';

/** Nodes with events in flight (a form has a handful; this only bounds a runaway). */
export const PENDING_NODES_KEPT = 1000;

export class ProgramState {
    constructor() {
        this.openTree();
    }

    openTree() {
        this.pendingNodes = new Map(); // node → events this page sent for it that are not acknowledged yet
        this.inspected = null; // the `inspected` reply for the selected node
        this.inspectError = '';
        this.inspecting = ''; // node@version asked for
        this.sourceDraft = null; // the source being edited, or null
        this.sourceDiagnostics = [];
        this.sourceDiagnosed = null; // the text the diagnostics are about
        this.sourceStatus = '';
        this.sourceLine = null; // { start, end } highlighted in the Source tab
    }

    // MARK: Events in flight

    /** Whether this page has events for `node` that are not acknowledged yet (its field keeps what was typed). */
    isPending(node) {
        return (this.pendingNodes.get(node) ?? 0) > 0;
    }

    /** An event for `node` was sent. */
    eventSent(node) {
        remember(this.pendingNodes, node, (this.pendingNodes.get(node) ?? 0) + 1, PENDING_NODES_KEPT);
    }

    /** An event for `node` was acknowledged or rejected; returns whether the node has none in flight any more. */
    eventSettled(node) {
        const left = (this.pendingNodes.get(node) ?? 1) - 1;
        if (left > 0) this.pendingNodes.set(node, left);
        else this.pendingNodes.delete(node);
        return left <= 0;
    }

    // MARK: Source

    /** Edits the source (null: stop editing, forgetting the diagnostics). */
    editSource(text) {
        this.sourceDraft = text;
        if (text === null) {
            this.sourceDiagnostics = [];
            this.sourceStatus = '';
        }
    }

    /**
     * Sends `text` as the program's new source through `handle`; resolves with the diff, or null when it was not
     * applied (a compile error keeps the draft and shows its diagnostics). The status is "applying…" at once.
     */
    async applySource(handle, text) {
        this.sourceDraft = text;
        this.sourceStatus = 'applying…';
        try {
            const diff = await handle.setSource(text);
            this.editSource(null);
            return diff;
        } catch (error) {
            this.sourceStatus = `not applied: ${error.code ?? ''} ${error.message}`;
            this.sourceDiagnostics = error.reply?.diagnostics ?? [];
            this.sourceDiagnosed = text;
            return null;
        }
    }

    /** Shows `lines` ({ start, end }) in the Source tab. */
    showLine(lines) {
        this.sourceLine = lines;
    }

    // MARK: Inspect

    /**
     * Asks `client` for the bindings and environment of `node`, once per (node, replica version). Resolves with
     * whether the answer (or the error) was stored: it is dropped if `isSelected(node)` says the node is no longer
     * selected. Returns null when nothing was asked.
     */
    inspect(client, replica, node, isSelected) {
        if (!replica?.isProgram || !node || !replica.node(node) || !client.isOpen) return null;
        const asked = `${node}@${replica.version}`;
        if (this.inspecting === asked) return null;
        this.inspecting = asked;
        return client.request({ type: 'inspect', tree: replica.tree, node }).then(
            (reply) => {
                if (!isSelected(node)) return false;
                this.inspected = reply;
                this.inspectError = '';
                return true;
            },
            (error) => {
                if (!isSelected(node)) return false;
                this.inspected = null;
                this.inspectError = error.reply ? `${error.reply.code}: ${error.message}` : error.message;
                return true;
            },
        );
    }
}
