#!/usr/bin/env python3
"""Two canopy-bench binaries side by side: runs `canopy-bench --programs ARGS` (or any other mode that prints the
`--programs` keystroke table) with each binary in turn, --rounds times, alternating which goes first, and prints per
row of the keystroke table the median (and range) over the rounds of each column asked for, with the 1-minute load
average and the bench's on-cpu share of every run, so a run made while the machine was busy can be told apart.

    scripts/bench-ab.py --a before=/work/wt-before/.build/release/canopy-bench \\
                        --b after=.build/release/canopy-bench [--rounds 3] [--] --programs [--count-key ...]

Raw outputs go to artifacts/bench-ab/<label>-<round>.txt. Issue 26 used it for the form's keystroke before and after
layout (docs/performance.md, "Issue 26: layout").
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "artifacts" / "bench-ab"
ROWS = ["no preference change", "message only", "count changes", "all"]
COLUMNS = ["median", "p90", "p99", "max", "cpu med", "cpu p99"]


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def parse(text):
    """{row: {column: µs}}, the memory line's malloc B/node, and on-cpu %."""
    rows = {}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("== Keystroke transactions"))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    for line in lines[start + 2:end]:
        for name in ROWS:
            if line.startswith(name + " ") or line.startswith(name + "\t"):
                numbers = line[len(name):].split()
                # count median p90 p99 max cpu-med cpu-p99 ops/ks traced-med
                values = [float(x) for x in numbers]
                rows[name] = dict(zip(["count"] + COLUMNS + ["ops", "traced"], values))
    heap = re.search(r"malloc \(([\d.]+) B/node\)", text)
    oncpu = re.search(r"on-cpu (\d+)%", text)
    return rows, (float(heap.group(1)) if heap else None), (int(oncpu.group(1)) if oncpu else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="LABEL=PATH of the first binary")
    ap.add_argument("--b", required=True, help="LABEL=PATH of the second binary")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("args", nargs=argparse.REMAINDER, help="canopy-bench arguments (default --programs)")
    o = ap.parse_args()
    args = [a for a in o.args if a != "--"] or ["--programs"]
    binaries = [tuple(x.split("=", 1)) for x in (o.a, o.b)]
    OUT.mkdir(parents=True, exist_ok=True)
    results = {label: [] for label, _ in binaries}
    for r in range(o.rounds):
        order = binaries if r % 2 == 0 else list(reversed(binaries))
        for label, path in order:
            before = load()
            text = subprocess.run([path] + args, check=True, capture_output=True, text=True).stdout
            (OUT / f"{label}-{r + 1}.txt").write_text(text)
            rows, heap, oncpu = parse(text)
            results[label].append((rows, heap, oncpu, before, load()))
            print(f"round {r + 1} {label}: load {before:.2f} → {load():.2f}, on-cpu {oncpu}%, "
                  + ", ".join(f"{n} {rows[n]['median']:.1f}" for n in ROWS if n in rows), flush=True)
    print()
    print(f"canopy-bench {' '.join(args)}: median (min–max) over {o.rounds} rounds, µs")
    for name in ROWS:
        for column in COLUMNS:
            cells = []
            for label, _ in binaries:
                vals = [res[0][name][column] for res in results[label] if name in res[0]]
                if not vals:
                    cells.append(f"{label} -")
                    continue
                cells.append(f"{label} {statistics.median(vals):,.1f} ({min(vals):,.1f}–{max(vals):,.1f})")
            print(f"  {name:22} {column:8} " + "   ".join(cells))
    for label, _ in binaries:
        heaps = [res[1] for res in results[label] if res[1] is not None]
        if heaps:
            print(f"  memory of one tree, malloc B/node, {label}: {statistics.median(heaps):,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
