#!/usr/bin/env python3
"""End-to-end test of the canopy CLI on program trees (issue 14) against a real canopyd: .swift examples loaded at
first start (a broken one skipped), run, event (tap, setText, post, a rejected and a faulting event), watch, import.
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
            except Exception as e:  # a hang or a crash is a failure of the test, reported like the others
                check("scenario ran", False, repr(e))
        code = stop_daemon(daemon)
        check("SIGTERM exits 0", code == 0, code)
    check.finish("program cli smoke")


main()
