#!/usr/bin/env python3
"""Runs the fan-out scenario (1 writer, N subscribers, open loop) at increasing --rate until the daemon saturates:
the delivered rate falls below 90 % of what was asked, delivery p99 passes a limit, or edits are rejected. Each run
is a JSON line in artifacts/load/sweep.jsonl (with a "series" name), ready for scripts/plot.py.

    scripts/sweep.py                                  # 100 subscribers, 50, 100, 200, … edits/s, 5 s each
    scripts/sweep.py --subscribers 10 --start 500 --factor 1.5 --duration 3
    scripts/sweep.py && scripts/plot.py               # then the latency-vs-throughput plot"""
import argparse
import sys
import time

import loadlib
from loadlib import ARTIFACTS, Daemon, log


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscribers", type=int, default=100)
    parser.add_argument("--start", type=float, default=50, help="first rate, edits/s (default 50)")
    parser.add_argument("--factor", type=float, default=2, help="rate multiplier per step (default 2)")
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--p99-limit", type=float, default=100, help="stop once delivery p99 exceeds this many ms")
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=1)
    parser.add_argument("--durability", choices=["fsync", "none"])
    parser.add_argument("--series", help="name of this series in the plot (default: fan-out N=…)")
    parser.add_argument("--out", default=str(ARTIFACTS / "sweep.jsonl"))
    loadlib.add_build_arguments(parser)
    args = parser.parse_args()
    loadlib.raise_open_files()
    canopyd, canopy = loadlib.binaries(args.build_path, args.rebuild)
    loadlib.check_load_flags(canopy)
    series = args.series or f"canopyd fan-out N={args.subscribers} ({args.durability or 'fsync'})"
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    rate = args.start
    print(f"{'edits/s asked':>13} {'edits/s':>9} {'diffs/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'CPU µs/diff':>11}")
    for _ in range(args.max_steps):
        with Daemon(canopyd, config=loadlib.daemon_config(args.durability)) as daemon:
            log(f"sweep: {rate:g} edits/s, {args.subscribers} subscribers")
            load, server = loadlib.run_canopy_load(
                canopy, daemon, ["--writers", 1, "--clients", args.subscribers, "--rate", rate],
                args.warmup, args.duration, 300)
        record = {"time": stamp, "series": series, "scenario": "sweep", "rate": rate,
                  "subscribers": args.subscribers, "load": load, "server": server}
        loadlib.append_jsonl(args.out, record)
        asked = rate * (args.subscribers + 1)
        diffs = load["diffs"]["perSecond"]
        p99 = load["delivery"].get("p99") or 0
        cpu = server.get("cpuMicrosPerDelivery")
        print(f"{rate:>13g} {load['edits']['perSecond']:>9,.0f} {diffs:>10,.0f} "
              f"{loadlib.fmt_ms(load['delivery'], 'p50'):>8} {loadlib.fmt_ms(load['delivery'], 'p99'):>8} "
              f"{'—' if cpu is None else f'{cpu:.1f}':>11}", flush=True)
        rejected = sum((load["edits"].get("rejected") or {}).values())
        if diffs < 0.9 * asked or p99 > args.p99_limit or rejected:
            print(f"saturated at {rate:g} edits/s: {diffs:,.0f} diffs/s of {asked:,.0f} asked, p99 {p99:.1f} ms, "
                  f"{rejected} rejected")
            break
        rate *= args.factor
    print(f"results appended to {args.out}; plot them with scripts/plot.py")


if __name__ == "__main__":
    sys.exit(main())
