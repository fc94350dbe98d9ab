#!/usr/bin/env python3
"""Does one session's big request stall the others? Each scenario starts its own release canopyd (free port, empty
data directory, no examples, max_message_bytes raised to 64 MiB), runs a *probe* — one writer editing a small tree
at a fixed rate and timing each edit's acknowledgement — and, in the middle of it, the big request:

    scripts/stalls.py subscribe-big    # 10 clients subscribe at once to a 1M-node tree (snapshots of ≈ 28 MB)
    scripts/stalls.py create-big       # one client creates a 1M-node tree in one 28 MB createTree
    scripts/stalls.py trace-viewers    # 20 viewers subscribe at once with trace: true to a 12k-node tree
    scripts/stalls.py all [--nodes N] [--build-path .build-x] [--canopyd PATH]

It reports the probe's acknowledgement latency (p50 / p99 / max) while the big request is under way, next to the
same probe before it (the baseline), how long the big request took, and the CPU the daemon and this script used.
Results are appended to artifacts/load/stalls.jsonl. Issue 16's goals: p99 ≤ 20 ms for the first two, p50 ≤ 2 ms
for the third.
"""
import argparse
import json
import multiprocessing
import os
import statistics
import threading
import time

import loadlib
from loadlib import ARTIFACTS, Daemon, log
from websockets.sync.client import connect

PROBE_RATE = 100  # edits per second


class Session:
    def __init__(self, url, name):
        self.ws = connect(url, subprotocols=["canopy.v1"], max_size=None, open_timeout=30, close_timeout=2).__enter__()
        self.request({"type": "hello", "client": name})

    def send(self, msg):
        self.ws.send(json.dumps(msg))

    def recv(self, timeout=120):
        return self.ws.recv(timeout=timeout)

    def request(self, msg, want=None, timeout=300):
        """Sends msg with a rid and returns the parsed reply (skipping presence and other messages)."""
        rid = f"r{time.monotonic_ns()}"
        self.send({**msg, "rid": rid})
        while True:
            text = self.recv(timeout)
            if f'"rid":"{rid}"' in text[:4096] or text.rstrip().endswith(f'"rid":"{rid}"}}'):
                return json.loads(text) if len(text) < 1 << 20 else {"type": "big", "bytes": len(text)}

    def close(self):
        self.ws.close()


def balanced_tree(nodes, fanout=10):
    """A createTree body: a complete `fanout`-ary tree of `nodes` nodes with short ids (hexadecimal), one leaf in a
    hundred writing key N = 1, a reader of N on the root: about 28 bytes of JSON per node, 28 MB at 1M."""
    children = [[] for _ in range(nodes)]
    for i in range(1, nodes):
        children[(i - 1) // fanout].append(i)
    built = []
    for i in range(nodes):
        out = {"id": f"{i:x}", "type": "VStack" if children[i] else "Text"}
        if i == 0:
            out["modifiers"] = [{"kind": "onPreferenceChange", "key": "N"}]
        elif not children[i] and i % 100 == 1:
            out["modifiers"] = [{"kind": "preference", "key": "N", "value": 1}]
        built.append(out)
    for i in reversed(range(nodes)):
        if children[i]:
            built[i]["children"] = [built[c] for c in children[i]]
    return {"keys": [{"key": "N", "reducer": "sum", "default": 0}], "root": built[0]}


class Probe:
    """One writer at PROBE_RATE edits/s on its own small tree, in a process of its own (so that this script's
    threads reading big snapshots do not delay it); records (sent time, ack latency) per edit."""

    def __init__(self, url):
        context = multiprocessing.get_context("fork")
        self.stopping = context.Event()
        self.ready = context.Event()
        self.results = context.Queue()
        self.process = context.Process(target=self.run, args=(url,), daemon=True)
        self.samples = []

    def start(self):
        self.process.start()
        if not self.ready.wait(60):
            raise RuntimeError("the probe did not start")

    def run(self, url):
        session = Session(url, "probe")
        session.request({"type": "createTree", "tree": "probe", **balanced_tree(11)})
        self.ready.set()
        samples = []
        seq = 0
        next_at = time.monotonic()
        while not self.stopping.is_set():
            seq += 1
            sent = time.monotonic()
            session.send({"type": "edit", "tree": "probe", "seq": seq,
                          "ops": [{"op": "setPreference", "node": "1", "key": "N", "value": seq}]})
            while True:
                msg = json.loads(session.recv(timeout=300))
                if msg.get("seq") == seq and msg.get("type") in ("diff", "rejected"):
                    break
            samples.append((sent, time.monotonic() - sent))
            next_at += 1 / PROBE_RATE
            time.sleep(max(0, next_at - time.monotonic()))
        self.results.put(samples)

    def stop(self):
        self.stopping.set()
        self.samples = self.results.get(timeout=120)
        self.process.join(timeout=30)

    def window(self, start, end):
        return [lat for sent, lat in self.samples if start <= sent <= end]


def stats(latencies):
    if not latencies:
        return {"n": 0}
    s = sorted(latencies)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))] * 1000
    return {"n": len(s), "p50_ms": round(pick(0.5), 2), "p99_ms": round(pick(0.99), 2), "max_ms": round(s[-1] * 1000, 2)}


def cpu(pid):
    return loadlib.cpu_seconds(pid)


def scenario_subscribe_big(daemon, nodes):
    admin = Session(daemon.url, "admin")
    log(f"creating the {nodes:,}-node tree")
    body = balanced_tree(nodes)
    admin.request({"type": "createTree", "tree": "big", **body})
    del body
    return lambda: subscribe_many(daemon, "big", 10, trace=False, together=True)


def scenario_trace_viewers(daemon, nodes):
    admin = Session(daemon.url, "admin")
    admin.request({"type": "createTree", "tree": "traced", **balanced_tree(nodes)})
    return lambda: subscribe_many(daemon, "traced", 20, trace=True, together=True)


def subscribe_many(daemon, tree, count, trace, together):
    """`count` sessions subscribe (at once, or one after another) and each reads its snapshot whole."""
    sessions = [Session(daemon.url, f"viewer-{i}") for i in range(count)]
    sizes = []

    def one(s):
        msg = {"type": "subscribe", "tree": tree}
        if trace:
            msg["trace"] = True
        reply = s.request(msg)
        sizes.append(reply.get("bytes") or len(json.dumps(reply)))

    if together:
        threads = [threading.Thread(target=one, args=(s,)) for s in sessions]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for s in sessions:
            one(s)
    for s in sessions:
        s.close()
    return f"{count} snapshots of {statistics.mean(sizes) / 1e6:.1f} MB"


def scenario_create_big(daemon, nodes):
    log(f"encoding the {nodes:,}-node createTree")
    text = json.dumps({"type": "createTree", "tree": "big", "rid": "big", **balanced_tree(nodes)})
    creator = Session(daemon.url, "creator")

    def create():
        creator.ws.send(text)
        while True:
            msg = creator.recv(timeout=300)
            if '"rid":"big"' in msg:
                reply = json.loads(msg)
                if reply.get("type") != "created":
                    raise RuntimeError(f"createTree failed: {msg[:300]}")
                return f"createTree of {len(text) / 1e6:.1f} MB"

    return create


SCENARIOS = {
    "subscribe-big": (scenario_subscribe_big, 1_000_000),
    "create-big": (scenario_create_big, 1_000_000),
    "trace-viewers": (scenario_trace_viewers, 12_000),
}


def run(canopyd, name, nodes, baseline_seconds, durability=None):
    setup, default_nodes = SCENARIOS[name]
    nodes = nodes or default_nodes
    with Daemon(canopyd, config=loadlib.daemon_config(durability, max_message_bytes=64 << 20, name="canopyd-stalls")) as daemon:
        log(f"{name}: {nodes:,} nodes (canopyd pid {daemon.pid})")
        action = setup(daemon, nodes)
        probe = Probe(daemon.url)
        probe.start()
        time.sleep(baseline_seconds)
        base_start = time.monotonic() - baseline_seconds + 0.5
        daemon_cpu, own_cpu, t0 = cpu(daemon.pid), time.process_time(), time.monotonic()
        what = action()
        t1 = time.monotonic()
        daemon_cpu, own_cpu = cpu(daemon.pid) - daemon_cpu, time.process_time() - own_cpu
        time.sleep(0.5)
        probe.stop()
        slowest = sorted(((lat, sent) for sent, lat in probe.samples if t0 <= sent <= t1), reverse=True)[:3]
        log("  slowest probe acks: " + ", ".join(f"{lat * 1000:.0f} ms at +{sent - t0:.2f} s" for lat, sent in slowest)
            + f" (the request took {t1 - t0:.2f} s)")
        record = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S"), "scenario": name, "nodes": nodes, "canopyd": str(canopyd),
            "durability": durability or "fsync", "load_average": os.getloadavg()[0],
            "what": what, "seconds": round(t1 - t0, 3),
            "probe_baseline": stats(probe.window(base_start, t0)), "probe_during": stats(probe.window(t0, t1)),
            "daemon_cpu_share": round(daemon_cpu / (t1 - t0), 3), "script_cpu_share": round(own_cpu / (t1 - t0), 3),
        }
    b, d = record["probe_baseline"], record["probe_during"]
    log(f"  {what} in {record['seconds']} s; probe acks before: p50 {b.get('p50_ms')} / p99 {b.get('p99_ms')} ms; "
        f"during: p50 {d.get('p50_ms')} / p99 {d.get('p99_ms')} / max {d.get('max_ms')} ms (n {d['n']}); "
        f"daemon {record['daemon_cpu_share'] * 100:.0f} % of a core, this script {record['script_cpu_share'] * 100:.0f} %")
    loadlib.append_jsonl(ARTIFACTS / "stalls.jsonl", record)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", nargs="+", choices=[*SCENARIOS, "all"])
    parser.add_argument("--nodes", type=int, help="tree size (default: 1M, 12k for trace-viewers)")
    parser.add_argument("--baseline", type=float, default=3, help="seconds of probe before the big request")
    parser.add_argument("--canopyd", help="a canopyd binary (default: the release build of --build-path)")
    parser.add_argument("--durability", choices=["fsync", "none"], help="the daemon's storage.durability")
    loadlib.add_build_arguments(parser)
    args = parser.parse_args()
    canopyd = args.canopyd or loadlib.binaries(args.build_path, args.rebuild, products=("canopyd",))[0]
    loadlib.raise_open_files()
    names = list(SCENARIOS) if "all" in args.scenario else args.scenario
    for name in names:
        run(canopyd, name, args.nodes, args.baseline, args.durability)


if __name__ == "__main__":
    main()
