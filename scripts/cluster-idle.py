#!/usr/bin/env python3
"""What idle trees cost a cluster (docs/cluster.md): leases renewed, watched and taken over while nobody edits.

    python3 scripts/cluster-idle.py                                  # 300 and 1000 trees, the release canopyd
    python3 scripts/cluster-idle.py --trees 1000 --canopyd old/canopyd --canopyd .build/release/canopyd

For each binary and tree count, one after the other: 3 NATS servers (scripts/nats-cluster.py) and three canopyd in
cluster mode (lease_seconds 3); `--trees` trees created through d1 (so d1 owns them all), `--settle` seconds of
rest, then `--seconds` measured: messages/s into the NATS servers (the sum of their /varz in_msgs, routes
included), each daemon's CPU (from /proc), and how many leases changed hands although no daemon stopped (each
"no longer owned" in the daemons' logs: none should). Prints a markdown table; progress goes to standard error.
"""
import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.request

import websockets

from clusterlib import Daemon, NatsCluster
from loadlib import binaries, cpu_seconds, log


async def create_trees(url, count):
    async with websockets.connect(url, subprotocols=["canopy.v1"], max_size=None) as ws:
        for i in range(count):
            await ws.send(json.dumps({"type": "createTree", "tree": f"idle-{i}", "rid": i}))
        answered = 0
        while answered < count:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message.get("rid") is not None:
                if message.get("type") != "created":
                    raise RuntimeError(f"createTree idle-{message['rid']}: {message}")
                answered += 1


def messages_in(monitors):
    total = 0
    for monitor in monitors:
        with urllib.request.urlopen(monitor + "/varz", timeout=5) as response:
            total += json.load(response)["in_msgs"]
    return total


def leases_lost(daemon):
    with open(daemon.log, errors="replace") as f:
        return sum("no longer owned" in line for line in f)


async def measure(binary, trees, settle, seconds):
    folder = tempfile.mkdtemp(prefix="canopy-cluster-idle-")
    nats = NatsCluster(folder)
    daemons = []
    try:
        await nats.start()
        monitors = [s["monitor"] for s in nats.info["servers"]]
        daemons = [Daemon(f"d{i}", binary, folder, nats.urls) for i in (1, 2, 3)]
        for d in daemons:
            d.start()
        for d in daemons:
            await d.wait_ready()
        log(f"{binary}: creating {trees} trees through d1")
        await create_trees(daemons[0].url, trees)
        await asyncio.sleep(settle)  # idle first: the steady state is measured, not the creations
        lost_before = [leases_lost(d) for d in daemons]
        cpu_before = [cpu_seconds(d.pid) for d in daemons]
        messages_before, started = messages_in(monitors), time.monotonic()
        log(f"  measuring for {seconds:g} s")
        await asyncio.sleep(seconds)
        elapsed = time.monotonic() - started
        rate = (messages_in(monitors) - messages_before) / elapsed
        cpu = [(cpu_seconds(d.pid) - b) / elapsed * 100 for d, b in zip(daemons, cpu_before)]
        lost = sum(leases_lost(d) - b for d, b in zip(daemons, lost_before))
        return rate, cpu, lost
    finally:
        for d in daemons:
            await d.terminate()
        await nats.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--canopyd", action="append", help="a canopyd binary (repeat to compare; default: release)")
    parser.add_argument("--trees", type=int, action="append", help="idle trees (repeatable; default 300 and 1000)")
    parser.add_argument("--settle", type=float, default=5, help="seconds between the creations and the measure")
    parser.add_argument("--seconds", type=float, default=15, help="seconds measured (default 15)")
    args = parser.parse_args()
    canopyds = args.canopyd or [str(binaries(products=("canopyd",))[0])]
    counts = args.trees or [300, 1000]
    rows = []
    for binary in canopyds:
        for trees in counts:
            rate, cpu, lost = asyncio.run(measure(os.path.abspath(binary), trees, args.settle, args.seconds))
            rows.append(f"| {binary} | {trees} | {rate:,.0f} | {' / '.join(f'{c:.1f}' for c in cpu)} | {lost} |")
    print(f"\n{os.cpu_count()} CPUs; lease_seconds 3; d1 owns every tree; {args.seconds:g} s measured after "
          f"{args.settle:g} s\n")
    print("| canopyd | idle trees | messages/s into NATS | CPU % d1 / d2 / d3 | leases lost |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    sys.exit(main())
