#!/usr/bin/env python3
"""Reproduction of a fuzzer finding (docs/fuzzing.md): one small `history` (or a burst of `subscribe`s) makes the
single service thread encode every big diff the log holds, and another client waits behind it.
Usage: history_amplification.py PATH/TO/canopyd [BIG_EDITS]. Prints the other client's round trip while it happens."""
import asyncio, json, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from fuzz import Daemon, connect, request  # noqa: E402


async def main(binary, edits):
    d = Daemon(binary, "repro")
    try:
        async with connect(d.url) as a, connect(d.url) as b:
            await request(a, {"type": "createTree", "tree": "t"}, lambda r: r.get("type") == "created")
            for seq in range(1, edits + 1):  # each batch sets and clears a ~1 MiB prop: the tree stays small
                ops = [{"op": "setProps", "node": "root", "props": {"big": "y" * 1_000_000}},
                       {"op": "setProps", "node": "root", "props": {"big": None}}]
                await request(a, {"type": "edit", "tree": "t", "seq": seq, "ops": ops},
                              lambda r: r.get("type") in ("diff", "rejected"))
            t0 = time.monotonic()
            await request(b, {"type": "listTrees", "rid": 0}, lambda r: r.get("rid") == 0)
            idle = time.monotonic() - t0
            await a.send(json.dumps({"type": "history", "tree": "t"}))  # 60 bytes in
            t0 = time.monotonic()
            await request(b, {"type": "listTrees", "rid": 1}, lambda r: r.get("rid") == 1)
            waited = time.monotonic() - t0
            reply = await asyncio.wait_for(a.recv(), 60)
            print(f"history reply {len(reply) / 2**20:.1f} MiB for a 60-byte request; another client's listTrees "
                  f"took {waited * 1000:.0f} ms behind it ({idle * 1000:.1f} ms before)")
    finally:
        d.stop()


asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30))
