#!/usr/bin/env python3
"""Ready load scenarios against a fresh release canopyd: each run starts its own daemon (free loopback port, empty
temporary data directory), runs `canopy load`, samples the daemon's CPU and memory from /proc over the measured
window, prints a one-screen summary and appends a JSON line to artifacts/load/results.jsonl.

    scripts/load.py fanout                 # 1 writer, 10 / 100 / 1000 subscribers at fixed rates, closed-loop max
    scripts/load.py fanout-10 fanout-100   # 1 writer → 10, → 100 subscribers at 1,000 edits/s
    scripts/load.py write-heavy            # 100 writers on one tree, closed loop
    scripts/load.py many-trees             # 1000 trees × (1 writer + 1 subscriber)
    scripts/load.py large-tree             # a 1M-node balanced tree, edits deep inside at a fixed rate
    scripts/load.py slow                   # 90 subscribers + 10 slow readers
    scripts/load.py idle                   # 10,000 idle connections: daemon memory per connection
    scripts/load.py program                # setText events on a 1,000-field form program tree, 10 subscribers
    scripts/load.py all --quick            # every scenario, short and smaller (a smoke run)
    scripts/load.py many-trees --event-loop poll,libuv --rounds 3   # the daemon's two event loops side by side

Scenarios: """
import argparse
import sys
import time

import loadlib
from loadlib import RESULTS, Daemon, log

# Each scenario: a list of runs (label, canopy load arguments); `quick` variants are shorter and smaller.
MIX = "set=90,insert=4,remove=3,move=3"
FORM = str(loadlib.ROOT / "scripts" / "big-form.swift")


def scenarios(quick):
    return {
        "fanout": [
            # Fixed rates chosen so each N asks for a load the daemon can carry on two cores (≤ ~100k diffs/s),
            # then one closed-loop run for the ceiling.
            ("1 writer → 10 subscribers, 1000 edits/s", ["--writers", 1, "--clients", 10, "--rate", 1000]),
            ("1 writer → 100 subscribers, 500 edits/s", ["--writers", 1, "--clients", 100, "--rate", 500]),
            ("1 writer → 1000 subscribers, 50 edits/s", ["--writers", 1, "--clients", 1000, "--rate", 50]),
            ("1 writer → 100 subscribers, closed loop 8 in flight",
             ["--writers", 1, "--clients", 100, "--in-flight", 8]),
        ],
        # The fan-out's two per-delivery anchors on their own (docs/performance.md, against Redis).
        "fanout-10": [("1 writer → 10 subscribers, 1000 edits/s", ["--writers", 1, "--clients", 10, "--rate", 1000])],
        "fanout-100": [
            ("1 writer → 100 subscribers, 1000 edits/s", ["--writers", 1, "--clients", 100, "--rate", 1000]),
        ],
        "write-heavy": [
            ("100 writers, one 1000-node tree, closed loop",
             ["--writers", 100, "--clients", 0, "--trees", 1, "--nodes", 1000, "--mix", MIX, "--in-flight", 1]),
        ],
        "many-trees": [
            (f"{100 if quick else 1000} trees × (1 writer + 1 subscriber), {100 if quick else 1000} edits/s",
             ["--trees", 100 if quick else 1000, "--writers", 100 if quick else 1000,
              "--clients", 100 if quick else 1000, "--nodes", 50, "--rate", 100 if quick else 1000]),
        ],
        "large-tree": [
            (f"{'100k' if quick else '1M'}-node balanced tree, 10 subscribers, 200 edits/s of 4 ops",
             ["--trees", 1, "--nodes", 100_000 if quick else 1_000_000, "--shape", "balanced", "--fanout", 10,
              "--writers", 1, "--clients", 10, "--mix", MIX, "--ops-per-edit", 4, "--rate", 200,
              # each subscribe builds the 1M-node snapshot on the service thread (≈ 1–2 s): 11 of them in a row
              # take longer than the default 10 s to all be answered
              "--timeout", 60]),
        ],
        "slow": [
            ("1 writer → 90 subscribers + 10 slow readers, 200 edits/s",
             ["--writers", 1, "--clients", 90, "--slow", 10, "--rate", 200]),
        ],
        # The form of `canopy-bench --programs` (scripts/big-form.swift, written by its --write-source).
        "program": [
            ("1 writer → 10 subscribers, 1000-field form, 200 events/s",
             ["--program", FORM, "--writers", 1, "--clients", 10, "--rate", 200]),
            ("1 writer → 10 subscribers, 1000-field form, closed loop 4 in flight",
             ["--program", FORM, "--writers", 1, "--clients", 10, "--in-flight", 4]),
        ],
        "idle": [
            (f"{2000 if quick else 10000} idle connections (--hold)",
             ["--hold", "--clients", 2000 if quick else 10000, "--connect-rate", 2000]),
        ],
    }


def run(canopyd, canopy, scenario, label, extra, args, event_loop=None):
    warmup, duration = (0.5, 2.0) if args.quick else (args.warmup, args.duration)
    sample = None  # the run's own warm-up and duration
    if "--hold" in extra:
        # The hold starts once every client is subscribed; the daemon is sampled from a quarter of it in (after the
        # connect burst) to its end, so the memory figure is the settled one at the window's end, not a peak. The
        # start is learnt from the first progress line, a second in, so sampling cannot begin before about 1.5 s.
        warmup = 0
        lead = max(duration / 4, 1.5)
        sample = (lead, duration - lead)
    if args.client_event_loop:
        extra = [*extra, "--event-loop", args.client_event_loop]
    if event_loop:
        label = f"{label} [{event_loop}]"
    with Daemon(canopyd, config=loadlib.daemon_config(args.durability), event_loop=event_loop) as daemon:
        log(f"{scenario}: {label} (canopyd pid {daemon.pid}, port {daemon.port})")
        load, server = loadlib.run_canopy_load(canopy, daemon, extra, warmup, duration, 600, sample=sample)
    record = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "scenario": scenario, "label": label,
              "args": [str(a) for a in extra], "durability": args.durability or "fsync", "quick": args.quick,
              "eventLoop": event_loop or "configured", "load": load, "server": server, "notes": []}
    if "--hold" in extra:
        held = (load.get("connections") or {}).get("peak") or 0
        grown = (server.get("rssInWindow") or server["rssPeak"]) - server["rssBefore"]
        if held:
            server["bytesPerIdleConnection"] = grown / held
            before, during = loadlib.fmt_bytes(server["rssBefore"]), loadlib.fmt_bytes(server["rssBefore"] + grown)
            record["notes"].append(f"idle: {held:,} connections held; daemon RSS {before} → {during}: "
                                   f"{grown / held / 1024:.1f} KiB per idle connection")
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__ + ", ".join(scenarios(False)),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", nargs="+", choices=[*scenarios(False), "all"])
    parser.add_argument("--quick", action="store_true", help="0.5 s warm-up, 2 s measured, smaller scenarios")
    parser.add_argument("--duration", type=float, default=10, help="seconds measured (default 10)")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of warm-up (default 2)")
    parser.add_argument("--durability", choices=["fsync", "none"], help="the daemon's storage.durability")
    parser.add_argument("--event-loop", default="",
                        help="canopyd's server.event_loop for every run, or several separated by commas "
                             "(poll,libuv): each run then runs once per loop, side by side, the order alternating")
    parser.add_argument("--client-event-loop", choices=["poll", "libuv"],
                        help="canopy load's own --event-loop (default poll)")
    parser.add_argument("--rounds", type=int, default=1, help="times each run is repeated (default 1)")
    parser.add_argument("--out", default=str(RESULTS), help="JSON lines file to append to")
    loadlib.add_build_arguments(parser)
    args = parser.parse_args()
    # fanout-10 and fanout-100 are runs of fanout on their own: "all" runs them once, there.
    everything = [name for name in scenarios(False) if name not in ("fanout-10", "fanout-100")]
    names = everything if "all" in args.scenario else args.scenario
    loadlib.raise_open_files()
    canopyd, canopy = loadlib.binaries(args.build_path, args.rebuild)
    loadlib.check_load_flags(canopy)
    loops = [loop for loop in args.event_loop.split(",") if loop] or [None]
    for loop in loops:
        if loop not in (None, "poll", "libuv"):
            parser.error(f"--event-loop: {loop} is neither poll nor libuv")
    failures = 0
    turn = 0
    for name in names:
        for label, extra in scenarios(args.quick)[name]:
            for _ in range(args.rounds):
                order = loops if turn % 2 == 0 else loops[::-1]
                turn += 1
                for loop in order:
                    try:
                        record = run(canopyd, canopy, name, label, extra, args, event_loop=loop)
                    except Exception as error:  # one failed run should not hide the others' results
                        failures += 1
                        print(f"== {name}: {label} [{loop}]\n   FAILED: {error}", flush=True)
                        continue
                    loadlib.append_jsonl(args.out, record)
                    print(loadlib.summary(record), flush=True)
    print(f"results appended to {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
