#!/usr/bin/env python3
"""How long does canopyd take to start with a big tree in its store? Builds a store once — a balanced 10-ary tree of
--nodes nodes (every inner node reads the sum key `Total`, every leaf writes 1 to it: the shape `canopy load
--shape balanced` makes), a small tree, and --tail logged edits of the big tree after its snapshot — then starts the
release canopyd on a copy of it --runs times and times, from exec:

    listening   the daemon printed its ws:// line (it accepts connections)
    hello       a session got `welcome`
    list        `listTrees` answered, listing both trees
    small       a `subscribe` to the small tree got its snapshot
    big         a `subscribe` to the big tree got its snapshot (the big tree serves)

and the daemon's CPU time and resident memory when the big tree answered. Issue 16's goal: start with a 1M-node tree
in the store until it serves, ≤ 1 s.

    scripts/startup.py [--nodes 1000000] [--tail 500] [--runs 5] [--canopyd PATH ...] [--build-path .build-x]

With several --canopyd the runs alternate between them (old and new side by side). The store is kept in
artifacts/load/startup-store-N (built by the first --canopyd), and results are appended to
artifacts/load/startup.jsonl.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import loadlib
from loadlib import ROOT, ARTIFACTS, log
from websockets.sync.client import connect

KEY = "Total"


def big_tree_json(nodes, fanout=10):
    """The createTree fields of the big tree as JSON text, written piece by piece (1M dicts would be slow)."""
    children = [[] for _ in range(nodes)]
    for i in range(1, nodes):
        children[(i - 1) // fanout].append(i)
    parts = []

    def write(i):
        name = "root" if i == 0 else f"n{i}"
        if children[i]:
            parts.append(f'{{"id":"{name}","type":"VStack","modifiers":[{{"kind":"onPreferenceChange","key":"{KEY}"}}]'
                         ',"children":[')
            for k, c in enumerate(children[i]):
                if k:
                    parts.append(",")
                write(c)
            parts.append("]}")
        else:
            parts.append(f'{{"id":"{name}","type":"Text","modifiers":[{{"kind":"preference","key":"{KEY}","value":1}}]}}')

    write(0)
    leaves = [i for i in range(nodes) if not children[i]]
    return f'"keys":[{{"key":"{KEY}","reducer":"sum","default":0}}],"root":' + "".join(parts), leaves


class Session:
    def __init__(self, url, name, timeout=300):
        self.ws = connect(url, subprotocols=["canopy.v1"], max_size=None, open_timeout=timeout, close_timeout=2,
                          ping_interval=None)
        self.timeout = timeout
        self.rid = 0
        self.welcome = self.request({"type": "hello", "client": name})

    def request_text(self, text):
        """Sends a message (JSON text ending in `}`) with a rid; returns the reply's text (other messages skipped)."""
        self.rid += 1
        rid = f"r{self.rid}"
        self.ws.send(text[:-1] + f',"rid":"{rid}"}}')
        while True:
            reply = self.ws.recv(timeout=self.timeout)
            if f'"rid":"{rid}"' in reply[:4096] or reply.rstrip().endswith(f'"rid":"{rid}"}}'):
                return reply

    def request(self, msg):
        reply = self.request_text(json.dumps(msg))
        return json.loads(reply) if len(reply) < 1 << 20 else {"type": "big", "bytes": len(reply)}

    def close(self):
        self.ws.close()


def build_store(canopyd, config, nodes, tail, directory):
    log(f"building the store in {directory}: a {nodes:,}-node tree and {tail} logged edits")
    body, leaves = big_tree_json(nodes)
    directory.mkdir(parents=True)
    process = subprocess.Popen([str(canopyd), "--port", "0", "--data", str(directory), "--examples", "",
                                "--log-level", "warning", "--config", str(config)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = wait_listening(process)[1]
        s = Session(url, "startup-builder")
        log(f"createTree: {len(body) / 1e6:.0f} MB")
        reply = s.request_text('{"type":"createTree","tree":"big",' + body + "}")
        if '"type":"created"' not in reply[:300]:
            raise RuntimeError(f"createTree big failed: {reply[:300]}")
        small = {"type": "createTree", "tree": "small", "keys": [{"key": KEY, "reducer": "sum", "default": 0}],
                 "root": {"id": "root", "type": "VStack", "modifiers": [{"kind": "onPreferenceChange", "key": KEY}],
                          "children": [{"id": f"s{i}", "type": "Text",
                                        "modifiers": [{"kind": "preference", "key": KEY, "value": 1}]}
                                       for i in range(10)]}}
        if s.request(small).get("type") != "created":
            raise RuntimeError("createTree small failed")
        log(f"{tail} edits")
        for seq in range(1, tail + 1):
            leaf = leaves[(seq * 7919) % len(leaves)]
            s.ws.send(json.dumps({"type": "edit", "tree": "big", "seq": seq,
                                  "ops": [{"op": "setPreference", "node": f"n{leaf}", "key": KEY, "value": seq}]}))
            while True:  # the author's diff answers by seq
                reply = json.loads(s.ws.recv(timeout=60))
                if reply.get("seq") == seq:
                    break
            if reply.get("type") != "diff":
                raise RuntimeError(f"edit {seq} failed: {reply}")
        s.close()
    finally:
        loadlib._stop(process, 60)


def wait_listening(process, deadline_seconds=600):
    """Reads the daemon's output until its ws:// line; returns (seconds since now, url)."""
    import re
    start = time.monotonic()
    lines = []
    while time.monotonic() - start < deadline_seconds:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
        if m:
            return time.monotonic() - start, f"ws://127.0.0.1:{m.group(1)}/ws"
    raise RuntimeError("canopyd did not announce its port:\n" + "".join(lines))


def one_run(canopyd, store, expected_version):
    data = Path(tempfile.mkdtemp(prefix="canopy-startup-"))
    try:
        for name in os.listdir(store):
            if name.startswith("canopy.db"):
                shutil.copyfile(store / name, data / name)
        # The copy is in the page cache, as a store is after a restart of the daemon alone.
        begin = time.monotonic()
        process = subprocess.Popen([str(canopyd), "--port", "0", "--data", str(data), "--examples", "",
                                    "--log-level", "warning"],
                                   cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            listening, url = wait_listening(process)
            listening = time.monotonic() - begin
            s = Session(url, "startup")
            hello = time.monotonic() - begin
            listed = s.request({"type": "listTrees"})
            ids = sorted(t.get("id") or t.get("tree") for t in listed.get("trees", []))
            if ids != ["big", "small"]:
                raise RuntimeError(f"listTrees: {listed}")
            listed_at = time.monotonic() - begin
            small = s.request({"type": "subscribe", "tree": "small"})
            if small.get("type") != "snapshot":
                raise RuntimeError(f"subscribe small: {small}")
            small_at = time.monotonic() - begin
            big = s.request_text('{"type":"subscribe","tree":"big"}')
            big_at = time.monotonic() - begin
            if '"type":"snapshot"' not in big[:200] or f'"version":{expected_version}' not in big[:300]:
                raise RuntimeError(f"subscribe big: {big[:300]}")
            cpu = loadlib.cpu_seconds(process.pid)
            rss = loadlib.rss_bytes(process.pid)
            s.close()
            return {"listening_s": round(listening, 3), "hello_s": round(hello, 3), "list_s": round(listed_at, 3),
                    "small_s": round(small_at, 3), "big_s": round(big_at, 3), "cpu_s": round(cpu, 2),
                    "rss_mib": round(rss / 2**20), "snapshot_mb": round(len(big) / 1e6, 1)}
        finally:
            loadlib._stop(process, 60)
    finally:
        shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--tail", type=int, default=500, help="logged edits after the snapshot (< 1000: no snapshot)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--canopyd", action="append", help="a canopyd binary (repeat to compare)")
    parser.add_argument("--rebuild-store", action="store_true")
    loadlib.add_build_arguments(parser)
    args = parser.parse_args()
    daemons = [Path(p).resolve() for p in args.canopyd] if args.canopyd else \
        [loadlib.binaries(args.build_path, args.rebuild, products=("canopyd",))[0]]
    store = ARTIFACTS / f"startup-store-{args.nodes}-{args.tail}"
    if args.rebuild_store and store.exists():
        shutil.rmtree(store)
    if not store.exists():
        try:
            build_store(daemons[0], loadlib.daemon_config(max_message_bytes=256 << 20, name="canopyd-startup"), args.nodes, args.tail, store)
        except BaseException:
            shutil.rmtree(store, ignore_errors=True)
            raise
    db = sum((store / n).stat().st_size for n in os.listdir(store) if n.startswith("canopy.db"))
    log(f"store {store}: {db / 1e6:.0f} MB")
    results = {str(d): [] for d in daemons}
    for run in range(args.runs):
        for d in daemons:
            r = one_run(d, store, args.tail)
            results[str(d)].append(r)
            log(f"{d}: {r}")
    with open(ARTIFACTS / "startup.jsonl", "a") as out:
        for d, runs in results.items():
            summary = {k: round(statistics.median(r[k] for r in runs), 3) for k in runs[0]}
            print(f"{d}: median of {len(runs)}: {summary}")
            out.write(json.dumps({"time": time.time(), "canopyd": d, "nodes": args.nodes, "tail": args.tail,
                                  "store_mb": round(db / 1e6), "median": summary, "runs": runs}) + "\n")


if __name__ == "__main__":
    main()
