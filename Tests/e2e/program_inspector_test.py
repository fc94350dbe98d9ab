#!/usr/bin/env python3
"""Two inspectors on one Swift program tree at once, in two real headless Chromiums, against a real canopyd.

Usage: program_inspector_test.py PATH/TO/canopyd [ARTIFACTS_DIR]

Starts canopyd on a free port with a fresh data directory (so the example trees and programs are loaded), opens the
inspector in two browsers (A and B) and drives the live view of the programs with real keystrokes and clicks: typing
in one browser shows in the other, a focused field keeps its caret while the other browser types, controls work,
setSource from the Source tab (a compile error, then a hot reload), the Why it ran tab, a tree created from pasted
source, two cells sharing one object shown once in the State tab, the tree list against the header, and the demo page of the client library. It measures how long a keystroke
typed in A takes until B has drawn it and writes the numbers to ARTIFACTS_DIR/keystrokes.json (default
artifacts/program-inspector), with screenshots. Exits non-zero if any check fails; every failure is printed with its
detail.
"""
import json, math, os, re, shutil, statistics, sys, tempfile, time, traceback, urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from e2e import ROOT, Checks
from inspector_test import (Client, Daemon, browser, canonical, click, click_row, first_difference, js, open_tree,
                            retrying, settle, tab, text, texts, value, wait_until)

check = Checks(verbose=True)

SIGNUP = "validated-signup"
GALLERY = "controls-gallery"
KEYSTROKES = 100


# MARK: the program trees, read from the daemon (not from the page)

def walk(node):
    yield node
    for m in node.get("modifiers") or []:
        if m.get("node"):
            yield from walk(m["node"])
    for c in node.get("children") or []:
        yield from walk(c)


def find(root, type, **props):
    """The id of the first node of `type` whose props have the given values (a `text_prefix` matches the start of
    `text`)."""
    prefix = props.pop("text_prefix", None)
    for n in walk(root):
        p = n.get("props") or {}
        if n["type"] == type and all(p.get(k) == v for k, v in props.items()) and (
                prefix is None or str(p.get("text", "")).startswith(prefix)):
            return n["id"]
    raise AssertionError(f"no {type} {props} {prefix or ''} in the tree")


def parent_of(root, id):
    for n in walk(root):
        if any(c["id"] == id for c in n.get("children") or []):
            return n["id"]
    return None


def snapshot(port, tree, trace=False):
    """A fresh snapshot from a plain protocol client that leaves right after."""
    c = Client(port, "checker")
    try:
        return c.snapshot(tree, trace=trace)
    finally:
        c.close()


def cells(entries):
    return sorted(({"node": c["node"], "name": c["name"], "value": c["value"]} for c in entries),
                  key=lambda c: (c["node"], c["name"]))


def daemon_view(port, tree):
    snap = snapshot(port, tree)
    return {"version": snap["version"], "root": canonical(snap["root"]), "cells": cells(snap.get("state") or [])}


def cell(view, node, name):
    return next((c["value"] for c in view["cells"] if c["node"] == node and c["name"] == name), None)


# MARK: the page

PAGE_VIEW = """
    const r = window.canopyInspector.state.replica;
    return r ? JSON.stringify({tree: r.tree, version: r.version, root: r.toJSON(), cells: [...r.cells.values()]}) : null;"""


def page_view(d):
    v = json.loads(js(d, PAGE_VIEW) or "null")
    if v:
        v["cells"] = cells(v["cells"])
    return v


def page_version(d):
    return js(d, "return window.canopyInspector.state.replica?.version ?? null")


def quiet(d):
    """No event of this page is waiting for its acknowledgement."""
    return js(d, "const s = window.canopyInspector.state;"
                 "return s.pendingNodes.size === 0 && (!s.handle || s.handle.pending.size === 0)")


def same_as_daemon(d, port, tree):
    """Whether the page's replica (nodes, version and @State cells) equals a fresh snapshot of the daemon's tree."""
    want = daemon_view(port, tree)
    wait_until(lambda: quiet(d) and page_version(d) == want["version"])
    got = page_view(d)
    mine = {k: got[k] for k in ("version", "root", "cells")} if got else None
    if mine != want:
        print("  first difference:", first_difference(mine, want) if mine else "no replica")
    return mine == want


def open_page(d, url, tree):
    """Loads the inspector at `url` and waits until it shows program `tree` and has handled what came with it."""
    d.get(url)
    ok = wait_until(lambda: js(d, """
        const s = window.canopyInspector?.state;
        return !!(s && s.conn.isOpen && s.replica && s.replica.tree === arguments[0]
                  && document.querySelector('#preview [data-node]'))""", tree))
    if not ok:
        raise AssertionError(f"{url} never showed {tree}")
    settle(d)


def open_program(d, tree, node):
    """Selects `tree` in the tree list and waits until its live view has drawn `node`."""
    if not open_tree(d, tree):
        raise AssertionError(f"selecting {tree} in the tree list did not open it")
    if not wait_until(lambda: js(d, "return !!document.querySelector(arguments[0])", f'#preview [data-node="{node}"]')):
        raise AssertionError(f"the live view of {tree} never drew {node}")
    settle(d)


def field(node):
    return f'#preview label.pv-field[data-node="{node}"] input.pv-input'


def shown(d, node):
    """The text the live view shows for a Text node (None if it is not drawn)."""
    return js(d, "const e = document.querySelector(arguments[0]); return e ? e.textContent : null",
              f'#preview span.pv-text[data-node="{node}"]')


def listed(d, node):
    """The texts the live view shows inside `node` (a ForEach of messages), in order."""
    return js(d, "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)",
              f'#preview [data-node="{node}"] span.pv-text')


def type_keys(d, css, keys):
    """Real keystrokes into the element at `css` (WebDriver focuses it first if it is not focused: caret at the end)."""
    retrying(lambda: d.find_element(By.CSS_SELECTOR, css).send_keys(keys))


def press(d, css):
    """A real (native) mouse click on the element at `css`."""
    retrying(lambda: d.find_element(By.CSS_SELECTOR, css).click())


def last_seq(d):
    return js(d, "const m = window.canopyInspector.timings.sentAt; return m.size ? Math.max(...m.keys()) : 0")


def acked_version(d, seq):
    return js(d, "return window.canopyInspector.timings.ackedVersion.get(arguments[0]) ?? null", seq)


def keystroke(d, css, key):
    """Types one key into `css` and returns (seq, version) of the event it sent once the daemon acknowledged it."""
    before = last_seq(d)
    type_keys(d, css, key)
    seq = wait_until(lambda: last_seq(d) > before and last_seq(d), interval=0.01)
    if not seq:
        raise AssertionError(f"typing {key!r} into {css} sent no event")
    version = wait_until(lambda: acked_version(d, seq), interval=0.01)
    if version is None:
        raise AssertionError(f"the event {seq} of {key!r} was never acknowledged")
    return seq, version


# The tree list keeps each tree's version, node count and subscriber count; the open tree's entry must follow its
# diffs at once, not at the next 3 s poll. A listener added after the page's own one (the client library calls
# them in order, in the same task) reads the header and the entry just after the page has drawn each diff.
LIST_HOOK = """
    const s = window.canopyInspector.state;
    const tree = s.replica.tree;
    window.listSeen = [];
    s.handle.on('diff', ({diff}) => {
        const meta = document.querySelector(`#tree-list li[data-tree="${tree}"] .meta`);
        window.listSeen.push({version: diff.version, header: document.getElementById('tree-title').textContent,
                              meta: meta ? meta.textContent : null, clients: s.clientCount});
    });"""


def list_follows_header(d, who, tree, version):
    """Every diff drawn since LIST_HOOK, up to `version`: the entry said what the header said, at once."""
    seen = wait_until(lambda: [e for e in js(d, "return window.listSeen || []") if e["version"] <= version]
                      if any(e["version"] == version for e in js(d, "return window.listSeen || []")) else None)
    if not seen:
        return check(f"{who}: the diff of v{version} was drawn", False)

    def agrees(e):
        header = re.fullmatch(rf"{re.escape(tree)} · v(\d+) · (\d+) nodes", e["header"] or "")
        meta = re.fullmatch(r"Swift · v(\d+) · (\d+) nodes · (\d+) watching", e["meta"] or "")
        return bool(header and meta and header[1] == str(e["version"]) and meta[1] == header[1]
                    and meta[2] == header[2] and int(meta[3]) >= 1 and int(meta[3]) == e["clients"])

    wrong = [e for e in seen if not agrees(e)]
    last = seen[-1]
    return check(f"{who}: right after each of {len(seen)} diffs up to v{version} is drawn, the tree list entry shows "
                 f"the header's version and node count, and the page among the watchers (last: {last['meta']!r} / "
                 f"header {last['header']!r})", not wrong, wrong)


def viewport(d, width, height):
    """Sizes the window so that the page gets `width` x `height` (the screenshots' size)."""
    d.set_window_size(width, height)
    inner = js(d, "return [window.innerWidth, window.innerHeight]")
    d.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def console_errors(d):
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE"]


# MARK: the parts

class Run:
    def __init__(self, daemon, a, b, artifacts):
        self.port = daemon.port
        self.base = f"http://127.0.0.1:{daemon.port}/"
        self.A, self.B = a, b
        self.artifacts = artifacts
        root = snapshot(self.port, SIGNUP)["root"]
        self.signup_root = root
        self.email = find(root, "TextField", title="Email")
        self.email_view = find(root, "ValidatedField", title="Email")
        # The ForEach of a field's messages is the sibling of the If that holds the field.
        self.email_messages = self.messages_of(root, self.email)
        self.password = find(root, "SecureField", title="Password")
        self.password_messages = self.messages_of(root, self.password)
        self.confirm = find(root, "SecureField", title="Confirm password")
        self.count = "SignupForm/0:Form/1:Section/0:Text"
        self.button = find(root, "Button", title="Create account")
        self.form = find(root, "Form")

    @staticmethod
    def messages_of(root, field_id):
        stack = parent_of(root, parent_of(root, field_id))  # field → If → VStack
        return next(c["id"] for n in walk(root) if n["id"] == stack for c in n["children"] if c["type"] == "ForEach")

    def shot(self, d, name):
        d.save_screenshot(os.path.join(self.artifacts, name))

    # 1. Both browsers open the form; A types an email, B sees it.
    def typing_together(self):
        A, B = self.A, self.B
        open_page(A, self.base + "#tree=" + SIGNUP, SIGNUP)
        state_url = self.base + "#" + urllib.parse.urlencode({"tree": SIGNUP, "node": self.email, "tab": "state"})
        open_page(B, state_url, SIGNUP)
        for d in (A, B):
            js(d, LIST_HOOK)
        check("both browsers start with the form's count at '3 errors'",
              wait_until(lambda: shown(A, self.count) == "3 errors" and shown(B, self.count) == "3 errors"),
              (shown(A, self.count), shown(B, self.count)))
        check("B shows 'Email is required' under the empty Email field",
              wait_until(lambda: listed(B, self.email_messages) == ["Email is required"]), listed(B, self.email_messages))
        check("B opened the State tab on the Email TextField from the URL",
              wait_until(lambda: js(B, "return window.canopyInspector.state.tab") == "state"
                         and text(B, "#tab-state h3 .id") == self.email), text(B, "#tab-state h3"))

        type_keys(A, field(self.email), "ann@")
        check("B's Email field shows what A typed so far ('ann@')",
              wait_until(lambda: value(B, field(self.email)) == "ann@"), value(B, field(self.email)))
        check("B shows the email message of a half-typed address",
              wait_until(lambda: listed(B, self.email_messages) == ["Enter a valid email address"]),
              listed(B, self.email_messages))
        email_cell = '#all-cells tr[data-node="SignupForm"][data-name="email"] td.value'
        check("B's State tab lists SignupForm's email cell with the half-typed value",
              wait_until(lambda: text(B, email_cell) == '"ann@"'), text(B, email_cell))
        self.shot(B, "program-live.png")

        type_keys(A, field(self.email), "example.com")
        check("B's Email field shows 'ann@example.com'",
              wait_until(lambda: value(B, field(self.email)) == "ann@example.com"), value(B, field(self.email)))
        check("the email message is gone in B", wait_until(lambda: listed(B, self.email_messages) == []),
              listed(B, self.email_messages))
        check("the count goes to '2 errors' in both browsers",
              wait_until(lambda: shown(A, self.count) == "2 errors" and shown(B, self.count) == "2 errors"),
              (shown(A, self.count), shown(B, self.count)))
        check("A's own field still holds what it typed", value(A, field(self.email)) == "ann@example.com",
              value(A, field(self.email)))
        wait_until(lambda: quiet(A))
        version = page_version(A)
        check("typing a valid address removed the message node (the node count changed on the way)",
              len(list(walk(snapshot(self.port, SIGNUP)["root"]))) == len(list(walk(self.signup_root))) - 1)
        # 7. The tree list against the header, in both browsers, for every version drawn while A typed (one of them
        # changed the node count).
        list_follows_header(A, "A", SIGNUP, version)
        list_follows_header(B, "B", SIGNUP, version)
        check("B's State tab shows the final email", wait_until(lambda: text(B, email_cell) == '"ann@example.com"'),
              text(B, email_cell))

        # Bindings and environment come from the `inspect` request, which the daemon may not have yet.
        inspected = wait_until(lambda: js(B, """
            if (document.querySelector('#node-bindings, #node-environment')) return 'shown';
            const s = document.getElementById('inspect-status');
            return s && s.textContent.includes('unavailable') ? s.textContent : null;"""))
        if inspected == "shown":
            target = '#node-bindings tr[data-name="text"] .binding-target'
            check("B's State tab shows the field's text binding, with its value, pointing at SignupForm's email cell",
                  wait_until(lambda: js(B, "return !!document.querySelector(arguments[0])",
                                        target + ' .node-link[data-node="SignupForm"]') and ".email" in text(B, target)
                             and text(B, '#node-bindings tr[data-name="text"] td.value') == '"ann@example.com"'),
                  text(B, "#tab-state"))
        else:
            check("B's State tab shows the node's bindings (the inspect request answered)", False, inspected)

    # 2. A keeps its focus and caret while B types into another field.
    def focus_and_caret(self):
        A, B = self.A, self.B
        press(A, field(self.password))
        type_keys(A, field(self.password), "abc")
        check("A's Password field holds 'abc'", wait_until(lambda: value(A, field(self.password)) == "abc" and quiet(A)),
              value(A, field(self.password)))
        check("B's Password field shows A's 'abc'", wait_until(lambda: value(B, field(self.password)) == "abc"),
              value(B, field(self.password)))
        type_keys(B, field(self.confirm), "abc")
        check("A's Confirm field shows what B typed",
              wait_until(lambda: value(A, field(self.confirm)) == "abc" and quiet(B)), value(A, field(self.confirm)))
        caret = js(A, """const e = document.querySelector(arguments[0]);
            return {focused: document.activeElement === e, value: e.value, start: e.selectionStart, end: e.selectionEnd}""",
                   field(self.password))
        check("A's Password field kept its focus, its value and its caret while B typed",
              caret == {"focused": True, "value": "abc", "start": 3, "end": 3}, caret)
        type_keys(A, field(self.password), "12345")
        check("A goes on typing where it was: 'abc12345'",
              wait_until(lambda: value(A, field(self.password)) == "abc12345" and quiet(A)), value(A, field(self.password)))
        check("B sees 'abc12345' in the Password field",
              wait_until(lambda: value(B, field(self.password)) == "abc12345"), value(B, field(self.password)))
        check("the password's messages are gone in both browsers",
              wait_until(lambda: listed(A, self.password_messages) == [] and listed(B, self.password_messages) == []))
        daemon = daemon_view(self.port, SIGNUP)
        check("the daemon holds email, password and confirmation as typed",
              (cell(daemon, "SignupForm", "email"), cell(daemon, "SignupForm", "password"),
               cell(daemon, "SignupForm", "confirmation")) == ("ann@example.com", "abc12345", "abc"), daemon["cells"])
        check("A's replica equals the daemon's tree", same_as_daemon(A, self.port, SIGNUP))
        check("B's replica equals the daemon's tree", same_as_daemon(B, self.port, SIGNUP))

    # 5. Why it ran, in B, for a keystroke typed in A.
    def why_it_ran(self):
        A, B = self.A, self.B
        listener = Client(self.port, "why-listener")
        snap = listener.snapshot(SIGNUP, trace=True)
        key_source = next(k["swift"] for k in snap["keys"] if k["key"] == "ValidationMessages")
        keystroke(A, field(self.email), Keys.END)  # focuses the field: a `focus` event of its own
        wait_until(lambda: quiet(A))
        _, version = keystroke(A, field(self.email), ".")  # "ann@example.com.": the email turns invalid again
        diff = listener.wait_for(lambda m: m.get("type") == "diff" and m.get("version") == version)
        listener.close()
        check("the daemon traced the keystroke's transaction", diff and diff.get("trace"), diff)
        events = [e for e in diff["trace"]["events"] if e["e"] in ("action", "body", "state", "reduce", "fire", "perform",
                                                                   "onChange", "layout", "geometry")]
        tab(B, "why")
        check(f"B's Why tab shows the keystroke's version v{version}",
              wait_until(lambda: text(B, "#why-version") == f"v{version}"), text(B, "#why-version"))
        settle(B)
        steps = js(B, """return [...document.querySelectorAll('#why-steps li.why-step')].map(li => ({
            step: Number(li.dataset.step), kind: li.dataset.kind, node: li.dataset.node,
            text: li.querySelector('.step-text').textContent,
            line: li.querySelector('.line-link') ? Number(li.querySelector('.line-link').dataset.line) : null}))""")
        want = [("cause", self.email)] + [(e["e"], e["node"]) for e in events]
        check("the Why tab lists the cause and then every traced step in the daemon's order",
              [(s["kind"], s["node"]) for s in steps] == want, ([(s["kind"], s["node"]) for s in steps], want))
        # What the form's code makes happen, in this order (PROGRAMS.md §6).
        expected = [("cause", lambda s: s["node"] == self.email and "setText" in s["text"]),
                    ("action", lambda s: s["node"] == self.email),
                    ("state", lambda s: s["node"] == "SignupForm" and s["text"].startswith("email = ")),
                    ("body", lambda s: s["node"] == self.email_view and "ValidatedField.body because email" in s["text"]),
                    ("reduce", lambda s: s["text"].startswith("ValidationMessages.reduce(")),
                    ("fire", lambda s: s["node"] == self.form and "ValidationMessages" in s["text"]),
                    ("perform", lambda s: s["node"] == self.form)]
        at, found = 0, []
        for kind, matches in expected:
            while at < len(steps) and not (steps[at]["kind"] == kind and matches(steps[at])):
                at += 1
            if at == len(steps):
                break
            found.append(at)
            at += 1
        check("cause, action, state, body (ValidatedField because email), reduce of ValidationMessages, reader fired "
              "and onPreferenceChange come in that order", len(found) == len(expected),
              [(s["kind"], s["text"]) for s in steps])

        # The reduce steps link to the key's reduce function (found in the key's Swift source by the page).
        lines = key_source.split("\n")
        declared = next(i for i, l in enumerate(lines) if re.search(r"\bstruct\s+ValidationMessages\b", l))
        reduce_start = next(i for i, l in enumerate(lines) if i >= declared and "static func reduce(" in l) + 1
        depth, reduce_end = 0, None
        for i in range(reduce_start - 1, len(lines)):
            depth += lines[i].count("{") - lines[i].count("}")
            if depth <= 0 and "{" in "".join(lines[reduce_start - 1:i + 1]):
                reduce_end = i + 1
                break
        check(f"every reduce step links to line {reduce_start} (static func reduce)",
              all(s["line"] == reduce_start for s in steps if s["kind"] == "reduce"),
              [(s["kind"], s["line"]) for s in steps])
        # Lines of closures and bodies: the `line` the daemon puts in its trace events.
        lined = [(s, e) for s, e in zip(steps[1:], events) if e["e"] in ("action", "body", "perform", "onChange")]
        check("the daemon's action, body and onPreferenceChange trace steps carry their source line",
              lined and all("line" in e for _, e in lined), [e for _, e in lined])
        check("action, body and onPreferenceChange steps link to the lines the trace gives",
              all(s["line"] == e.get("line") for s, e in lined), [(s["kind"], s["line"], e.get("line")) for s, e in lined])
        # Where a Swift developer would look: the field that took the keystroke, the body that ran, the closure.
        program = snap["program"]["source"].split("\n")
        line_of = lambda pattern, after=0: next(i + 1 for i, l in enumerate(program) if i >= after and pattern in l)
        field_view = line_of("struct ValidatedField")
        want_lines = {("action", self.email): line_of("TextField(title, text: $text)", field_view),
                      ("body", self.email_view): line_of("var body: some View", field_view),
                      ("perform", self.form): line_of(".onPreferenceChange(ValidationMessages.self)")}
        got_lines = {(s["kind"], s["node"]): s["line"] for s in steps if (s["kind"], s["node"]) in want_lines}
        check("the keystroke's action links to the TextField's line, the field's body to its `var body`, the "
              "reader's closure to its `.onPreferenceChange`", got_lines == want_lines, (got_lines, want_lines))

        def current():
            return js(B, """return {label: document.getElementById('why-label')?.textContent,
                current: [...document.querySelectorAll('#why-steps li.why-step.current')].map(li => Number(li.dataset.step)),
                rows: [...document.querySelectorAll('.row.current-call')].map(r => r.dataset.node),
                preview: [...document.querySelectorAll('#preview .pv-highlight')].map(e => e.dataset.node)}""")

        n = len(steps)
        first = current()
        check("the first step is current and the changed field is highlighted in the tree and the live view",
              first == {"label": f"step 1 of {n}", "current": [0], "rows": [self.email], "preview": [self.email]}, first)
        reduce_at = next(i for i, s in enumerate(steps) if s["kind"] == "reduce")
        moved = True
        for i in range(1, reduce_at + 1):
            click(B, "#why-next")
            node = steps[i]["node"]
            want_now = {"label": f"step {i + 1} of {n}", "current": [i], "rows": [node], "preview": [node]}
            if not wait_until(lambda: current() == want_now):
                moved = check(f"▶ moves to step {i + 1} ({steps[i]['kind']}) and highlights {node}", False, current())
                break
        if moved:
            check(f"▶ steps one by one to the first reduce (step {reduce_at + 1}), moving `current` and the highlight",
                  True)
        check("the reduce step shows its reduce function with the lines highlighted",
              wait_until(lambda: texts(B, "#why-source .src-line.highlighted .ln") and
                         [int(t) for t in texts(B, "#why-source .src-line.highlighted .ln")]
                         == list(range(reduce_start, reduce_end + 1))),
              texts(B, "#why-source .src-line.highlighted .ln"))
        self.shot(B, "program-why.png")
        click(B, "#why-prev")
        back = steps[reduce_at - 1]["node"]
        check("◀ goes back one step", wait_until(lambda: current() == {
            "label": f"step {reduce_at} of {n}", "current": [reduce_at - 1], "rows": [back], "preview": [back]}), current())
        click(B, "#why-next")
        click(B, "#why-steps li.why-step.current .line-link")
        check("the reduce step's line link opens the Source tab at the reduce function",
              wait_until(lambda: js(B, "return window.canopyInspector.state.tab") == "source"
                         and [int(t) for t in texts(B, "#tab-source .src-line.highlighted .ln")]
                         == list(range(reduce_start, reduce_end + 1))),
              texts(B, "#tab-source .src-line.highlighted .ln"))

        keystroke(A, field(self.email), Keys.BACKSPACE)
        check("A's backspace takes the '.' away again in both browsers",
              wait_until(lambda: value(B, field(self.email)) == "ann@example.com" and shown(B, self.count) == "1 error"),
              (value(B, field(self.email)), shown(B, self.count)))

    # 4. setSource from A's Source tab: a compile error changes nothing; a valid change keeps the typed state.
    def source(self):
        A, B = self.A, self.B
        tab(A, "source")  # A's Email field loses its focus: a `focus` event
        click(A, "#edit-source")
        if not wait_until(lambda: js(A, "return !!document.getElementById('source-editor')")):
            raise AssertionError("the source editor did not open")
        wait_until(lambda: quiet(A))
        before = daemon_view(self.port, SIGNUP)
        wait_until(lambda: page_version(A) == before["version"] and page_version(B) == before["version"])
        views = {"A": page_view(A), "B": page_view(B)}
        source = js(A, "return document.getElementById('source-editor').value")
        lines = source.split("\n")
        at = next(i for i, l in enumerate(lines) if "Ready to create your account" in l)
        bad = 'let x: Int = "a"'
        indent = len(lines[at]) - len(lines[at].lstrip())
        self.replace_in_editor(A, at, indent, len(lines[at]), bad)
        typed = js(A, "return document.getElementById('source-editor').value").split("\n")
        check("the typed line replaced the Text line in the editor", typed[at] == " " * indent + bad, typed[at])
        click(A, "#apply-source")
        line, column = at + 1, indent + bad.index('"a"') + 1
        diagnostics = wait_until(lambda: texts(A, "#source-diagnostics li"))
        check(f"the Source tab lists the compile error at {line}:{column}",
              diagnostics and len(diagnostics) == 1 and diagnostics[0].startswith(f"{line}:{column}: ")
              and "Int" in diagnostics[0]
              and js(A, "return document.querySelector('#source-diagnostics li').dataset.line") == str(line), diagnostics)
        marked = js(A, "return [...document.querySelectorAll('#source-annotated .src-line.diagnosed')].map(e => e.dataset.line)")
        check(f"line {line}, and only it, is marked diagnosed", marked == [str(line)], marked)
        check("the status says the source was not applied", "compile_error" in text(A, "#source-status"),
              text(A, "#source-status"))
        check("the editor keeps the draft", js(A, "return document.getElementById('source-editor')?.value")
              == "\n".join(typed))
        js(A, "document.querySelector('#source-annotated .src-line.diagnosed').scrollIntoView({block: 'center'})")
        self.shot(A, "program-source-error.png")
        settle(A)
        settle(B)
        after = daemon_view(self.port, SIGNUP)
        check("the daemon's tree did not change", after == before, first_difference(after, before))
        for who, d in (("A", A), ("B", B)):
            check(f"{who}'s version and replica are unchanged by the rejected source", page_view(d) == views[who],
                  first_difference(page_view(d), views[who]))

        click(A, "#cancel-source")
        click(A, "#edit-source")
        wait_until(lambda: js(A, "return !!document.getElementById('source-editor')"))
        source = js(A, "return document.getElementById('source-editor').value")
        lines = source.split("\n")
        at = next(i for i, l in enumerate(lines) if 'Button("Create account")' in l)
        start = lines[at].index("Create account")
        self.replace_in_editor(A, at, start, start + len("Create account"), "Sign up now")
        click(A, "#apply-source")
        check("a valid source closes the editor and shows the new source",
              wait_until(lambda: js(A, "return !document.getElementById('source-editor')")
                         and 'Button("Sign up now")' in text(A, f'#tab-source .swift-source .src-line[data-line="{at + 1}"]')),
              text(A, "#source-status"))
        button = f'#preview button.pv-button[data-node="{self.button}"]'
        check("both browsers show the button's new title",
              wait_until(lambda: text(A, button) == "Sign up now" and text(B, button) == "Sign up now"),
              (text(A, button), text(B, button)))
        check("B's Source tab shows the new source too",
              wait_until(lambda: 'Button("Sign up now")' in text(B, f'#tab-source .src-line[data-line="{at + 1}"]')))
        after = daemon_view(self.port, SIGNUP)
        check("the source change is one version", after["version"] == before["version"] + 1,
              (after["version"], before["version"]))
        check("the typed state survived the hot reload",
              (cell(after, "SignupForm", "email"), cell(after, "SignupForm", "password"))
              == ("ann@example.com", "abc12345"), after["cells"])
        check("both browsers still show the typed email",
              wait_until(lambda: value(A, field(self.email)) == value(B, field(self.email)) == "ann@example.com"),
              (value(A, field(self.email)), value(B, field(self.email))))
        check("A's replica equals the daemon's tree after the hot reload", same_as_daemon(A, self.port, SIGNUP))
        check("B's replica equals the daemon's tree after the hot reload", same_as_daemon(B, self.port, SIGNUP))

    @staticmethod
    def replace_in_editor(d, line, start, end, replacement):
        """Selects columns [start, end) of `line` (0-based) in the source editor, then types `replacement` over it."""
        js(d, """const area = document.getElementById('source-editor');
            const lines = area.value.split('\\n');
            const offset = lines.slice(0, arguments[0]).reduce((n, l) => n + l.length + 1, 0);
            area.focus();
            area.setSelectionRange(offset + arguments[1], offset + arguments[2]);""", line, start, end)
        ActionChains(d).send_keys(replacement).perform()

    # 8. The demo page of the client library next to the inspector.
    def demo_page(self):
        A, B = self.A, self.B
        B.get(self.base + "demo/signup.html")
        email, confirm = 'input[data-title="Email"]', 'input[data-title="Confirm password"]'
        check("the demo page shows the form's state",
              wait_until(lambda: text(B, "#count") == shown(A, self.count) == "1 error"
                         and value(B, email) == "ann@example.com"
                         and texts(B, "#messages li") == ["Passwords do not match"]),
              (text(B, "#count"), value(B, email), texts(B, "#messages li")))
        press(B, email)
        type_keys(B, email, Keys.CONTROL + "a")
        type_keys(B, email, "demo@example.org")
        check("what is typed on the demo page shows in the inspector",
              wait_until(lambda: value(A, field(self.email)) == "demo@example.org"), value(A, field(self.email)))
        press(A, field(self.confirm))
        type_keys(A, field(self.confirm), Keys.CONTROL + "a")
        type_keys(A, field(self.confirm), "abc12345")
        check("what is typed in the inspector shows on the demo page",
              wait_until(lambda: value(B, confirm) == "abc12345"), value(B, confirm))
        check("the demo page and the inspector agree: no errors left",
              wait_until(lambda: text(B, "#count") == "0 errors" and texts(B, "#messages li") == []
                         and shown(A, self.count) == "0 errors"), (text(B, "#count"), shown(A, self.count)))
        check("the inspector's button is enabled once nothing is left",
              wait_until(lambda: js(A, "return document.querySelector(arguments[0])?.disabled === false",
                                    f'#preview button.pv-button[data-node="{self.button}"]')))
        view = daemon_view(self.port, SIGNUP)
        check("the daemon holds both changes",
              (cell(view, "SignupForm", "email"), cell(view, "SignupForm", "confirmation"))
              == ("demo@example.org", "abc12345"), view["cells"])
        check("A's replica equals the daemon's tree", same_as_daemon(A, self.port, SIGNUP))

    # 3. The controls gallery: button, stepper, toggle and slider, each seen in the other browser.
    def controls(self):
        A, B = self.A, self.B
        root = snapshot(self.port, GALLERY)["root"]
        tap = find(root, "Button", title="Tap me")
        tapped = find(root, "Text", text_prefix="Tapped")
        quantity = find(root, "Stepper", title="Quantity: 2")
        toggle = find(root, "Toggle", title="Notifications")
        slider = find(root, "Slider")
        volume = find(root, "Text", text_prefix="Volume")
        last = find(root, "Text", text_prefix="Last change")
        open_program(A, GALLERY, tap)
        open_page(B, self.base + "#tree=" + GALLERY, GALLERY)
        both = lambda f: (f(A), f(B))
        check("both browsers start at 'Tapped 0 times'",
              wait_until(lambda: both(lambda d: shown(d, tapped)) == ("Tapped 0 times",) * 2), both(lambda d: shown(d, tapped)))
        press(A, f'#preview button.pv-button[data-node="{tap}"]')
        check("A taps the button: both show 'Tapped 1 time'",
              wait_until(lambda: both(lambda d: shown(d, tapped)) == ("Tapped 1 time",) * 2), both(lambda d: shown(d, tapped)))

        stepper = f'#preview div.pv-stepper[data-node="{quantity}"]'
        caption = lambda d: text(d, stepper + " span.pv-caption")  # a Stepper with a label shows only the label
        check("the Quantity stepper starts at 2", both(caption) == ("Quantity: 2",) * 2, both(caption))
        press(B, stepper + ' button[aria-label="increment"]')
        check("B increments the stepper: both show 'Quantity: 4'",
              wait_until(lambda: both(caption) == ("Quantity: 4",) * 2), both(caption))
        check("its onChange ran: both show the change",
              wait_until(lambda: both(lambda d: shown(d, last)) == ("Last change: quantity 2 → 4",) * 2),
              both(lambda d: shown(d, last)))

        box = f'#preview label.pv-toggle[data-node="{toggle}"] input[type=checkbox]'
        checked = lambda d: js(d, "return document.querySelector(arguments[0])?.checked ?? null", box)
        check("the toggle starts on in both", both(checked) == (True, True), both(checked))
        press(A, box)
        check("A switches the toggle off: B's is off too, and the onChange shows in both",
              wait_until(lambda: both(checked) == (False, False)
                         and both(lambda d: shown(d, last)) == ("Last change: notifications off",) * 2),
              (both(checked), both(lambda d: shown(d, last))))

        rng = f'#preview label.pv-slider-row[data-node="{slider}"] input[type=range]'
        out = f'#preview label.pv-slider-row[data-node="{slider}"] output.pv-value'
        check("the slider starts at 5 in both", both(lambda d: value(d, rng)) == ("5", "5"), both(lambda d: value(d, rng)))
        type_keys(B, rng, Keys.ARROW_RIGHT)  # one step of 0.5
        check("B moves the slider one step: A's slider and text show 5.5",
              wait_until(lambda: value(A, rng) == "5.5" and text(A, out) == "5.5" and shown(A, volume) == "Volume 5.5"),
              (value(A, rng), text(A, out), shown(A, volume)))
        check("A's replica equals the daemon's gallery", same_as_daemon(A, self.port, GALLERY))
        check("B's replica equals the daemon's gallery", same_as_daemon(B, self.port, GALLERY))

        # A preview modifier's shared context, as the State tab lists it.
        snap = snapshot(self.port, "environment-preview")
        contexts = snap.get("previewContexts") or []
        open_program(B, "environment-preview", snap["root"]["id"])
        tab(B, "state")
        want = [(c["modifier"], "reused" if c["reused"] else "computed") for c in contexts]
        got = wait_until(lambda: js(B, """return [...document.querySelectorAll('#preview-contexts li[data-modifier]')]
            .map(li => [li.dataset.modifier, li.querySelector('strong').textContent])"""))
        check("the State tab lists the preview contexts as the snapshot says", want and got == [list(w) for w in want],
              (got, want))
        # The environment a node sees, with the ancestor that set each value (from the `inspect` request).
        root = snap["root"]
        pinned = next(n for n in walk(root) if n["type"] == "Section" and (n.get("props") or {}).get("title") == "Pinned")
        row = next(n["id"] for n in walk(pinned) if n["type"] == "BookRow")
        probe = Client(self.port, "inspector-probe")
        reply = probe.request({"type": "inspect", "tree": "environment-preview", "node": row})
        probe.close()
        check("the daemon answers inspect for the pinned BookRow", reply.get("type") == "inspected", reply)
        click_row(B, row)
        env = """return [...document.querySelectorAll('#node-environment tr[data-key]')].map(tr => [tr.dataset.key,
            tr.querySelector('.value').textContent, tr.querySelector('.env-source .node-link')?.dataset.node ?? null])"""
        shows = wait_until(lambda: js(B, env))
        by_key = {k: (v, src) for k, v, src in shows or []}
        check("the pinned BookRow's environment: rowDensity compact, set by the Pinned section; the library set at the "
              "root by the preview modifier", by_key.get("rowDensity") == ('"compact"', pinned["id"])
              and by_key.get("library", (None, None))[1] == root["id"], shows)

    # 6 and 7. A tree from pasted source; a source that does not compile.
    def new_tree(self):
        A, B = self.A, self.B
        source = "\n".join([
            "import SwiftUI",
            "",
            "struct TapCounter: View {",
            "    @State private var count = 0",
            "",
            "    var body: some View {",
            "        VStack {",
            '            Button("Add one") { count += 1 }',
            "            if count > 0 {",
            '                Text("Count: \\(count)")',
            "            }",
            "        }",
            "    }",
            "}",
            ""])
        tree = "pasted-counter"
        button = f'#preview button.pv-button[data-node="TapCounter/0:VStack/0:Button"]'
        shows = "TapCounter/0:VStack/1:If"  # what the If shows: nothing before the first tap
        count = lambda d: listed(d, shows)
        if not js(A, "return document.getElementById('source-details').open"):
            press(A, "#source-details summary")
        type_keys(A, "#source-tree-id", tree)
        type_keys(A, "#source-view", "TapCounter")
        type_keys(A, "#new-source", source)
        check("the pasted source arrived in the form as typed", value(A, "#new-source") == source, value(A, "#new-source"))
        press(A, "#source-form button[type=submit]")
        check("A creates the tree and opens it",
              wait_until(lambda: js(A, "return window.canopyInspector.state.replica?.tree") == tree
                         and js(A, "return !!document.querySelector(arguments[0])", button)))
        entry = f'#tree-list li[data-tree="{tree}"] .meta'
        check("A's tree list shows the new tree as Swift with its 4 nodes",
              wait_until(lambda: text(A, entry).startswith("Swift · v0 · 4 nodes")), text(A, entry))
        check("B's tree list shows it too (the list is polled every 3 s)",
              wait_until(lambda: text(B, entry).startswith("Swift · v")), text(B, entry))
        snap = snapshot(self.port, tree)
        check("the daemon runs the pasted program", snap.get("program", {}).get("view") == "TapCounter"
              and snap["program"].get("source") == source, snap.get("program"))
        js(A, LIST_HOOK)
        wait_until(lambda: quiet(A))
        check("the counter shows nothing before the first tap", count(A) == [], count(A))
        press(A, button)
        check("tapping in A runs the button's action", wait_until(lambda: count(A) == ["Count: 1"]), count(A))
        list_follows_header(A, "A, new tree", tree, 1)

        open_program(B, tree, "TapCounter/0:VStack/0:Button")
        js(B, LIST_HOOK)
        check("B opens the new tree and sees the tap", wait_until(lambda: count(B) == ["Count: 1"]), count(B))
        press(B, button)
        check("tapping in B shows in both",
              wait_until(lambda: count(A) == ["Count: 2"] and count(B) == ["Count: 2"]), (count(A), count(B)))
        list_follows_header(A, "A, new tree", tree, 2)
        list_follows_header(B, "B, new tree", tree, 2)

        broken = source.replace("count += 1", "count += step")
        line = next(i for i, l in enumerate(broken.split("\n")) if "count += step" in l) + 1
        column = broken.split("\n")[line - 1].index("step") + 1
        retrying(lambda: A.find_element(By.ID, "source-tree-id").clear())
        retrying(lambda: A.find_element(By.ID, "new-source").clear())
        type_keys(A, "#source-tree-id", "broken-counter")
        type_keys(A, "#new-source", broken)
        press(A, "#source-form button[type=submit]")
        toast = wait_until(lambda: [t for t in texts(A, ".toast.error") if t.startswith("create failed") and "compile_error" in t])
        check(f"a source that does not compile shows an error with {line}:{column}:",
              toast and f"{line}:{column}: cannot find 'step' in scope" in toast[0], toast or texts(A, ".toast"))
        settle(A)
        lister = Client(self.port, "lister")
        trees = [t["tree"] for t in lister.request({"type": "listTrees"})["trees"]]
        lister.close()
        check("no tree was created", "broken-counter" not in trees and tree in trees, trees)
        check("A's list has no such tree and A still shows the counter",
              not js(A, "return !!document.querySelector('#tree-list li[data-tree=\"broken-counter\"]')")
              and js(A, "return window.canopyInspector.state.replica?.tree") == tree)

    # 8. Objects in state: two cells sharing one object, shown once in the State tab.
    def objects(self):
        A, B = self.A, self.B
        source = "\n".join([
            "import SwiftUI",
            "",
            "final class Counter {",
            "    var value = 0",
            "}",
            "",
            "var totalTaps = 0",
            "",
            "struct SharedCounter: View {",
            "    @State private var a: Counter",
            "    @State private var b: Counter",
            "    @State private var taps = 0",
            "",
            "    init() {",
            "        let one = Counter()",
            "        _a = State(initialValue: one)",
            "        _b = State(initialValue: one)",
            "    }",
            "",
            "    var body: some View {",
            "        VStack {",
            '            Text("a \\(a.value) b \\(b.value) taps \\(taps)")',
            '            Button("Bump a") {',
            "                a.value += 1",
            "                taps += 1",
            "                totalTaps += 1",
            "            }",
            "        }",
            "    }",
            "}",
            ""])
        tree = "shared-counter"
        admin = Client(self.port, "objects-admin")
        created = admin.request({"type": "createTree", "tree": tree, "source": source, "view": "SharedCounter"})
        admin.close()
        check("the daemon creates a program whose two cells share one object", created.get("type") == "created", created)
        label, button = "SharedCounter/0:VStack/0:Text", "SharedCounter/0:VStack/1:Button"
        for d in (A, B):
            open_program(d, tree, button)
        press(A, f'#preview button.pv-button[data-node="{button}"]')
        check("a tap through one cell shows through the other in both browsers",
              wait_until(lambda: shown(A, label) == "a 1 b 1 taps 1" and shown(B, label) == "a 1 b 1 taps 1"),
              (shown(A, label), shown(B, label)))
        snap = snapshot(self.port, tree)
        check("the daemon's snapshot has both cells refer to object 1, stored once",
              cell({"cells": snap.get("state") or []}, "SharedCounter", "a") == {"$object": 1}
              and cell({"cells": snap.get("state") or []}, "SharedCounter", "b") == {"$object": 1}
              and snap.get("objects") == {"1": {"class": "Counter", "fields": {"value": 1}}}, snap.get("objects"))
        tab(B, "state")
        rows = """return [...document.querySelectorAll('#all-objects tbody tr')].map(tr =>
            [...tr.querySelectorAll('td')].map(td => td.textContent))"""
        check("B's State tab lists the object once, with its class and its properties after A's tap",
              wait_until(lambda: js(B, rows) == [["$object 1", "Counter", '{"value":1}']]), js(B, rows))
        top_level = 'return [...document.querySelectorAll(\'#all-cells tr[data-node=""][data-name="totalTaps"] td\')].map(td => td.textContent)'
        check("B's State tab lists the top-level var as the program's own cell, with its value after A's tap",
              wait_until(lambda: js(B, top_level) == ["top-level var", "totalTaps", "1"]), js(B, top_level))
        self.shot(B, "program-objects.png")
        objects = "return JSON.stringify(window.canopyInspector.state.replica.reachableObjects())"
        for who, d in (("A", A), ("B", B)):
            check(f"{who}'s replica holds the daemon's objects (the snapshot's, then the diff's entries)",
                  json.loads(js(d, objects) or "[]") == [["1", {"class": "Counter", "fields": {"value": 1}}]],
                  js(d, objects))
            check(f"{who}'s replica equals the daemon's tree", same_as_daemon(d, self.port, tree))

    # 10. Keystroke latency: typed in A, drawn in B.
    def keystrokes(self):
        A, B = self.A, self.B
        open_program(A, SIGNUP, self.email)
        open_program(B, SIGNUP, self.email)
        keystroke(A, field(self.email), Keys.END)  # the focus event comes first, on its own
        wait_until(lambda: quiet(A))
        start = value(A, field(self.email))
        letters = "abcdefghijklmnopqrstuvwxyz"
        typed = []
        for i in range(KEYSTROKES):
            typed.append(keystroke(A, field(self.email), letters[i % 26]))
        final = start + "".join(letters[i % 26] for i in range(KEYSTROKES))
        last_version = typed[-1][1]
        check(f"B has drawn all {KEYSTROKES} keystrokes",
              wait_until(lambda: js(B, "return window.canopyInspector.timings.drawnAt.has(arguments[0])", last_version)
                         and value(B, field(self.email)) == final), value(B, field(self.email)))
        check("A's field holds everything it typed", value(A, field(self.email)) == final, value(A, field(self.email)))
        check("the daemon's email cell holds all the keystrokes",
              cell(daemon_view(self.port, SIGNUP), "SignupForm", "email") == final)
        timings = """const t = window.canopyInspector.timings;
            return {sent: Object.fromEntries(t.sentAt), acked: Object.fromEntries(t.ackedVersion),
                    drawn: Object.fromEntries(t.drawnAt)}"""
        a, b = js(A, timings), js(B, timings)
        to_b, to_a, missing = [], [], []
        for seq, version in typed:
            sent, drawn_b, drawn_a = a["sent"].get(str(seq)), b["drawn"].get(str(version)), a["drawn"].get(str(version))
            if sent is None or drawn_b is None or drawn_a is None or a["acked"].get(str(seq)) != version:
                missing.append(seq)
                continue
            to_b.append(drawn_b - sent)
            to_a.append(drawn_a - sent)
        check("every keystroke has its send time, its acknowledged version and its drawing time in B", not missing,
              missing)
        check("every keystroke is its own version", len({v for _, v in typed}) == KEYSTROKES)

        def summary(samples):
            s = sorted(samples)
            if not s:
                return {"n": 0}
            return {"n": len(s), "median_ms": round(statistics.median(s), 2),
                    "p95_ms": round(s[max(0, math.ceil(0.95 * len(s)) - 1)], 2), "max_ms": round(s[-1], 2),
                    "min_ms": round(s[0], 2)}

        result = {
            "what": "keystrokes typed by browser A into the validated-signup Email TextField (WebDriver send_keys, one "
                    "at a time, each acknowledged before the next); milliseconds on the browsers' shared clock "
                    "(performance.timeOrigin + performance.now())",
            "sent_in_A_to_drawn_in_B": summary(to_b),
            "sent_in_A_to_drawn_in_A": summary(to_a),
            "samples_A_to_B_ms": [round(x, 2) for x in to_b],
        }
        with open(os.path.join(self.artifacts, "keystrokes.json"), "w") as f:
            json.dump(result, f, indent=2)
        for name in ("sent_in_A_to_drawn_in_B", "sent_in_A_to_drawn_in_A"):
            s = result[name]
            print(f"     {name.replace('_', ' ')}: median {s.get('median_ms')} ms, p95 {s.get('p95_ms')} ms, "
                  f"max {s.get('max_ms')} ms, n {s['n']}")
        check("the keystroke latencies are real durations (B drew each keystroke after A sent it)",
              to_b and min(to_b) > 0, result["sent_in_A_to_drawn_in_B"])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    artifacts = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "artifacts/program-inspector"))
    os.makedirs(artifacts, exist_ok=True)
    started = time.monotonic()
    data = tempfile.mkdtemp(prefix="canopy-program-inspector-")
    daemon = Daemon(binary, data)
    a = b = None
    try:
        a, b = browser(), browser()
        for d in (a, b):
            viewport(d, 1600, 1000)
        run = Run(daemon, a, b, artifacts)
        parts = [("typing together", run.typing_together), ("focus and caret", run.focus_and_caret),
                 ("why it ran", run.why_it_ran), ("source", run.source), ("demo page", run.demo_page),
                 ("controls", run.controls), ("new tree", run.new_tree), ("objects", run.objects),
                 ("keystrokes", run.keystrokes)]
        for name, part in parts:
            try:
                part()
            except Exception:
                check(f"no exception in the {name} part", False, traceback.format_exc())
                for who, d in (("A", a), ("B", b)):
                    d.save_screenshot(os.path.join(artifacts, f"failure-{name.replace(' ', '-')}-{who}.png"))
            for who, d in (("A", a), ("B", b)):
                errors = console_errors(d)
                check(f"no console errors in browser {who} in the {name} part", not errors, errors)
    finally:
        for d in (a, b):
            if d:
                d.quit()
        daemon.stop()
        shutil.rmtree(data, ignore_errors=True)
    check.finish("program_inspector_test", f" in {time.monotonic() - started:.0f} s (screenshots and keystrokes.json "
                                           f"in {artifacts})")


if __name__ == "__main__":
    main()
