#!/usr/bin/env bash
# Every load scenario, the Redis anchor, a fan-out sweep and its plot, one after the other. Results accumulate in
# artifacts/load/ (results.jsonl, anchor.jsonl, sweep.jsonl, latency-vs-throughput.png).
#   scripts/load-all.sh            # full: 2 s warm-up + 10 s per scenario run (≈ 15 min with the 1M-node tree)
#   scripts/load-all.sh --quick    # smoke run: short windows, smaller scenarios (≈ 3 min)
# Other arguments (e.g. --build-path .build-x, --rebuild) are passed to every script.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
pass=()
for arg in "$@"; do
    if [ "$arg" = "--quick" ]; then quick=true; else pass+=("$arg"); fi
done

status=0
if $quick; then
    python3 scripts/load.py all --quick "${pass[@]}" || status=1
    python3 scripts/anchor-redis.py --subscribers 10,100 --rates 1000 --warmup 0.5 --duration 2 "${pass[@]}" || status=1
    python3 scripts/sweep.py --subscribers 10 --start 250 --factor 4 --max-steps 3 --warmup 0.5 --duration 2 \
        --series "quick sweep N=10" "${pass[@]}" || status=1
    python3 scripts/plot.py artifacts/load/sweep.jsonl --series "quick sweep" || status=1
else
    python3 scripts/load.py all "${pass[@]}" || status=1
    python3 scripts/anchor-redis.py "${pass[@]}" || status=1
    python3 scripts/sweep.py "${pass[@]}" || status=1
    python3 scripts/plot.py artifacts/load/sweep.jsonl || status=1
fi
exit $status
