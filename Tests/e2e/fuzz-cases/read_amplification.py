#!/usr/bin/env python3
"""Reproduction of a fuzzer finding (docs/security.md, "Fuzzing"): a small request makes the single service thread
encode a lot, and every other client waits behind it.
  history: after BIG_EDITS batches that each set and clear a ~1 MB prop, one `history` re-encodes all their diffs.
  subscribe: on a tree holding a ~1 MB prop, a burst of 40 `subscribe`s encodes 40 snapshots (seed 7 of
             scripts/fuzz.py failed its canary check on such a storm at case 9000).
Usage: read_amplification.py PATH/TO/canopyd [history|subscribe] [BIG_EDITS]. Prints how long another client's
listTrees waited behind the request."""
import asyncio, json, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from fuzz import Daemon, connect, request  # noqa: E402


async def other_client_wait(b, rid):
    t0 = time.monotonic()
    await request(b, {"type": "listTrees", "rid": rid}, lambda r: r.get("rid") == rid, timeout=120)
    return (time.monotonic() - t0) * 1000


async def main(binary, mode, edits):
    d = Daemon(binary, "repro")
    try:
        async with connect(d.url) as a, connect(d.url) as b:
            await request(a, {"type": "createTree", "tree": "t"}, lambda r: r.get("type") == "created")
            big = {"op": "setProps", "node": "root", "props": {"big": "y" * 1_000_000}}
            for seq in range(1, (edits if mode == "history" else 1) + 1):
                ops = [big, {"op": "setProps", "node": "root", "props": {"big": None}}] if mode == "history" else [big]
                await request(a, {"type": "edit", "tree": "t", "seq": seq, "ops": ops},
                              lambda r: r.get("type") in ("diff", "rejected"))
            idle = await other_client_wait(b, 0)
            if mode == "history":
                await a.send(json.dumps({"type": "history", "tree": "t"}))
                what = "one 40-byte history"
            else:
                for _ in range(40):
                    await a.send(json.dumps({"type": "subscribe", "tree": "t"}))
                what = "40 subscribes (40 × 40 bytes)"
            waited = await other_client_wait(b, 1)
            print(f"{what}: another client's listTrees waited {waited:.0f} ms (before: {idle:.1f} ms)")
    finally:
        d.stop()


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "history",
                 int(sys.argv[3]) if len(sys.argv) > 3 else 30))
