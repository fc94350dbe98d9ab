#!/usr/bin/env python3
"""Scrolling a laid-out program tree while others watch (issue 26, LAYOUT.md §5): a scroll-offset header over
--rows rows (a GeometryReader reports the content's minY in the ScrollView's named space, the header collapses),
one client sending `scroll` events at --rate per second for --seconds, --viewers other sessions subscribed. Reports,
from the scrolling client's clock:

    ack      event sent → its acknowledging diff (the author's copy)
    viewers  event sent → the same version's diff at each viewer

as p50/p95/p99 in milliseconds, and the daemon's CPU per event. Goal (LAYOUT.md §5): ack p95 ≤ 16 ms at 60 Hz with
10 viewers on this machine.

    scripts/scroll-load.py [--rows 1000] [--viewers 10] [--rate 60] [--seconds 10] [--canopyd PATH ...]

With several --canopyd each is measured in turn, side by side. Results are appended to artifacts/load/scroll.jsonl.
"""
import argparse
import asyncio
import json
import statistics
import time

import loadlib
from loadlib import ARTIFACTS, Daemon, Session, log

PROGRAM = """struct OffsetKey: PreferenceKey {
    static var defaultValue: CGFloat = 0
    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) { value += nextValue() }
}
struct Header: View {
    @State private var offset: CGFloat = 0
    var body: some View {
        VStack(spacing: 0) {
            Color.indigo.frame(height: max(60, 200 + min(0, offset)))
            ScrollView {
                VStack(spacing: 8) {
                    GeometryReader { proxy in
                        Color.clear.preference(key: OffsetKey.self, value: proxy.frame(in: .named("scroll")).minY)
                    }
                    .frame(height: 0)
                    ForEach(0..<ROWS, id: \\.self) { i in
                        Color.gray.frame(height: 44)
                    }
                }
            }
            .coordinateSpace(name: "scroll")
            .onPreferenceChange(OffsetKey.self) { offset = $0 }
        }
    }
}
"""
SCROLL_VIEW = "Header/0:VStack/1:ScrollView"


def percentiles(values):
    if not values:
        return {"p50": None, "p95": None, "p99": None}
    ordered = sorted(values)

    def at(q):
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)
    return {"p50": at(0.50), "p95": at(0.95), "p99": at(0.99)}


async def measure(canopyd, args):
    with Daemon(canopyd) as daemon:
        admin = await Session.open(daemon.url, "admin")
        created = await admin.request(
            {"type": "createTree", "tree": "header", "source": PROGRAM.replace("ROWS", str(args.rows)), "view": "Header",
             "rid": "c"}, lambda m: m.get("rid") == "c", timeout=60)
        if created.get("type") != "created":
            raise RuntimeError(f"createTree: {created}")
        viewers = []
        for i in range(args.viewers):
            s = await Session.open(daemon.url, f"viewer{i}")
            await s.request({"type": "subscribe", "tree": "header", "rid": "s"}, lambda m: m.get("type") == "snapshot",
                            timeout=60)
            viewers.append(s)
        scroller = await Session.open(daemon.url, "scroller")
        await scroller.request({"type": "hello", "client": "scroller", "rid": "h"}, lambda m: m.get("rid") == "h")
        cpu0 = loadlib.cpu_seconds(daemon.pid)
        sent = {}  # seq -> time sent
        acks, deliveries, versions = [], [], {}
        interval = 1.0 / args.rate
        count = int(args.rate * args.seconds)
        start = time.monotonic()
        for seq in range(1, count + 1):
            due = start + (seq - 1) * interval
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            # Down and back up, so the header collapses and expands and the rows move every time.
            y = (seq * 37) % 1200
            sent[seq] = time.monotonic()
            await scroller.send({"type": "event", "tree": "header", "seq": seq, "node": SCROLL_VIEW, "event": "scroll",
                                 "value": {"x": 0, "y": y}})
        # The acknowledgements, then each viewer's copy of each version.
        for seq in range(1, count + 1):
            _, diff = await scroller.wait(lambda m: m.get("type") in ("diff", "rejected") and m.get("seq") == seq, 60)
            if diff.get("type") != "diff":
                raise RuntimeError(f"scroll {seq} rejected: {diff}")
            received = next(t for t, _, m in scroller.messages if m is diff)
            acks.append(received - sent[seq])
            versions[diff["version"]] = seq
        cpu = loadlib.cpu_seconds(daemon.pid) - cpu0
        for viewer in viewers:
            for version, seq in versions.items():
                _, diff = await viewer.wait(lambda m: m.get("type") == "diff" and m.get("version") == version, 60)
                received = next(t for t, _, m in viewer.messages if m is diff)
                deliveries.append(received - sent[seq])
        frames = statistics.mean(len(m.get("frames") or []) for _, _, m in scroller.messages if m.get("type") == "diff")
        for s in viewers + [scroller, admin]:
            await s.close()
        return {"canopyd": str(canopyd), "rows": args.rows, "viewers": args.viewers, "rate": args.rate,
                "events": count, "ack_ms": percentiles(acks), "viewers_ms": percentiles(deliveries),
                "cpu_us_per_event": round(cpu / count * 1e6, 1), "frames_per_diff": round(frames, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--viewers", type=int, default=10)
    parser.add_argument("--rate", type=float, default=60)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--canopyd", action="append", default=[])
    loadlib.add_build_arguments(parser)
    args = parser.parse_args()
    binaries = args.canopyd or [loadlib.binaries(args.build_path, args.rebuild, products=("canopyd",))[0]]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for canopyd in binaries:
        result = asyncio.run(measure(canopyd, args))
        log(json.dumps(result))
        with open(ARTIFACTS / "scroll.jsonl", "a") as f:
            f.write(json.dumps({"time": time.time(), **result}) + "\n")


if __name__ == "__main__":
    main()
