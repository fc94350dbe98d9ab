#!/usr/bin/env python3
"""End-to-end smoke test of a real canopyd process: start it on a free port with the examples, drive it with two
WebSocket clients, then SIGTERM it and expect a clean exit. Usage: daemon_smoke.py PATH/TO/canopyd"""
import asyncio, json, shutil, sys, tempfile

import websockets

from e2e import Checks, start_daemon, stop_daemon

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
        check("examples loaded", "numeric-reducers" in trees and len(trees) == 6, trees)

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


def main():
    data = tempfile.mkdtemp(prefix="canopy-smoke-")
    daemon, port = start_daemon(sys.argv[1], "--data", data)
    check("daemon announced its port", port is not None)
    if port:
        try:
            asyncio.run(scenario(port))
        except Exception as e:  # a hang or a dropped connection is a failure, not a crash of the test
            check("scenario ran", False, repr(e))
    code = stop_daemon(daemon)
    check("SIGTERM exits 0", code == 0, code)
    shutil.rmtree(data, ignore_errors=True)
    check.finish("daemon smoke")


main()
