#!/usr/bin/env python3
"""End-to-end test of the canopy CLI against a real canopyd process (with a token, as on an exposed daemon): ls,
create, import, watch, edit, probe, history, delete, load, and the errors users hit.
Usage: cli_smoke.py PATH/TO/canopyd PATH/TO/canopy"""
import json, os, re, subprocess, sys, tempfile

from e2e import ROOT, Checks, start_daemon, stop_daemon

check = Checks()


def scenario(cli, port, work):
    env = dict(os.environ, CANOPY_URL=f"ws://127.0.0.1:{port}/ws", CANOPY_TOKEN="s3cret")

    def run(*args, stdin=None, token=True):
        e = env if token else {k: v for k, v in env.items() if k != "CANOPY_TOKEN"}
        r = subprocess.run([cli, *args], input=stdin, capture_output=True, text=True, env=e, cwd=ROOT, timeout=60)
        return r.returncode, r.stdout, r.stderr

    code, out, _ = run("ls")
    check("ls lists the examples with titles", code == 0 and "signup-form" in out and "Signup form" in out
          and out.splitlines()[0].split() == ["TREE", "VERSION", "NODES", "SUBSCRIBERS", "TITLE"], out)

    code, _, err = run("ls", token=False)
    check("no token: unauthorized", code != 0 and "unauthorized" in err, err)
    code, _, err = run("create", "nope", "--token", "look")
    check("viewer may not create", code != 0 and "forbidden" in err, err)

    code, out, err = run("create", "demo", "--key", "Total:sum", "--key", "Title:last:\"untitled\"", "--title", "Demo")
    check("create", code == 0 and out.strip() == "created demo (version 0)", (out, err))
    code, _, err = run("create", "demo")
    check("create twice: tree_exists", code != 0 and "tree_exists" in err, err)
    code, _, err = run("create", "x", "--key", "K:frobnicate")
    check("bad key spec", code != 0 and "NAME:REDUCER" in err and "sum" in err, err)

    watch = subprocess.Popen([cli, "watch", "demo", "--count", "2"], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    first = watch.stdout.readline()
    check("watch starts with the snapshot", first.startswith("demo at version 0: 1 nodes; keys: Total (sum), Title (last)"), first)

    ops = os.path.join(work, "ops.json")
    with open(ops, "w") as f:
        json.dump([
            {"op": "insert", "parent": "root",
             "node": {"id": "a", "type": "Text", "modifiers": [{"kind": "preference", "key": "Total", "value": 3}]}},
            {"op": "setModifiers", "node": "root", "modifiers": [{"kind": "onPreferenceChange", "key": "Total"}]},
        ], f)
    code, out, err = run("edit", "demo", ops)
    check("edit from a file", code == 0 and "demo version 1: applied 2 ops" in out and "root#0 Total = 3" in out, (out, err))
    code, out, err = run("edit", "demo", "-", stdin='{"ops":[{"op":"setPreference","node":"a","key":"Total","value":5}]}')
    check("edit from stdin", code == 0 and "version 2" in out and "root#0 Total = 5" in out, (out, err))
    code, out, err = run("edit", "demo", "-", stdin='[{"op":"remove","node":"zz"}]')
    check("rejected edit: exit 1 with the code", code == 1 and "no_such_node" in err and "op 0" in err, (code, err))
    code, _, err = run("edit", "demo", "-", stdin='[{"op":')
    check("edit with bad JSON names the input", code != 0 and err.count("-:") == 1, err)

    try:
        rest, _ = watch.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        watch.kill()
        rest = watch.stdout.read()
    check("watch exits after --count diffs", watch.returncode == 0, watch.returncode)
    check("watch shows diffs, ops and reader changes",
          "insert a (Text) into root at 0" in rest and "setPreference a Total = 5" in rest
          and "root#0 Total = 5  (was 3)" in rest and re.search(r"^v2 by s\d+ seq \d+$", rest, re.M), rest)

    code, out, _ = run("probe", "demo", "root", "Total")
    check("probe", code == 0 and out.strip() == "root Total = 5  (version 2)", out)
    code, out, _ = run("probe", "demo", "root", "Total", "--json")
    reply = json.loads(out)
    check("probe --json", reply["type"] == "value" and reply["value"] == 5 and reply["present"], out)
    code, out, _ = run("probe", "demo", "root", "Title")
    check("probe of a key nobody writes", code == 0 and out.strip() == "root Title: not present  (version 2)", out)
    code, _, err = run("probe", "demo", "ghost", "Total")
    check("probe of a missing node", code != 0 and "no_such_node" in err, err)

    code, out, _ = run("history", "demo", "--json")
    diffs = json.loads(out)["diffs"]
    check("history", code == 0 and [d["version"] for d in diffs] == [1, 2], out)

    code, _, err = run("import", "config/examples", "--tree", "x")
    check("import --tree needs one file", code != 0 and "exactly one file" in err, err)
    code, out, err = run("import", "config/examples/laziness.json", "--tree", "laziness-copy")
    check("import a file under a new id", code == 0 and "imported laziness-copy" in out, (out, err))
    shipped = len([f for f in os.listdir(os.path.join(ROOT, "config", "examples")) if f.endswith((".json", ".swift"))])
    code, out, err = run("import", "config/examples")
    check("import existing trees fails per tree (JSON and .swift)", code == 1 and err.count("tree_exists") == shipped,
          (out, err))
    code, out, err = run("import", "config/examples", "--skip-existing")
    check("import --skip-existing", code == 0 and out.count("skipped") == shipped, (out, err))
    code, _, err = run("import", os.path.join(work, "missing.json"))
    check("import of a missing file", code != 0 and "no such file" in err, err)

    swift_keys(run, env, cli, work)

    code, out, err = run("load", "--writers", "2", "--clients", "3", "--duration", "1", "--warmup", "0.2", "--json")
    try:
        report = json.loads(out)
        edits = report["ack"]["count"]
        # Each diff reaches the 3 clients and the other writer (writers subscribe too).
        check("load measures edits and deliveries", edits > 0 and report["delivery"]["count"] == 4 * edits
              and report["edits"]["rejected"] == {} and report["totals"]["unanswered"] == 0, report)
    except (ValueError, KeyError) as e:
        check("load prints JSON", False, (out, err, e))
    code, out, _ = run("ls")
    check("load deletes its scratch tree", "load-" not in out, out)
    code, _, err = run("load", "--writers", "0")
    check("load rejects bad arguments", code != 0 and "--writers" in err, err)

    code, out, _ = run("delete", "demo")
    check("delete", code == 0 and out.strip() == "deleted demo", out)
    code, out, _ = run("ls")
    check("deleted tree is gone", code == 0 and "demo" not in out and "laziness-copy" in out, out)

    code, _, err = run("ls", "--url", "wss://127.0.0.1/ws")
    check("TLS URL refused clearly", code != 0 and "TLS is not supported" in err, err)
    code, _, err = run("ls", "--url", "ws://127.0.0.1:1/ws", "--timeout", "3")
    check("nothing listening: clear error", code != 0 and "127.0.0.1:1" in err, err)


# Two keys in one file, with a helper function they share (each key carries the whole file).
LAYOUT = """// Layout keys for the CLI test.
func larger(_ a: Double, _ b: Double) -> Double { a > b ? a : b }

struct TallestKey: PreferenceKey {
    static var defaultValue: Double = 0
    static func reduce(value: inout Double, nextValue: () -> Double) {
        value = larger(value, nextValue())
    }
}

struct CountKey: PreferenceKey {
    static var defaultValue = 0
    static func reduce(value: inout Int, nextValue: () -> Int) {
        value += nextValue()
    }
}
"""

BADGE = """struct BadgeKey: PreferenceKey {
    static var defaultValue: [String] = []
    static func reduce(value: inout [String], nextValue: () -> [String]) {
        value.append(contentsOf: nextValue())
    }
}
"""

# Two errors, on lines 2 and 4.
BROKEN = """struct BrokenKey: PreferenceKey {
    static var defaultValue: Int = notDeclaredHere
    static func reduce(value: inout Int, nextValue: () -> Int) {
        value += alsoNotDeclared
    }
}
"""


def swift_keys(run, env, cli, work):
    """Keys written in Swift from .swift files: create, import, edit; compile errors as the Swift compiler prints."""
    def write(name, text):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    layout, badge, broken = write("Layout.swift", LAYOUT), write("Badge.swift", BADGE), write("Broken.swift", BROKEN)
    card = lambda i, h: {"id": f"card-{i}", "type": "Card", "modifiers": [
        {"kind": "preference", "key": "TallestKey", "value": h}, {"kind": "preference", "key": "CountKey", "value": 1}]}
    root = {"id": "root", "type": "Root", "modifiers": [
        {"kind": "onPreferenceChange", "key": "TallestKey"}, {"kind": "onPreferenceChange", "key": "CountKey"}],
        "children": [card(1, 120), card(2, 90),
                     {"id": "padded", "type": "Group", "children": [card(3, 100)], "modifiers": [
                         {"kind": "transformPreference", "key": "TallestKey",
                          "transform": {"swift": "{ $0 += 30 }"}}]}]}
    root_file = write("cards-root.json", json.dumps(root))

    code, out, err = run("create", "cards", "--keys", layout, "--root", root_file)
    check("create --keys File.swift", code == 0 and out.strip() == "created cards (version 0)", (out, err))
    raw = subprocess.Popen([cli, "watch", "cards", "--json", "--count", "1"], stdout=subprocess.PIPE, text=True,
                           env=env, cwd=ROOT)
    first = json.loads(raw.stdout.readline() or "{}")
    check("each PreferenceKey of the file is declared with the whole file as its source",
          first.get("keys") == [{"key": "TallestKey", "swift": LAYOUT}, {"key": "CountKey", "swift": LAYOUT}],
          first.get("keys"))

    watch = subprocess.Popen([cli, "watch", "cards", "--count", "1"], stdout=subprocess.PIPE, text=True, env=env,
                             cwd=ROOT)
    lines = [watch.stdout.readline() for _ in range(3)]
    check("watch lists Swift keys and their readers' values (the Swift transform adds 30 to 100)",
          lines[0].startswith("cards at version 0: 5 nodes; keys: TallestKey (Swift), CountKey (Swift)")
          and lines[1].strip() == "root#0 TallestKey = 130" and lines[2].strip() == "root#1 CountKey = 3", lines)
    code, out, _ = run("probe", "cards", "root", "TallestKey")
    check("probe of a Swift key", code == 0 and out.strip() == "root TallestKey = 130  (version 0)", out)

    ops = write("badge-ops.json", json.dumps([
        {"op": "setPreference", "node": "card-2", "key": "TallestKey", "value": 150},
        {"op": "setPreference", "node": "card-2", "key": "BadgeKey", "value": ["new"]},
        {"op": "setModifiers", "node": "root", "modifiers": root["modifiers"] + [
            {"kind": "onPreferenceChange", "key": "BadgeKey"}]}]))
    code, out, err = run("edit", "cards", ops, "--keys", badge)
    check("edit --keys declares the file's key before the ops", code == 0 and "cards version 1: applied 4 ops" in out
          and "root#0 TallestKey = 150" in out and 'root#2 BadgeKey = ["new"]' in out, (out, err))
    raw.communicate(timeout=15)
    try:
        rest, _ = watch.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        watch.kill()
        rest = watch.stdout.read()
    check("watch shows the Swift declareKey", "declareKey BadgeKey (Swift, 7 lines)" in rest, rest)

    code, out, err = run("create", "broken", "--keys", broken)
    errors = [line for line in err.splitlines() if line.strip()]
    check("a file with two errors prints both as file:line:col: error: and exits non-zero",
          code != 0 and len(errors) == 2 and errors[0].startswith(f"{broken}:2:")
          and errors[1].startswith(f"{broken}:4:")
          and all(re.match(re.escape(broken) + r":\d+:\d+: error: \S", line) for line in errors), (code, err))
    code, out, _ = run("ls")
    check("nothing is created from a file that does not compile", code == 0 and "broken" not in out, out)
    code, _, err = run("edit", "cards", "--keys", broken)
    check("edit --keys with a broken file: the same diagnostics, nothing sent",
          code != 0 and err.count(f"{broken}:") == 2 and "version" not in err, err)
    code, out, _ = run("probe", "cards", "root", "TallestKey")
    check("the tree is unchanged", out.strip() == "root TallestKey = 150  (version 1)", out)

    tree_file = write("import-cards.json", json.dumps({"tree": "cards-2", "keys": [{"swiftFile": "Layout.swift"}],
                                                       "root": root}))
    code, out, err = run("import", tree_file)
    check("import of a tree file whose keys name a .swift file", code == 0 and "imported cards-2" in out, (out, err))
    code, out, _ = run("probe", "cards-2", "root", "CountKey")
    check("its keys work", out.strip() == "root CountKey = 3  (version 0)", out)
    plain = write("plain-cards.json", json.dumps({"tree": "cards-3", "keys": [], "root": root}))
    code, out, err = run("import", plain, "--keys", layout)
    code2, out2, _ = run("probe", "cards-3", "root", "TallestKey")
    check("import of a JSON tree plus --keys File.swift",
          code == 0 and out2.strip() == "root TallestKey = 130  (version 0)", (out, err, out2))
    code, out, err = run("import", plain, "--tree", "cards-4", "--keys", broken)
    check("import with a broken --keys file prints its diagnostics", code != 0 and err.count(f"{broken}:") == 2, err)
    for tree in ["cards", "cards-2", "cards-3"]:
        run("delete", tree)


def main():
    canopyd, cli = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        daemon, port = start_daemon(canopyd, "--token", "s3cret:admin", "--token", "look:viewer",
                                    "--data", os.path.join(work, "data"))
        check("daemon announced its port", port is not None)
        if port:
            try:
                scenario(cli, port, work)
            except Exception as e:  # a hang or a crash is a failure of the test, reported like the others
                check("scenario ran", False, repr(e))
        code = stop_daemon(daemon)
        check("SIGTERM exits 0", code == 0, code)
    check.finish("cli smoke")


main()
