#!/usr/bin/env python3
"""Cluster mode against a single node, measured on this machine, in one invocation (docs/cluster.md).

    python3 scripts/cluster-bench.py                          # build (release) if needed, run both, print a table
    python3 scripts/cluster-bench.py --canopyd .build-x/release/canopyd --edits 1000 --subscribers 2000
    python3 scripts/cluster-bench.py --single-only            # no NATS, no cluster

Setups, one after the other (never at the same time, so they do not share the cores while measured):
  single node   one canopyd with its SQLite store, storage.durability: fsync
  cluster       a 3-server NATS JetStream cluster (scripts/nats-cluster.py: R3, sync_interval: always) and three
                canopyd in cluster mode (d1, d2, d3; lease_seconds 2)

Measures:
  latency   one edit at a time (the next once the previous is acknowledged and delivered), `--edits` of them
            after `--warmup`: edit -> ack (the author's diff) and edit -> delivery (the diff at a subscriber on
            another session; in the cluster on another daemon). In the cluster twice: the writer on the tree's
            owner (d1, subscriber on d2), and on a follower (d2: forwarded to the owner; subscriber on d3).
  fan-out   `--subscribers` subscribers (on the one daemon, or spread evenly over d1, d2, d3) and one writer on
            d1 sending `--rate` edits/s, open loop, for `--seconds`: edit -> last delivery (the time the last
            subscriber got that version), p50/p99 over the edits after the first second; edit -> first
            delivery alongside. The spread between the two includes the subscriber processes' own work: their
            CPU time per delivery is shown in the notes (times the deliveries one process handles per edit, it
            bounds how much of the spread is theirs).

Subscribers of the fan-out run in `--workers` child processes (this script with --worker) so Python's own
decoding is spread over the cores; their receive times are CLOCK_MONOTONIC, comparable across processes. The
clients share the machine with the daemons and the NATS servers: on a 2-core VM the numbers include their
competition for the cores. An `unavailable` rejection is answered by resending the same seq (counted; the latency
runs from the first send). Prints a markdown table on standard output; progress goes to standard error.
"""
import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import websockets

from clusterlib import Daemon, NatsCluster
from loadlib import Session, raise_open_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT_BIN = os.environ.get("SWIFT_BIN", "/opt/swift/usr/bin")
VERSION = re.compile(r'"version":(\d+)')


def log(text):
    print(text, file=sys.stderr, flush=True)


def now():
    return time.monotonic()


def percentile(values, p):
    """Nearest rank."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-p * len(ordered) // 100))))
    return ordered[rank - 1]


# ---------------------------------------------------------------- processes


def daemon(binary, folder, name, nats_urls=None):
    """A daemon as measured here: fsync'd SQLite when alone, lease_seconds 2 in the cluster, warnings only."""
    return Daemon(name, binary, folder, nats_urls, lease_seconds=2,
                  settings={"storage": {"durability": "fsync"}, "log": {"level": "warning"}})


# ---------------------------------------------------------------- sessions


async def open_session(url, client=None):
    """A session as this script's clients open them (no compression, as the subscriber workers); with `client`,
    hello first."""
    session = await Session.open(url, client or url, timeout=10, compression=None)
    if client:
        await session.request({"type": "hello", "client": client, "rid": "hello"},
                              lambda m: m.get("rid") == "hello", timeout=20)
    return session


class Editor:
    """Edits one tree; `edit` returns (version, time of the first send, time of the ack), resending on unavailable."""

    def __init__(self, session, tree):
        self.session, self.tree = session, tree
        self.seq = 0
        self.unavailable = 0

    async def edit(self, ops, timeout=60):
        self.seq += 1
        seq = self.seq
        first = now()
        deadline = first + timeout
        while True:
            start = len(self.session.messages)
            await self.session.send({"type": "edit", "tree": self.tree, "seq": seq, "ops": ops})
            index, m = await self.session.wait(lambda m: m.get("type") in ("diff", "rejected") and m.get("seq") == seq,
                                               max(0.1, deadline - now()), start)
            if m["type"] == "diff":
                return m["version"], first, self.session.messages[index][0]
            if m.get("code") != "unavailable" or now() > deadline:
                raise RuntimeError(f"edit rejected: {m}")
            self.unavailable += 1
            await asyncio.sleep(0.02)


async def create_tree(url, tree):
    s = await open_session(url)
    try:
        answer = await s.request({"type": "createTree", "tree": tree, "rid": "c"}, lambda m: m.get("rid") == "c",
                                 timeout=20)
        if answer.get("type") != "created":
            raise RuntimeError(f"createTree {tree}: {answer}")
    finally:
        await s.close()


async def subscribe(url, tree, timeout=30):
    """A session subscribed to `tree` (retrying while the daemon does not know it yet)."""
    s = await open_session(url)
    deadline = now() + timeout
    n = 0
    while True:
        n += 1
        rid = f"s{n}"
        answer = await s.request({"type": "subscribe", "tree": tree, "rid": rid}, lambda m: m.get("rid") == rid,
                                 timeout=20)
        if answer.get("type") == "snapshot":
            return s
        if now() > deadline:
            raise RuntimeError(f"subscribe {tree}: {answer}")
        await asyncio.sleep(0.05)


# ---------------------------------------------------------------- measurements


async def latency(writer_url, subscriber_url, tree, edits, warmup, label):
    """Closed loop: edit -> ack and edit -> delivery (ms) over `edits` edits after `warmup`."""
    sub = await subscribe(subscriber_url, tree)
    session = await open_session(writer_url, client=f"bench-{label}-{random.randrange(1 << 30)}")
    editor = Editor(session, tree)
    acks, deliveries = [], []
    try:
        for i in range(warmup + edits):
            start = len(sub.messages)
            version, sent, acked = await editor.edit([{"op": "setProps", "node": "root", "props": {"x": i}}])
            index, _ = await sub.wait(lambda m: m.get("type") == "diff" and m.get("version") == version, 20, start)
            delivered = sub.messages[index][0]
            if i >= warmup:
                acks.append((acked - sent) * 1000)
                deliveries.append((delivered - sent) * 1000)
            if (i + 1) % 200 == 0:
                log(f"  {label}: {i + 1}/{warmup + edits}")
    finally:
        await session.close()
        await sub.close()
    return acks, deliveries, editor.unavailable


async def fanout(writer_url, subscriber_urls, tree, count, workers, rate, seconds):
    """`count` subscribers spread evenly over `subscriber_urls`, in `workers` child processes; one writer at
    `rate` edits/s for `seconds`: per edit, the time until its last delivery (ms), skipping the first second."""
    plan = [[] for _ in range(workers)]  # per worker: [url, n] pairs
    for i in range(count):
        url = subscriber_urls[i % len(subscriber_urls)]
        entries = plan[i % workers]
        for entry in entries:
            if entry[0] == url:
                entry[1] += 1
                break
        else:
            entries.append([url, 1])
    children = []
    for entries in plan:
        if not entries:
            continue
        child = await asyncio.create_subprocess_exec(sys.executable, os.path.abspath(__file__), "--worker",
                                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
                                                     limit=1 << 26)
        child.stdin.write((json.dumps({"subscribers": entries, "tree": tree}) + "\n").encode())
        await child.stdin.drain()
        children.append(child)
    try:
        for child in children:
            line = await asyncio.wait_for(child.stdout.readline(), 180)
            if not line:
                raise RuntimeError("a subscriber worker failed (see its standard error)")
        log(f"  {count} subscribers ready")
        session = await open_session(writer_url, client=f"bench-fanout-{random.randrange(1 << 30)}")
        editor = Editor(session, tree)
        sent_at = {}
        pending = []
        start = now()
        total = int(rate * seconds)

        async def one(i):
            version, sent, _ = await editor.edit([{"op": "setProps", "node": "root", "props": {"x": i}}])
            sent_at[version] = (sent, i)
        for i in range(total):
            delay = start + i / rate - now()
            if delay > 0:
                await asyncio.sleep(delay)
            pending.append(asyncio.create_task(one(i)))
        await asyncio.gather(*pending)
        final = max(sent_at)
        await session.close()
        for child in children:
            child.stdin.write(f"{final}\n".encode())
            await child.stdin.drain()
        first, last, counts, cpu = {}, {}, {}, 0.0
        for child in children:
            line = await asyncio.wait_for(child.stdout.readline(), 120)
            report = json.loads(line)
            cpu += report["cpu"]
            for version, (n, earliest, latest) in report["versions"].items():
                version = int(version)
                counts[version] = counts.get(version, 0) + n
                first[version] = min(first.get(version, earliest), earliest)
                last[version] = max(last.get(version, 0.0), latest)
    finally:
        for child in children:
            if child.returncode is None:
                try:
                    child.stdin.close()
                except Exception:
                    pass
                try:
                    await asyncio.wait_for(child.wait(), 10)
                except asyncio.TimeoutError:
                    child.kill()
                    await child.wait()
    skip = int(rate)  # the first second
    firsts, lasts, complete = [], [], 0
    for version, (sent, i) in sent_at.items():
        if counts.get(version, 0) == count:
            complete += 1
        if i >= skip and version in last:
            firsts.append((first[version] - sent) * 1000)
            lasts.append((last[version] - sent) * 1000)
    deliveries = sum(counts.values())
    cpu_us = cpu / deliveries * 1e6 if deliveries else 0.0  # the subscriber processes' CPU per delivery
    return firsts, lasts, complete, len(sent_at), editor.unavailable, cpu_us


async def worker():
    """Child process: subscribers as told on standard input; on a line with the final version, waits (up to 30 s)
    until every subscriber has it, then prints {"versions": {v: [deliveries, first and last receive time]}}."""
    raise_open_files()
    plan = json.loads(sys.stdin.readline())
    tree = plan["tree"]
    versions = {}  # version -> [count, first time, last time]
    seen = []  # per subscriber: highest version
    gate = asyncio.Semaphore(50)
    sockets = []

    async def one(url, index):
        async with gate:
            ws = await websockets.connect(url, max_size=None, ping_interval=None, compression=None)
            await ws.send(json.dumps({"type": "subscribe", "tree": tree, "rid": 1}))
            while True:
                first = json.loads(await ws.recv())
                if first.get("type") == "snapshot":
                    break
            sockets.append(ws)
        async for raw in ws:
            t = now()
            if raw.startswith('{"type":"diff"'):
                m = VERSION.search(raw)
                if m:
                    v = int(m.group(1))
                    entry = versions.get(v)
                    if entry is None:
                        versions[v] = [1, t, t]
                    else:
                        entry[0] += 1
                        entry[2] = t
                    if v > seen[index]:
                        seen[index] = v

    tasks = []
    for url, n in plan["subscribers"]:
        for _ in range(n):
            seen.append(0)
            tasks.append(asyncio.create_task(one(url, len(seen) - 1)))
    while len(sockets) < len(tasks):
        for t in tasks:
            if t.done() and t.exception():
                raise t.exception()
        await asyncio.sleep(0.05)
    print(json.dumps({"ready": len(sockets)}), flush=True)
    cpu_start = time.process_time()
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, sys.stdin.readline)
    final = int(line) if line.strip() else 0
    deadline = now() + 30
    while min(seen) < final and now() < deadline:
        await asyncio.sleep(0.02)
    print(json.dumps({"versions": versions, "cpu": time.process_time() - cpu_start}), flush=True)
    for ws in sockets:
        ws.transport.abort()
    for t in tasks:
        t.cancel()


# ---------------------------------------------------------------- main


def row(setup, measure, values, extra=""):
    if not values:
        return f"| {setup} | {measure} | 0 | – | – | – | {extra} |"
    return (f"| {setup} | {measure} | {len(values)} | {percentile(values, 50):.2f} | {percentile(values, 99):.2f} | "
            f"{max(values):.2f} | {extra} |")


async def run(args, binary):
    folder = tempfile.mkdtemp(prefix="canopy-cluster-bench-")
    rows = []
    note = lambda n: f"{n} unavailable" if n else ""
    try:
        if not args.cluster_only:
            log("single node (SQLite, fsync)")
            single = daemon(binary, folder, "single")
            single.start()
            try:
                await single.wait_ready()
                await create_tree(single.url, "lat")
                a, d, u = await latency(single.url, single.url, "lat", args.edits, args.warmup, "single")
                rows.append(row("single node (SQLite, fsync)", "edit → ack", a, note(u)))
                rows.append(row("single node (SQLite, fsync)", "edit → delivery (another session)", d))
                await create_tree(single.url, "fan")
                f, v, complete, n, u, cpu_us = await fanout(single.url, [single.url], "fan", args.subscribers,
                                                            args.workers, args.rate, args.seconds)
                setup = f"single node, {args.subscribers} subscribers"
                rows.append(row(setup, f"edit → first delivery ({args.rate:g} edits/s)", f))
                rows.append(row(setup, f"edit → last delivery ({args.rate:g} edits/s)", v,
                                f"{complete}/{n} edits reached everyone; clients {cpu_us:.0f} µs CPU/delivery"
                                + (f"; {note(u)}" if u else "")))
            finally:
                await single.terminate()
        if not args.single_only:
            log("cluster (3 × canopyd, 3 NATS servers R3)")
            nats = NatsCluster(folder)
            urls = (await nats.start())["urls"]
            daemons = [daemon(binary, folder, f"d{i}", urls) for i in (1, 2, 3)]
            try:
                for d in daemons:
                    d.start()
                for d in daemons:
                    await d.wait_ready()
                d1, d2, d3 = daemons
                await create_tree(d1.url, "lat")  # d1 owns it
                a, d, u = await latency(d1.url, d2.url, "lat", args.edits, args.warmup, "cluster-owner")
                rows.append(row("cluster, writer on the owner (d1)", "edit → ack", a, note(u)))
                rows.append(row("cluster, writer on the owner (d1)", "edit → delivery (subscriber on d2)", d))
                a, d, u = await latency(d2.url, d3.url, "lat", args.edits, args.warmup, "cluster-follower")
                rows.append(row("cluster, writer on a follower (d2)", "edit → ack (forwarded)", a, note(u)))
                rows.append(row("cluster, writer on a follower (d2)", "edit → delivery (subscriber on d3)", d))
                await create_tree(d1.url, "fan")
                f, v, complete, n, u, cpu_us = await fanout(d1.url, [x.url for x in daemons], "fan",
                                                            args.subscribers, args.workers, args.rate, args.seconds)
                setup = f"cluster, {args.subscribers} subscribers over d1–d3"
                rows.append(row(setup, f"edit → first delivery ({args.rate:g} edits/s)", f))
                rows.append(row(setup, f"edit → last delivery ({args.rate:g} edits/s)", v,
                                f"{complete}/{n} edits reached everyone; clients {cpu_us:.0f} µs CPU/delivery"
                                + (f"; {note(u)}" if u else "")))
            finally:
                for d in daemons:
                    await d.terminate()
                await nats.stop()
    except Exception as error:
        log(f"stopped: {type(error).__name__}: {error}; logs in {folder}")
        print_table(rows, args, binary)
        return 1
    print_table(rows, args, binary)
    shutil.rmtree(folder, ignore_errors=True)
    return 0


def print_table(rows, args, binary):
    print(f"\n{os.cpu_count()} CPUs, {binary}; latency: {args.edits} edits one at a time after {args.warmup}; "
          f"fan-out: {args.rate:g} edits/s for {args.seconds:g} s, {args.workers} subscriber processes\n")
    print("| setup | measure | samples | p50 ms | p99 ms | max ms | notes |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)


def main():
    if "--worker" in sys.argv:
        asyncio.run(worker())
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--canopyd", help="the canopyd binary (default: BUILD/release/canopyd, built if missing)")
    parser.add_argument("--build-path", default=".build", help="SwiftPM scratch path (default .build)")
    parser.add_argument("--edits", type=int, default=1000, help="measured edits per latency run (default 1000)")
    parser.add_argument("--warmup", type=int, default=100, help="edits before measuring (default 100)")
    parser.add_argument("--subscribers", type=int, default=1000, help="fan-out subscribers (default 1000)")
    parser.add_argument("--rate", type=float, default=5.0, help="fan-out edits per second (default 5)")
    parser.add_argument("--seconds", type=float, default=20.0, help="fan-out duration (default 20)")
    parser.add_argument("--workers", type=int, default=2, help="subscriber processes (default 2)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--single-only", action="store_true", help="only the single node")
    which.add_argument("--cluster-only", action="store_true", help="only the cluster")
    args = parser.parse_args()
    raise_open_files()
    binary = args.canopyd
    if binary is None:
        scratch = args.build_path if os.path.isabs(args.build_path) else os.path.join(ROOT, args.build_path)
        binary = os.path.join(scratch, "release", "canopyd")
        if not os.path.exists(binary):
            log(f"building canopyd (release, scratch path {scratch})")
            env = dict(os.environ, PATH=f"{SWIFT_BIN}:{os.environ.get('PATH', '')}")
            subprocess.run(["swift", "build", "-c", "release", "--product", "canopyd", "--scratch-path", scratch],
                           cwd=ROOT, env=env, check=True, stdout=sys.stderr)
    binary = os.path.abspath(binary)

    def on_signal(number, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    return asyncio.run(run(args, binary))


if __name__ == "__main__":
    sys.exit(main())
