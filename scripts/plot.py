#!/usr/bin/env python3
"""Plots delivery latency (p50 and p99) against achieved throughput (diffs delivered/s) from JSON-lines results: one
line per series (the record's "series", else its scenario and label), p50 solid, p99 dashed, log-log. Installs
matplotlib with pip if it is missing.

    scripts/plot.py               # artifacts/load/sweep.jsonl → artifacts/load/latency-vs-throughput.png
    scripts/plot.py artifacts/load/sweep.jsonl artifacts/load/anchor.jsonl --out docs/images/latency-vs-throughput.png
    scripts/plot.py --series 'N=100' --since 2025-01-01   # only series containing the text, only newer runs"""
import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from loadlib import ARTIFACTS, log


def load_matplotlib():
    try:
        import matplotlib
    except ImportError:
        log("installing matplotlib with pip")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "matplotlib"], check=True)
        import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker as ticker
    return plt, ticker


def series_name(record):
    if record.get("series"):
        return record["series"]
    if record.get("server_name"):  # anchor-redis.py
        return f"{record['server_name']} fan-out N={record['subscribers']}"
    return f"{record.get('scenario', '?')}: {record.get('label', '')}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*", default=[str(ARTIFACTS / "sweep.jsonl")], help="JSON lines files")
    parser.add_argument("--out", default=str(ARTIFACTS / "latency-vs-throughput.png"))
    parser.add_argument("--series", help="keep only series whose name contains this text")
    parser.add_argument("--since", help="keep only runs at or after this time (e.g. 2025-06-01T12:00)")
    parser.add_argument("--title", default="Delivery latency against throughput")
    args = parser.parse_args()

    points = defaultdict(list)
    for path in args.inputs:
        for line in Path(path).read_text().splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            load = record.get("load") or {}
            delivery, diffs = load.get("delivery") or {}, load.get("diffs") or {}
            if not delivery.get("count") or not diffs.get("perSecond"):
                continue
            if args.since and record.get("time", "") < args.since:
                continue
            name = series_name(record)
            if args.series and args.series not in name:
                continue
            points[name].append((diffs["perSecond"], delivery["p50"], delivery["p99"]))
    if not points:
        sys.exit("no runs with deliveries in " + ", ".join(args.inputs))

    plt, ticker = load_matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=120)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (name, values) in enumerate(sorted(points.items())):
        values.sort()
        x = [v[0] for v in values]
        color = colors[i % len(colors)]
        ax.plot(x, [v[1] for v in values], "o-", color=color, label=f"{name} p50")
        ax.plot(x, [v[2] for v in values], "s--", color=color, label=f"{name} p99")
    ax.set_xscale("log")
    ax.set_yscale("log")
    plain = ticker.FuncFormatter(lambda v, _: f"{v:,.6g}")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(plain)
        axis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("diffs delivered per second (achieved)")
    ax.set_ylabel("delivery latency (ms)")
    ax.set_title(args.title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out)
    print(f"wrote {args.out} ({sum(len(v) for v in points.values())} runs in {len(points)} series)")


if __name__ == "__main__":
    sys.exit(main())
