#!/usr/bin/env python3
"""The Layout tab of the web inspector in a real headless Chromium against a real canopyd that lays programs out.

Usage: layout_inspector_test.py PATH/TO/canopyd [ARTIFACTS_DIR]

Starts canopyd on a free port with a fresh data directory (so the example programs are loaded and laid out on an
iPhone 15), opens the inspector, and checks the Layout tab against what a separate WebSocket client reads from the
daemon: the tab is there for a program tree only; every drawn box is the node's frame at the pane's scale, Text boxes
marked approximate; hovering shows a node's type, frame and proposal, clicking selects it; the device picker sends
`resize` by device name; the wheel over collapsing-header's ScrollView sends `scroll` and the header shrinks; a tap
moves tab-underline's underline under the tapped tab; the Why it ran tab lists the layout and geometry steps; no
console errors. Screenshots go to ARTIFACTS_DIR (default artifacts/layout-inspector). Exits non-zero if any check
fails; every failure is printed with its detail.
"""
import math, os, shutil, sys, tempfile, time, traceback

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

from e2e import ROOT, Checks
from inspector_test import Client, Daemon, browser, choose, js, open_tree, selected, settle, tab, text, wait_until
from program_inspector_test import console_errors, viewport, walk

check = Checks(verbose=True)

SIZE_READER = "size-reader"
HEADER_TREE = "collapsing-header"
TABS_TREE = "tab-underline"
COLUMNS_TREE = "equal-width-columns"
DATA_TREE = "laziness"
SCROLL_VIEW = "CollapsingHeader/0:VStack/1:ScrollView"
HEADER = "CollapsingHeader/0:VStack/0:ZStack"

# A box is drawn in CSS pixels through a scale transform: Chromium keeps lengths in 1/64 px, so a box may be off by
# a fraction of a pixel, never more.
TOLERANCE_PX = 0.05


def nodes(snap):
    """Every node of a snapshot's tree (attached subtrees included), by id."""
    return {n["id"]: n for n in walk(snap["root"])}


def points(v):
    """A number as the page prints it (web/js/layoutdraw.mjs `points`): at most three decimals."""
    if v is None:
        return "nil"
    r = math.floor(v * 1000 + 0.5) / 1000
    return str(int(r)) if r == int(r) else repr(r)


def frame_text(f):
    return f"({points(f[0])}, {points(f[1])}) {points(f[2])} × {points(f[3])}"


def size_text(s):
    return f"{points(s[0])} × {points(s[1])}"


def overlaps(a, b):
    return min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0]) and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1])


# MARK: the page

PANE = """
    const canvas = document.getElementById('layout-canvas');
    const r = window.canopyInspector.state.replica;
    if (!canvas || !r || !canvas.isConnected) return null;
    const c = canvas.getBoundingClientRect();
    return {
        version: r.version, canvas: r.canvas, scale: Number(canvas.style.getPropertyValue('--layout-scale')),
        boxes: [...document.querySelectorAll('#layout-boxes .layout-box[data-node]')].map((el) => {
            const b = el.getBoundingClientRect();
            return {node: el.dataset.node, shown: el.getClientRects().length > 0,
                    rect: [b.left - c.left, b.top - c.top, b.width, b.height],
                    style: [el.style.left, el.style.top, el.style.width, el.style.height].map(parseFloat),
                    approximate: el.classList.contains('approximate'), marked: !!el.querySelector('.layout-approx')};
        }),
    };"""


def pane(d):
    return js(d, PANE)


def page_version(d):
    return js(d, "return window.canopyInspector.state.replica?.version ?? null")


def quiet(d):
    """The page has no event waiting for its acknowledgement (a resize, a scroll)."""
    return js(d, "const s = window.canopyInspector.state; const l = window.canopyInspector.layout;"
                 "return (!s.handle || s.handle.pending.size === 0) && l.resizes.idle && l.scrolls.idle")


def box_mismatches(p, snap):
    """How the drawn boxes differ from the snapshot's frames at the pane's scale: [] when every box is its node's
    frame (a box clipped away by its ScrollView is checked by its placement, and must lie outside the ScrollView)."""
    by_id = nodes(snap)
    framed = {i for i, n in by_id.items() if n.get("frame")}
    drawn = {b["node"] for b in p["boxes"]}
    wrong = []
    if drawn != framed:
        wrong.append({"missing": sorted(framed - drawn), "extra": sorted(drawn - framed)})
    s = p["scale"]
    scroll_of = {}
    for n in walk(snap["root"]):
        for c in n.get("children") or []:
            scroll_of[c["id"]] = n["id"] if n["type"] == "ScrollView" else scroll_of.get(n["id"])
        for m in n.get("modifiers") or []:
            if m.get("node"):
                scroll_of[m["node"]["id"]] = scroll_of.get(n["id"])
    for b in p["boxes"]:
        n = by_id.get(b["node"])
        if not n or not n.get("frame"):
            continue
        f = n["frame"]
        if b["shown"]:
            if any(abs(got - want * s) > TOLERANCE_PX for got, want in zip(b["rect"], f)):
                wrong.append({"node": b["node"], "rect": b["rect"], "frame×scale": [v * s for v in f]})
        else:
            sv = scroll_of.get(b["node"])
            outside = sv and not overlaps(f, by_id[sv]["frame"])
            # The CSSOM prints lengths with six significant digits.
            if any(abs(got - want) > 1e-5 * max(1, abs(want)) for got, want in zip(b["style"], f)) or not outside:
                wrong.append({"node": b["node"], "hidden, placed at": b["style"], "frame": f, "scroll view": sv})
        if b["approximate"] != (n["type"] == "Text") or b["marked"] != (n["type"] == "Text"):
            wrong.append({"node": b["node"], "type": n["type"], "approximate": b["approximate"], "marked": b["marked"]})
    return wrong


def point_of(d, node):
    """The viewport point (CSS pixels) at the middle of `node`'s drawn box."""
    return js(d, """const el = document.querySelector(`#layout-boxes .layout-box[data-node="${arguments[0]}"]`);
        const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];""", node)


def pointer_to(d, node):
    """Moves the mouse (a real WebDriver pointer move) over the middle of `node`'s box; returns the action chain."""
    x, y = point_of(d, node)
    stage = d.find_element(By.ID, "layout-stage")
    r = js(d, "const r = document.getElementById('layout-stage').getBoundingClientRect();"
              "return [r.left + r.width / 2, r.top + r.height / 2]")
    return ActionChains(d).move_to_element_with_offset(stage, int(round(x - r[0])), int(round(y - r[1])))


class Run:
    def __init__(self, daemon, d, artifacts):
        self.port = daemon.port
        self.d = d
        self.artifacts = artifacts
        d.get(f"http://127.0.0.1:{daemon.port}/")
        if not wait_until(lambda: js(d, "return !!window.canopyInspector?.state?.conn?.isOpen")):
            raise AssertionError("the inspector never connected")

    def shot(self, name):
        """A screenshot of the page, and one of the Layout pane's stage alone when it is shown."""
        self.d.save_screenshot(os.path.join(self.artifacts, f"{name}.png"))
        if js(self.d, "const s = document.getElementById('layout-stage'); return !!s && s.getClientRects().length > 0"):
            self.d.find_element(By.ID, "layout-stage").screenshot(os.path.join(self.artifacts, f"{name}-stage.png"))

    def snapshot(self, tree):
        c = Client(self.port, "checker")
        try:
            return c.snapshot(tree)
        finally:
            c.close()

    def open_layout(self, tree):
        """Opens `tree` in the page, and its Layout tab once the page holds the daemon's version of it."""
        if not open_tree(self.d, tree):
            raise AssertionError(f"selecting {tree} did not open it")
        settle(self.d)
        tab(self.d, "layout")
        if not wait_until(lambda: pane(self.d)):
            raise AssertionError(f"the Layout tab of {tree} drew no canvas")

    def boxes_match(self, tree, when):
        """Every drawn box is the frame of a fresh snapshot, once the page has caught up with it."""
        snap = self.snapshot(tree)
        wait_until(lambda: quiet(self.d) and page_version(self.d) == snap["version"])
        drawn = wait_until(lambda: (lambda p: p if p and p["version"] == snap["version"] and not box_mismatches(p, snap)
                                    else None)(pane(self.d)))
        p = drawn or pane(self.d)
        wrong = box_mismatches(p, snap) if p else ["no pane"]
        check(f"{tree} {when}: each of the {len(p['boxes']) if p else 0} boxes is its node's frame from a fresh "
              f"snapshot (v{snap['version']}) × the pane's scale {p['scale'] if p else '?'}, and exactly the Text "
              f"boxes are marked approximate", not wrong, wrong[:5])
        return snap

    # 1. The tab is there for a program tree, not for a tree of data.
    def tab_shown(self):
        d = self.d
        if not open_tree(d, DATA_TREE):
            raise AssertionError(f"selecting {DATA_TREE} did not open it")
        settle(d)
        check("a data tree has no Layout tab", js(d, "return document.getElementById('layout-tab').hidden") is True)
        if not open_tree(d, SIZE_READER):
            raise AssertionError(f"selecting {SIZE_READER} did not open it")
        check("a program tree laid out by the daemon has the Layout tab",
              wait_until(lambda: js(d, "return !document.getElementById('layout-tab').hidden")))

    # 2. Boxes = frames × scale, in every example laid out.
    def boxes(self):
        for tree in (SIZE_READER, HEADER_TREE, TABS_TREE, COLUMNS_TREE):
            self.open_layout(tree)
            snap = self.boxes_match(tree, "on the default iPhone 15")
            check(f"{tree}: the page shows the canvas and text model of the snapshot",
                  pane(self.d)["canvas"] == snap["canvas"] and js(self.d, "return window.canopyInspector.state.replica"
                                                                         ".textModel") == snap["textModel"],
                  (pane(self.d)["canvas"], snap["canvas"]))
            self.shot(f"layout-{tree}")

    # 3. The device picker sends resize by name: the canvas becomes the preset, for the page and for another client.
    def device(self):
        d = self.d
        self.open_layout(SIZE_READER)
        watcher = Client(self.port, "device-watcher")
        watcher.snapshot(SIZE_READER, trace=True)
        session = js(d, "return window.canopyInspector.state.conn.session")
        choose(d, "layout-device", "iPhone SE")
        diff = watcher.wait_for(lambda m: m.get("type") == "diff" and m.get("author") == session
                                and (m.get("event") or {}).get("event") == "resize")
        self.resize_diff = diff
        watcher.close()
        want = {"width": 375, "height": 667, "scale": 2}
        check("picking iPhone SE sends a resize that gives the daemon's iPhone SE preset (safe area and scale too)",
              diff and {k: diff["canvas"].get(k) for k in want} == want and diff["canvas"].get("device") == "iPhone SE"
              and diff["canvas"]["safeArea"]["top"] == 20, diff and diff.get("canvas"))
        snap = self.snapshot(SIZE_READER)
        check("a separate client's fresh snapshot has the 375 × 667 @2x canvas",
              {k: snap["canvas"].get(k) for k in want} == want, snap["canvas"])
        check("the page's canvas is 375 × 667 @2x, named iPhone SE in the picker and the size line",
              wait_until(lambda: (lambda p: p and {k: p["canvas"].get(k) for k in want} == want)(pane(d))
                         and js(d, "return document.getElementById('layout-device').value") == "iPhone SE"
                         and text(d, "#layout-size") == "375 × 667 @2x · safe area 20/0/0/0"),
              (pane(d)["canvas"], text(d, "#layout-size")))
        self.boxes_match(SIZE_READER, "after picking iPhone SE")
        self.shot("layout-iphone-se")

    # 4. Hovering a box shows its type, frame and proposal; clicking it selects the node.
    def hover_and_click(self):
        d = self.d
        snap = self.snapshot(SIZE_READER)
        label = next(n for n in walk(snap["root"]) if n["type"] == "Text")
        pointer_to(d, label["id"]).perform()
        card = """const c = document.getElementById('layout-hover');
            return c && !c.hidden ? {type: c.querySelector('.type')?.textContent,
                frame: c.querySelector('[data-field=frame]')?.textContent,
                proposal: c.querySelector('[data-field=proposal]')?.textContent,
                approximate: c.querySelector('.layout-approx-note')?.textContent ?? null} : null"""
        shown = wait_until(lambda: (lambda c: c if c and c["frame"] == f"frame {frame_text(label['frame'])}" else None)(
            js(d, card)))
        # What the page should say: the steps of the label's outermost laid-out box in the resize's trace.
        events = [e for e in (self.resize_diff.get("trace") or {}).get("events", []) if e["e"] == "layout"]
        boxes = [f"{label['id']}#{i}" for i in reversed(range(len(label.get("modifiers") or [])))] + [label["id"]]
        outer = next((b for b in boxes if any(e["node"] == b for e in events)), None)
        want = None
        if outer:
            steps = [e for e in events if e["node"] == outer][:8]
            name = label["type"] if outer == label["id"] else \
                f".{label['modifiers'][int(outer.rsplit('#', 1)[1])]['kind']} #{outer.rsplit('#', 1)[1]}"
            want = "proposed " + ", then ".join(f"{size_text(e['proposal'])} → {size_text(e['size'])}" for e in steps) \
                + f" ({name}, v{self.resize_diff['version']})"
        check("hovering the label's box shows its type, its frame, that it is approximate, and the proposal of the "
              "resize's trace", shown and shown["type"] == "Text" and shown["approximate"] and want
              and shown["proposal"] == want, (shown, want))
        self.shot("layout-hover")
        pointer_to(d, label["id"]).click().perform()
        check("clicking the label's box selects its node, and its row in the tree",
              wait_until(lambda: selected(d) == label["id"] and js(
                  d, "return !!document.querySelector(arguments[0])", f'.row.selected[data-node="{label["id"]}"]')),
              selected(d))

    # 5. The wheel over collapsing-header's ScrollView scrolls it; the header shrinks.
    def scroll(self):
        d = self.d
        self.open_layout(HEADER_TREE)
        watcher = Client(self.port, "scroll-watcher")
        snap = watcher.snapshot(HEADER_TREE, trace=True)
        header = nodes(snap)[HEADER]["frame"]
        check("collapsing-header's header starts 200 points high", header[3] == 200, header)
        session = js(d, "return window.canopyInspector.state.conn.session")
        x, y = point_of(d, SCROLL_VIEW)
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_viewport(int(x), int(y)), 0, 300).perform()
        first = watcher.wait_for(lambda m: m.get("type") == "diff" and m.get("author") == session
                                 and (m.get("event") or {}).get("event") == "scroll")
        check("the wheel over the ScrollView sends a scroll event naming it",
              first and first["event"].get("node") == SCROLL_VIEW, first and first.get("event"))
        if not wait_until(lambda: quiet(d)):
            raise AssertionError("the page's scroll events were never all acknowledged")
        final = self.snapshot(HEADER_TREE)
        diffs = [first] + sorted((m for m in watcher.inbox if m.get("type") == "diff" and m["version"] > first["version"]),
                                 key=lambda m: m["version"])
        while diffs[-1]["version"] < final["version"]:
            m = watcher.wait_for(lambda m: m.get("type") == "diff" and m["version"] > diffs[-1]["version"])
            if not m:
                break
            diffs.append(m)
        watcher.close()
        self.scroll_diff = diffs[-1]
        frames = [f["frame"] for m in diffs for f in m.get("frames") or [] if f["node"] == HEADER]
        offsets = [c["value"] for m in diffs for c in m.get("state") or []
                   if c["node"] == "CollapsingHeader" and c["name"] == "offset"]
        scrolled = [s["offset"] for m in diffs for s in m.get("scroll") or [] if s["node"] == SCROLL_VIEW]
        check("the diffs move the ScrollView down, make the offset cell negative (minus the scroll) and shrink the "
              "header's frame to max(60, 200 + offset)",
              scrolled and scrolled[-1][1] > 0 and offsets and offsets[-1] == -scrolled[-1][1] and frames
              and frames[-1][3] < 200 and frames[-1][3] == max(60, 200 + offsets[-1]),
              {"scroll": scrolled, "offset": offsets, "header": frames})
        check("the page's replica has the header's frame and the scroll offset of the diffs",
              js(d, "const r = window.canopyInspector.state.replica;"
                    "return [r.node(arguments[0]).frame, r.scroll.get(arguments[1])]", HEADER, SCROLL_VIEW)
              == [frames[-1] if frames else None, scrolled[-1] if scrolled else None])
        self.boxes_match(HEADER_TREE, "after the wheel")
        self.shot("layout-scrolled")

    # 6. Why it ran: the scroll's layout and geometry steps.
    def why(self):
        d = self.d
        diff = self.scroll_diff
        tab(d, "why")
        check(f"the Why tab shows the last scroll's version v{diff['version']}",
              wait_until(lambda: text(d, "#why-version") == f"v{diff['version']}"), text(d, "#why-version"))
        steps = js(d, """return [...document.querySelectorAll('#why-steps li.why-step')].map(li => ({
            kind: li.dataset.kind, node: li.dataset.node, text: li.querySelector('.step-text').textContent}))""")
        events = [e for e in diff["trace"]["events"] if e["e"] in ("layout", "geometry")]
        check("it lists the trace's layout and geometry steps in order, a modifier's box by its kind",
              [(s["kind"], s["node"]) for s in steps if s["kind"] in ("layout", "geometry")]
              == [(e["e"], e["node"]) for e in events]
              and any(s["text"].startswith("0:ZStack .frame #0 proposed ") for s in steps)
              and any(s["kind"] == "geometry" and "GeometryReader" in s["node"] for s in steps),
              [s for s in steps if s["kind"] in ("layout", "geometry")][:6])
        self.shot("layout-why")

    # 7. A tap on the second tab moves tab-underline's underline under it.
    def underline(self):
        d = self.d
        self.open_layout(TABS_TREE)
        client = Client(self.port, "tapper")
        snap = client.snapshot(TABS_TREE)
        tabs = [n for n in walk(snap["root"]) if n["type"] == "Button"]
        line = next(n for n in walk(snap["root"]) if n["type"] == "Color")
        check("the underline starts under the first tab", line["frame"][0] == tabs[0]["frame"][0]
              and line["frame"][2] == tabs[0]["frame"][2], (line["frame"], tabs[0]["frame"]))
        client.send({"type": "event", "tree": TABS_TREE, "seq": 1, "node": tabs[1]["id"], "event": "tap"})
        diff = client.wait_for(lambda m: m.get("type") in ("diff", "rejected") and m.get("seq") == 1)
        client.close()
        check("the daemon applies the tap", diff and diff["type"] == "diff", diff)
        after = self.boxes_match(TABS_TREE, "after a tap on the second tab")
        tabs = [n for n in walk(after["root"]) if n["type"] == "Button"]
        line = next(n for n in walk(after["root"]) if n["type"] == "Color")
        f, t = line["frame"], tabs[1]["frame"]
        check("the underline's frame lies along the bottom of the second tab (x, width, 3 points up from its maxY)",
              f[0] == t[0] and f[2] == t[2] and f[3] == 3 and abs(f[1] - (t[1] + t[3] - 3)) < 1e-9, (f, t))
        self.shot("layout-underline")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    artifacts = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "artifacts/layout-inspector"))
    os.makedirs(artifacts, exist_ok=True)
    started = time.monotonic()
    data = tempfile.mkdtemp(prefix="canopy-layout-inspector-")
    daemon = Daemon(binary, data)
    d = None
    try:
        d = browser()
        viewport(d, 1600, 1000)
        run = Run(daemon, d, artifacts)
        parts = [("tab shown", run.tab_shown), ("boxes", run.boxes), ("device", run.device),
                 ("hover and click", run.hover_and_click), ("scroll", run.scroll), ("why", run.why),
                 ("underline", run.underline)]
        for name, part in parts:
            try:
                part()
            except Exception:
                check(f"no exception in the {name} part", False, traceback.format_exc())
                d.save_screenshot(os.path.join(artifacts, f"failure-{name.replace(' ', '-')}.png"))
            errors = console_errors(d)
            check(f"no console errors in the {name} part", not errors, errors)
    finally:
        if d:
            d.quit()
        daemon.stop()
        shutil.rmtree(data, ignore_errors=True)
    check.finish("layout_inspector_test", f" in {time.monotonic() - started:.0f} s (screenshots in {artifacts})")


if __name__ == "__main__":
    main()
