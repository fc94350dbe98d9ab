#!/usr/bin/env python3
"""Side-by-side anchor: the same fan-out (one publisher/writer, N subscribers, fixed rates) against Redis pub/sub and
against canopyd. For each server: its own CPU time per delivered message (utime + stime from /proc over the measured
window ÷ deliveries in it) and the delivery latency percentiles. Installs redis-server with apt-get if missing and
starts it on loopback, on a free port, without persistence.

    scripts/anchor-redis.py                                   # N = 10, 100, 500 at 200 and 1000 msg/s, 5 s each
    scripts/anchor-redis.py --subscribers 100 --rates 1000 --duration 3 --only redis

Results: a table on stdout, one JSON line per run in artifacts/load/anchor.jsonl."""
import argparse
import sys
import time

import loadlib
from loadlib import ARTIFACTS, Daemon, Redis, fmt_ms, log, run_measured


def redis_run(redis_load, redis, n, rate, args):
    cmd = [redis_load, "--port", redis.port, "--subscribers", n, "--rate", rate, "--warmup", args.warmup,
           "--duration", args.duration, "--payload", args.payload, "--json"]
    # canopy-redis-load marks the start of its measured window on stderr, so the window is exact: no extra warm-up.
    return run_measured(cmd, redis.pid, 0, args.duration, start_marker=r"canopy-redis-load: measuring",
                        timeout=args.warmup + args.duration + 60)


def canopyd_run(canopy, daemon, n, rate, args):
    return loadlib.run_canopy_load(canopy, daemon, ["--writers", 1, "--clients", n, "--trees", 1, "--rate", rate],
                                   args.warmup, args.duration, 120)


def row(record):
    load, server = record["load"], record["server"]
    cpu = server.get("cpuMicrosPerDelivery")
    return {"cpu": cpu, "text": f"{record['server_name']:<8} {'—' if cpu is None else f'{cpu:6.2f}':>8} "
            f"{load['diffs']['perSecond']:>10,.0f} {(server.get('cpuShare') or 0) * 100:>5.0f}% "
            f"{fmt_ms(load['delivery'], 'p50'):>7} {fmt_ms(load['delivery'], 'p99'):>7} "
            f"{fmt_ms(load['delivery'], 'p999'):>7}{' *' if server.get('saturated') else '  '}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscribers", default="10,100,500", help="comma-separated N (default 10,100,500)")
    parser.add_argument("--rates", default="200,1000", help="messages (edits) per second, comma-separated")
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=1)
    parser.add_argument("--payload", type=int, default=200, help="Redis message size in bytes (default 200)")
    parser.add_argument("--only", choices=["redis", "canopyd"], help="run one server only")
    parser.add_argument("--durability", choices=["fsync", "none"],
                        help="canopyd's storage.durability (default fsync, the shipped configuration)")
    parser.add_argument("--out", default=str(ARTIFACTS / "anchor.jsonl"))
    loadlib.add_build_arguments(parser)
    args = parser.parse_args()
    counts = [int(x) for x in args.subscribers.split(",")]
    rates = [float(x) for x in args.rates.split(",")]
    loadlib.raise_open_files()
    canopyd, canopy, redis_load = loadlib.binaries(args.build_path, args.rebuild,
                                                   ("canopyd", "canopy", "canopy-redis-load"))
    if args.only != "redis":
        loadlib.check_load_flags(canopy)

    records = []
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    for n in counts:
        for rate in rates:
            if args.only != "canopyd":
                with Redis() as redis:
                    version = redis.version()
                    log(f"redis {version}: N={n}, {rate:g} msg/s")
                    load, server = redis_run(redis_load, redis, n, rate, args)
                    records.append({"time": stamp, "server_name": "redis", "version": version,
                                    "subscribers": n, "rate": rate, "load": load, "server": server})
            if args.only != "redis":
                with Daemon(canopyd, config=loadlib.daemon_config(args.durability)) as daemon:
                    log(f"canopyd: N={n}, {rate:g} edits/s")
                    load, server = canopyd_run(canopy, daemon, n, rate, args)
                    records.append({"time": stamp, "server_name": "canopyd", "durability": args.durability or "fsync",
                                    "subscribers": n, "rate": rate,
                                    "load": load, "server": server})
            for record in records[-2:] if args.only is None else records[-1:]:
                loadlib.append_jsonl(args.out, record)

    print(f"{'N':>4} {'rate/s':>7}  {'server':<8} {'CPU µs/del':>8} {'del/s':>10} {'core':>6} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'p99.9':>7}  canopyd/redis")
    for n in counts:
        for rate in rates:
            pair = [r for r in records if r["subscribers"] == n and r["rate"] == rate]
            cpus = {r["server_name"]: row(r)["cpu"] for r in pair}
            ratio = (f"{cpus['canopyd'] / cpus['redis']:.2f}×" if cpus.get("canopyd") and cpus.get("redis") else "")
            for i, record in enumerate(pair):
                print(f"{n:>4} {rate:>7g}  {row(record)['text']}  {ratio if i == len(pair) - 1 else ''}")
    client = [r for r in records if r["server_name"] == "redis"]
    if client:
        busiest = max(client, key=lambda r: r["load"].get("client", {}).get("cpuShare", 0))
        print(f"(canopy-redis-load's own CPU peaked at {busiest['load']['client']['cpuShare'] * 100:.0f}% of a core, "
              f"N={busiest['subscribers']}, {busiest['rate']:g}/s; lost messages: "
              f"{sum(r['load'].get('lost', 0) for r in client)})")
    if any(r["server"].get("saturated") for r in records):
        print("* saturated: the clients received under 95% of what the daemon queued, so latency is queueing; "
              "CPU per delivery counts what they received")
    print(f"results appended to {args.out}")


if __name__ == "__main__":
    sys.exit(main())
