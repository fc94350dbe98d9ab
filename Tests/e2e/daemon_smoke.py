#!/usr/bin/env python3
"""End-to-end smoke test of a real canopyd process: start it on a free port with the examples, drive it with two
WebSocket clients, read the examples over HTTP, then SIGTERM it and expect a clean exit. Then the examples' symlink
rule (docs/security.md, "Files and disk"): a link leading outside the examples directory stops the first start, one
inside is loaded.
Usage: daemon_smoke.py PATH/TO/canopyd"""
import asyncio, json, os, shutil, subprocess, sys, tempfile, urllib.request

import websockets

from e2e import ROOT, Checks, start_daemon, stop_daemon

check = Checks()


async def recv(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), 5))


async def scenario(port):
    url = f"ws://127.0.0.1:{port}/ws"
    async with websockets.connect(url, subprotocols=["canopy.v1"]) as a, websockets.connect(url) as b:
        await a.send(json.dumps({"type": "hello", "client": "alice", "rid": 1}))
        welcome = await recv(a)
        check("welcome", welcome.get("type") == "welcome" and welcome.get("rid") == 1 and welcome.get("protocol") == 1, welcome)

        await a.send(json.dumps({"type": "listTrees"}))
        trees = [t["tree"] for t in (await recv(a))["trees"]]
        shipped = [f for f in os.listdir(os.path.join(ROOT, "config", "examples")) if f.endswith((".json", ".swift"))]
        check("examples loaded (JSON trees and Swift programs)",
              "numeric-reducers" in trees and "validated-signup" in trees and len(trees) == len(shipped), trees)

        await b.send(json.dumps({"type": "subscribe", "tree": "numeric-reducers"}))
        snap = await recv(b)
        check("snapshot", snap.get("type") == "snapshot" and snap.get("version") == 0, snap.get("type"))
        readers = {r["reader"]: r.get("value") for r in snap["readers"]}
        check("reader values", readers.get("scoreboard#3") == 70, readers)
        check("presence", (await recv(b)).get("type") == "clients")

        await a.send(json.dumps({"type": "edit", "tree": "numeric-reducers", "seq": 1,
                                 "ops": [{"op": "setProps", "node": snap["root"]["id"], "props": {"x": 1}}]}))
        da, db = await recv(a), await recv(b)
        check("diff to author and subscriber", da.get("type") == "diff" and db.get("type") == "diff"
              and da.get("version") == 1 and db.get("author") == welcome["session"], (da, db))

        await a.send(json.dumps({"type": "edit", "tree": "numeric-reducers", "seq": 2, "ops": [{"op": "remove", "node": "nope"}]}))
        rejected = await recv(a)
        check("rejected to author", rejected.get("type") == "rejected" and rejected.get("code") == "no_such_node", rejected)

        await a.send("{bad")
        err = await recv(a)
        check("bad_json keeps the connection", err.get("code") == "bad_json", err)
        await a.send(json.dumps({"type": "listTrees"}))
        check("connection still healthy", (await recv(a)).get("type") == "trees")


def examples_over_http(port):
    """The index lists every shipped example, programs with their header; a program is served as plain text."""
    base = f"http://127.0.0.1:{port}/examples/"
    with urllib.request.urlopen(base + "index.json", timeout=5) as r:
        index = json.loads(r.read())
    shipped = sorted(f for f in os.listdir(os.path.join(ROOT, "config", "examples")) if f.endswith((".json", ".swift")))
    check("the example index lists every shipped example", [e["file"] for e in index] == shipped, index)
    signup = next((e for e in index if e["file"] == "validated-signup.swift"), {})
    check("a program's index entry", signup.get("program") is True and signup.get("tree") == "validated-signup"
          and signup.get("view") == "SignupForm" and signup.get("title"), signup)
    with urllib.request.urlopen(base + "validated-signup.swift", timeout=5) as r:
        body, content_type = r.read(), r.headers.get("Content-Type")
    with open(os.path.join(ROOT, "config", "examples", "validated-signup.swift"), "rb") as f:
        check("a program is served as its text", body == f.read() and content_type == "text/plain; charset=utf-8",
              content_type)


async def list_trees(port):
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
        await ws.send(json.dumps({"type": "listTrees"}))
        return sorted(t["tree"] for t in (await recv(ws))["trees"])


def example_symlinks(binary):
    """First starts over an examples directory with symlinks: one leading outside refuses the start, naming it."""
    base = tempfile.mkdtemp(prefix="canopy-examples-")
    examples = os.path.join(base, "examples")
    os.makedirs(os.path.join(examples, "sub"))

    def tree(path, name):
        with open(path, "w") as f:
            json.dump({"tree": name, "root": {"id": "root", "type": "VStack"}}, f)

    tree(os.path.join(examples, "plain.json"), "plain")
    tree(os.path.join(examples, "sub", "extra.json"), "linked")  # not loaded itself: only top-level files are
    os.symlink("sub/extra.json", os.path.join(examples, "linked.json"))
    tree(os.path.join(base, "secret.json"), "secret")
    os.symlink("../secret.json", os.path.join(examples, "zz-escape.json"))

    args = ["--port", "0", "--data", os.path.join(base, "data1"), "--examples", examples]
    try:
        refused = subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True, timeout=20)
        check("an escaping example link stops the first start", refused.returncode == 1, refused.returncode)
        check("the refusal names the link and why", "zz-escape.json" in refused.stderr
              and "outside the examples directory" in refused.stderr, refused.stderr[-600:])
    except subprocess.TimeoutExpired:
        check("an escaping example link stops the first start", False, "the daemon kept running")

    os.unlink(os.path.join(examples, "zz-escape.json"))
    daemon, port = start_daemon(binary, "--data", os.path.join(base, "data2"), "--examples", examples)
    check("a link inside the examples directory starts", port is not None)
    if port:
        trees = asyncio.run(list_trees(port))
        check("the inside link is loaded, nothing else", trees == ["linked", "plain"], trees)
    check("SIGTERM exits 0 (examples)", stop_daemon(daemon) == 0)
    shutil.rmtree(base, ignore_errors=True)


def main():
    data = tempfile.mkdtemp(prefix="canopy-smoke-")
    daemon, port = start_daemon(sys.argv[1], "--data", data)
    check("daemon announced its port", port is not None)
    if port:
        try:
            asyncio.run(scenario(port))
            examples_over_http(port)
        except Exception as e:  # a hang or a dropped connection is a failure, not a crash of the test
            check("scenario ran", False, repr(e))
    code = stop_daemon(daemon)
    check("SIGTERM exits 0", code == 0, code)
    shutil.rmtree(data, ignore_errors=True)
    example_symlinks(sys.argv[1])
    check.finish("daemon smoke")


main()
