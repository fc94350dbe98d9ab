#!/usr/bin/env python3
"""End-to-end test of the canopy CLI on program trees (issue 14) against a real canopyd: .swift examples loaded at
first start (a broken one skipped), run, event (tap, setText, post, a rejected and a faulting event), watch, import;
layout (issue 26): run in a canvas, frames in the snapshot, resize and scroll, kept across a restart.
Usage: program_cli_smoke.py PATH/TO/canopyd PATH/TO/canopy"""
import json, os, subprocess, sys, tempfile

from e2e import ROOT, Checks, start_daemon, stop_daemon

check = Checks()

COUNTER = """// canopy: view=Counter title="Counter"
struct Counter: View {
    @State private var count = 0
    @State private var name = ""
    @State private var items: [Int] = []
    var body: some View {
        VStack {
            Text("Count: \\(count)")
            TextField("Name", text: $name)
            Button("Add") { count += 1 }
            Button("Crash") { count = items[5] }
        }
        .onReceive(NotificationCenter.default.publisher(for: Notification.Name("reset"))) { _ in count = 0 }
    }
}
"""

BROKEN = """struct Broken: View {
    var body: some View { Text(notDeclaredHere) }
}
"""


SCROLLER = """// canopy: view=Scroller
struct TopKey: PreferenceKey {
    static var defaultValue: CGFloat = 0
    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) { value += nextValue() }
}
struct Scroller: View {
    @State private var top: CGFloat = 0
    var body: some View {
        ScrollView {
            VStack(spacing: 0) {
                ForEach(0..<20, id: \\.self) { i in
                    Color.blue.frame(height: 50).background(GeometryReader { p in
                        Color.clear.preference(key: TopKey.self, value: i == 0 ? p.frame(in: .named("s")).minY : 0)
                    })
                }
            }
        }
        .coordinateSpace(name: "s")
        .onPreferenceChange(TopKey.self) { top = $0 }
    }
}
"""
SCROLL_VIEW = "Scroller/0:ScrollView"


def layout_scenario(cli, port, work):
    """A program laid out in a 200×300 canvas: frames in the snapshot, then a scroll and a resize by the CLI."""
    env = dict(os.environ, CANOPY_URL=f"ws://127.0.0.1:{port}/ws")

    def run(*args):
        r = subprocess.run([cli, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        return r.returncode, r.stdout, r.stderr

    path = os.path.join(work, "Scroller.swift")
    with open(path, "w") as f:
        f.write(SCROLLER)
    code, out, err = run("run", path, "--canvas", "200x300", "--json")
    check("run --canvas creates a laid-out tree", code == 0, (out, err))
    if code != 0:
        return
    snapshot = json.loads(out.splitlines()[1])
    check("the snapshot has the canvas and the text model", snapshot.get("canvas", {}).get("width") == 200
          and snapshot.get("canvas", {}).get("height") == 300 and snapshot.get("textModel", "").startswith("canopy-text-"),
          {k: snapshot.get(k) for k in ("canvas", "textModel")})
    scroll = find_id(snapshot["root"], SCROLL_VIEW)
    check("the ScrollView fills the canvas", scroll is not None and scroll.get("frame") == [0, 0, 200, 300],
          scroll and scroll.get("frame"))
    code, out, err = run("event", "scroller", SCROLL_VIEW, "scroll", '{"y":120}')
    check("a scroll moves the content; the reader sees the offset", code == 0 and "scroll Scroller/0:ScrollView to (0, 120)"
          in out and "top = -120" in out, (out, err))
    code, out, err = run("event", "scroller", SCROLL_VIEW, "scroll", '{"y":5000}')
    check("a scroll past the end is clamped to the content", code == 0 and "to (0, 700)" in out and "top = -700" in out,
          (out, err))
    code, out, err = run("event", "scroller", "--resize", "iPhone SE")
    check("a resize to a device", code == 0 and "canvas 375x667" in out and "frames moved" in out, (out, err))
    code, out, err = run("event", "scroller", SCROLL_VIEW, "scroll", '"far"')
    check("a bad scroll value: type_mismatch, exit 1", code == 1 and "type_mismatch" in err, (code, err))


def snapshot_of(port, tree):
    """The tree's snapshot, read by a WebSocket client of its own."""
    from websockets.sync.client import connect
    with connect(f"ws://127.0.0.1:{port}/ws", max_size=None, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "client": "layout-check"}))
        ws.send(json.dumps({"type": "subscribe", "tree": tree}))
        while True:
            m = json.loads(ws.recv(timeout=30))
            if m.get("type") in ("snapshot", "error"):
                return m


def layout_after_restart(port):
    """The canvas, the scroll offset and the frames survive a restart of the daemon."""
    snapshot = snapshot_of(port, "scroller")
    check("after a restart the tree is there", snapshot.get("type") == "snapshot", snapshot)
    if snapshot.get("type") != "snapshot":
        return
    canvas = snapshot.get("canvas", {})
    check("after a restart: the resized canvas", canvas.get("width") == 375 and canvas.get("device") == "iPhone SE", canvas)
    offsets = snapshot.get("program", {}).get("scroll", {})
    check("after a restart: the clamped scroll offset", offsets.get(SCROLL_VIEW) is not None, offsets)
    scroll = find_id(snapshot["root"], SCROLL_VIEW)
    check("after a restart: frames laid out in the safe area", scroll is not None
          and scroll.get("frame") == [0, 20, 375, 647], scroll and scroll.get("frame"))
    cells = {c["name"]: c["value"] for c in snapshot.get("state", [])}
    check("after a restart: the cell the reader wrote", cells.get("top", 0) < 0, cells)


def find_id(node, id_):
    """The node with id `id_`, depth first."""
    if node.get("id") == id_:
        return node
    for child in node.get("children", []):
        found = find_id(child, id_)
        if found:
            return found
    return None


def find(node, type_, key, value):
    """The id of the first node of `type_` whose props[key] is `value`, depth first."""
    if node.get("type") == type_ and node.get("props", {}).get(key) == value:
        return node["id"]
    for child in node.get("children", []):
        found = find(child, type_, key, value)
        if found:
            return found
    return None


def scenario(cli, port, work):
    env = dict(os.environ, CANOPY_URL=f"ws://127.0.0.1:{port}/ws")

    def run(*args):
        r = subprocess.run([cli, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        return r.returncode, r.stdout, r.stderr

    def write(name, text):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    code, out, _ = run("ls")
    check("the example program was loaded, the broken one skipped",
          "counter-example" in out and "Counter" in out and "broken" not in out, out)

    counter = write("Counter.swift", COUNTER)
    code, out, err = run("run", counter)
    check("run creates the tree from the file name",
          code == 0 and out.startswith(f"created counter (version 0) from {counter}") and "program Counter" in out
          and "count = 0" in out, (out, err))
    code, out, err = run("run", counter)
    check("run twice: tree_exists", code != 0 and "tree_exists" in err, err)

    code, out, _ = run("run", counter, "--tree", "counter-json", "--json")
    created, snapshot = [json.loads(line) for line in out.splitlines()]
    check("run --json prints created and the snapshot", created["type"] == "created" and snapshot["type"] == "snapshot"
          and snapshot["program"]["view"] == "Counter", out)
    root = snapshot["root"]
    add, crash = find(root, "Button", "title", "Add"), find(root, "Button", "title", "Crash")
    field, text = find(root, "TextField", "title", "Name"), find(root, "Text", "text", "Count: 0")
    check("the snapshot has the views", all([add, crash, field, text]), json.dumps(root)[:400])

    watch = subprocess.Popen([cli, "watch", "counter", "--count", "3"], stdout=subprocess.PIPE, text=True, env=env,
                             cwd=ROOT)
    first = watch.stdout.readline()
    check("watch starts with the snapshot", first.startswith("counter at version 0"), first)

    code, out, err = run("event", "counter", add, "tap")
    check("tap: the new version and the state change", code == 0 and out.startswith(f"counter version 1: tap on {add}")
          and "count = 1" in out, (out, err))
    code, out, err = run("event", "counter", field, "setText", "bob")
    check("setText with a bare string", code == 0 and "version 2" in out and 'name = "bob"' in out, (out, err))
    code, out, err = run("event", "counter", "--post", "reset")
    check("post", code == 0 and "version 3: post reset" in out and "count = 0" in out, (out, err))
    code, out, err = run("event", "counter", text, "tap")
    check("an event the view does not have: bad_event, exit 1", code == 1 and "bad_event" in err, (code, err))
    code, out, err = run("event", "counter", crash, "tap")
    check("a fault: runtime_error with where and the stack", code == 1 and "runtime_error" in err
          and ("  at " in err or "Swift fault at" in err) and "  in " in err, (code, err))
    code, _, err = run("event", "counter", "ghost", "tap")
    check("an unknown node", code == 1 and "no_such_node" in err, err)

    try:
        rest, _ = watch.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        watch.kill()
        rest = watch.stdout.read()
    check("watch shows the event and state changes", f"event tap on {add}" in rest and "count = 1  (was 0)" in rest
          and "event post reset" in rest and 'name = "bob"  (was "")' in rest, rest)

    broken = write("Broken.swift", BROKEN)
    code, out, err = run("run", broken)
    check("a compile error prints File.swift:LINE:COL: error:", code == 1 and f"{broken}:2:" in err
          and ": error: " in err, err)
    code, out, err = run("import", counter, "--tree", "counter-imported")
    check("import of a .swift file", code == 0 and "imported counter-imported" in out, (out, err))
    ops = write("ops.json", json.dumps([{"op": "remove", "node": text}]))
    code, out, err = run("edit", "counter", ops)
    check("an edit of a program tree is rejected", code == 1 and "program_tree" in err, err)


def main():
    canopyd, cli = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        examples = os.path.join(work, "examples")
        os.makedirs(examples)
        with open(os.path.join(examples, "CounterExample.swift"), "w") as f:
            f.write(COUNTER)
        with open(os.path.join(examples, "broken.swift"), "w") as f:
            f.write(BROKEN)
        daemon, port = start_daemon(canopyd, "--data", os.path.join(work, "data"), "--examples", examples)
        check("daemon announced its port (a broken example program does not stop it)", port is not None)
        if port:
            try:
                scenario(cli, port, work)
                layout_scenario(cli, port, work)
            except Exception as e:  # a hang or a crash is a failure of the test, reported like the others
                check("scenario ran", False, repr(e))
        code = stop_daemon(daemon)
        check("SIGTERM exits 0", code == 0, code)
        daemon, port = start_daemon(canopyd, "--data", os.path.join(work, "data"), "--examples", examples)
        if port:
            try:
                layout_after_restart(port)
            except Exception as e:
                check("layout after a restart ran", False, repr(e))
        stop_daemon(daemon)
    check.finish("program cli smoke")


main()
