#!/usr/bin/env python3
"""Protocol fuzzer for canopyd (docs/fuzzing.md). Sends valid, mutated and frame-level messages to a real daemon
and, after every `--check-every` cases, checks that (1) the daemon is alive, (2) replaying every diff it broadcast
on a fresh daemon gives the same diffs and snapshots, (3) a canary client's edit latency stayed normal.

Usage: fuzz.py --daemon PATH [--cases N] [--seed S] [--keep-failures DIR] [--reproduce CASEFILE]
Exit status: 0 when every check passed, 1 when one failed (the offending cases are saved with --keep-failures)."""
import argparse, asyncio, base64, collections, heapq, http.client, json, os, random, re, shutil, signal, subprocess
import sys, tempfile, time, traceback

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_grammar import FUZZ_TREES, MAX_MESSAGE, Grammar, Mutator, encode  # noqa: E402
from fuzz_frames import FrameCases, run_case  # noqa: E402
from fuzz_canary import Canary, p99  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.setrecursionlimit(20000)  # deep nodes (max_tree_depth) are written and walked recursively
HOST = "127.0.0.1"
CODES = {"bad_json", "bad_message", "unknown_type", "unauthorized", "forbidden", "no_such_tree", "tree_exists",
         "no_such_node", "duplicate_id", "cycle", "bad_index", "bad_key", "type_mismatch", "too_large",
         "too_deep", "too_many", "rate_limited", "storage_error",
         # program trees' events (the layout cases: canvas, resize, scroll)
         "bad_event", "program_tree", "runtime_error", "too_expensive", "compile_error"}
REPLY_TIMEOUT = 15.0   # a session that answers nothing for this long is stalled (a debug build parses 1 MiB in ~0.1 s)
FRAME_TIMEOUT = 3.0    # a frame case neither answered nor closed within this is reported as hung
# Canary: a window fails when its p99 is above all of LATENCY_FACTOR × its own pre-fuzzing baseline p99,
# LATENCY_FLOOR seconds, and CONTROL_FACTOR × the p99 of a control canary that edits the idle replay daemon in the
# same window (when the machine itself is busy, both slow down alike). Reasons in docs/fuzzing.md.
LATENCY_FACTOR = 10.0
LATENCY_FLOOR = 0.5
CONTROL_FACTOR = 5.0
# ...and when at least this many round trips of the window are over that limit: a window holds 50-400 round trips,
# so its p99 can be one sample, and on a shared machine one round trip can stall for a second by scheduling alone.
LATENCY_MIN_SLOW = 3



def _is_utf8(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False

class Failure(Exception):
    """A failed check: the daemon died, stalled, answered with garbage, replayed differently or got slow."""


# -- daemons ---------------------------------------------------------------------------------------------------

class Daemon:
    """A canopyd on a free loopback port with a temporary data directory, no examples and no web root."""

    def __init__(self, binary, name, *flags):
        self.data = tempfile.mkdtemp(prefix=f"canopy-fuzz-{name}-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        self.log_path = os.path.join(self.data, "canopyd.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([binary, "--port", "0", "--data", os.path.join(self.data, "db"),
                                         "--examples", "", "--web", "", *flags],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
        self.port = None
        for _ in range(20):
            line = self.process.stdout.readline()
            m = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            raise RuntimeError(f"{binary} announced no port (log: {self.log_path})")
        self.url = f"ws://{HOST}:{self.port}/ws"

    def alive(self):
        return self.process.poll() is None

    def stop(self, keep_dir=None):
        """SIGTERM (SIGKILL after 10 s); returns the exit code. The log is copied to `keep_dir` if given."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        if keep_dir:
            shutil.copy(self.log_path, os.path.join(keep_dir, "canopyd.log"))
        shutil.rmtree(self.data, ignore_errors=True)
        return self.process.returncode


def connect(url):
    return websockets.connect(url, max_size=None, compression=None, ping_interval=None, close_timeout=1,
                              open_timeout=10)


async def request(ws, msg, want, timeout=REPLY_TIMEOUT):
    """Sends `msg` and returns the first reply for which `want(reply)` holds."""
    await ws.send(json.dumps(msg))
    deadline = time.monotonic() + timeout
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic())))
        if want(reply):
            return reply


def create_body(tree):
    g = Grammar(random.Random(0))
    return {"type": "createTree", "tree": tree, "keys": g.keys_decl(),
            "root": {"id": "root", "type": "Root", "children": [{"id": "n0", "type": "VStack"}]}}


# -- the observer: every diff of the fuzz trees, in version order -------------------------------------------------

class Observer:
    """Subscribes to the fuzz trees and keeps every diff the daemon broadcast for them, in version order."""

    def __init__(self, url):
        self.url = url
        self.diffs = {t: [] for t in FUZZ_TREES}
        self.version = {t: 0 for t in FUZZ_TREES}
        self.excluded = {}   # tree -> why it can no longer be replayed (deleted, a gap after a resubscribe)
        self.reconnects = 0
        self.task = None

    async def start(self):
        self.ws = await connect(self.url)
        await request(self.ws, {"type": "hello", "client": "fuzz-observer"}, lambda r: r.get("type") == "welcome")
        for t in FUZZ_TREES:
            snap = await request(self.ws, {"type": "subscribe", "tree": t, "rid": t},
                                 lambda r: r.get("type") == "snapshot")
            self.version[t] = snap["version"]
        self.task = asyncio.create_task(self._read())

    async def _read(self):
        while True:
            try:
                self._take(json.loads(await self.ws.recv()))
            except websockets.ConnectionClosed:
                # Closed (e.g. 1008 for a queue that overflowed): resubscribe from the last version held.
                self.reconnects += 1
                try:
                    self.ws = await connect(self.url)
                except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                    return  # the daemon is gone: the next check says so
                for t in FUZZ_TREES:
                    if t not in self.excluded:
                        await self.ws.send(json.dumps({"type": "subscribe", "tree": t, "since": self.version[t]}))

    async def restart(self):
        """After the fuzzed trees were deleted and created again: forget their diffs and subscribe anew."""
        self.resetting = False
        for t in FUZZ_TREES:
            self.diffs[t], self.version[t] = [], 0
            self.excluded.pop(t, None)
            await self.ws.send(json.dumps({"type": "subscribe", "tree": t}))

    def _take(self, m):
        t = m.get("tree")
        if t not in self.version or t in self.excluded or getattr(self, "resetting", False):
            return
        if m.get("type") == "diff":
            if m["version"] == self.version[t] + 1:
                self.diffs[t].append(m)
                self.version[t] = m["version"]
            elif m["version"] > self.version[t] + 1:
                self.excluded[t] = f"gap: diff {m['version']} after {self.version[t]}"
        elif m.get("type") == "snapshot" and m.get("version") != self.version[t]:
            self.excluded[t] = f"resubscribed to a snapshot at {m.get('version')} after {self.version[t]}"
        elif m.get("type") == "deleted":
            self.excluded[t] = "deleted by a case"

    async def wait_for(self, versions, timeout=REPLY_TIMEOUT):
        """Waits until every diff up to `versions[tree]` arrived; raises Failure if they do not."""
        deadline = time.monotonic() + timeout
        while any(self.version[t] < v for t, v in versions.items() if t not in self.excluded):
            if time.monotonic() > deadline:
                raise Failure(f"diffs missing: observer at {self.version}, daemon at {versions}")
            await asyncio.sleep(0.02)


# -- the fuzzer ------------------------------------------------------------------------------------------------

class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.grammar = Grammar(self.rng)
        self.mutator = Mutator(self.rng, self.grammar)
        self.frames = FrameCases(self.rng)
        self.workers = [None] * 3
        self.recent = collections.deque(maxlen=50)
        self.stats = collections.Counter()
        self.findings = collections.Counter()
        self.replies = collections.Counter()
        self.slowest = []  # a min-heap of the 5 slowest cases: (seconds, index, kind, start of the text)
        self.timeline = collections.deque(maxlen=5000)  # (start, index, kind) of recent cases, to explain a slow canary
        self.finding_examples = {}
        self.replayed = {t: 0 for t in FUZZ_TREES}
        self.snapshot_bytes = {t: 0 for t in FUZZ_TREES}
        self.latency = []
        self.started = time.monotonic()
        self.baseline = 0.0
        self.epochs = 0
        self.slow_windows = 0  # windows with a round trip over the limit (too few to fail)

    # -- cases --
    def next_case(self, i):
        r = self.rng.random()
        conn = self.rng.randrange(len(self.workers))
        if r < 0.40:
            kind, msgs = "valid", [(encode(self.grammar.message()), False)]
        elif r < 0.72:
            kind, msgs = "mutated", [self.mutator.mutate(self.grammar.message())]
        elif r < 0.78:
            kind, msgs = "storm", [(encode(m), False) for m in self.grammar.storm(self.grammar.tree())]
        elif r < 0.82:
            kind, msgs = "pipeline", [(encode(self.grammar.message()), False) for _ in range(self.rng.randrange(2, 12))]
        elif r < 0.845:
            kind, msgs = "limit", [(encode(self.grammar.limit_case(self.grammar.tree())), False)]
        else:
            kind, steps = self.frames.case()
            return {"i": i, "kind": "frame:" + kind, "steps": steps}
        return {"i": i, "kind": kind, "conn": conn, "msgs": msgs}

    def note(self, what, case, detail):
        """A departure from the contract that is not a failure (the daemon lived on and stayed consistent)."""
        self.findings[what] += 1
        if what not in self.finding_examples:
            self.finding_examples[what] = (case["i"], case["kind"], str(detail)[:300])
            print(f"finding: {what} (case {case['i']}, {case['kind']}: {str(detail)[:200]})", flush=True)

    async def worker(self, k):
        ws = self.workers[k]
        if ws is None or ws.state != websockets.protocol.State.OPEN:
            ws = self.workers[k] = await connect(self.daemon.url)
        return ws

    async def run_messages(self, case):
        ws = await self.worker(case["conn"])
        sync = f"sync-{case['i']}"
        payloads = [(p if isinstance(p, bytes) else p.encode("utf-8", "surrogatepass"), b) for p, b in case["msgs"]]
        oversize = any(len(p) > MAX_MESSAGE for p, _ in payloads)
        # RFC 6455: invalid UTF-8 in a text frame closes the connection with 1007 (docs/security.md).
        invalid_text = any(not binary and not _is_utf8(p) for p, binary in payloads)
        try:
            for payload, binary in payloads:
                await ws.send(payload, text=not binary)
            await ws.send(json.dumps({"type": "listTrees", "rid": sync}))
            while True:
                raw = await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT)
                try:
                    m = json.loads(raw)
                except ValueError:
                    raise Failure(f"daemon sent invalid JSON: {raw[:200]!r}")
                if not isinstance(m, dict) or not isinstance(m.get("type"), str):
                    raise Failure(f"daemon sent a message without a type: {raw[:200]!r}")
                self.replies[m["type"] + (":" + str(m.get("code")) if "code" in m else "")] += 1
                if m["type"] in ("error", "rejected") and m.get("code") not in CODES:
                    self.note(f"unknown error code {m.get('code')}", case, m)
                if m.get("rid") == sync:
                    return
        except asyncio.TimeoutError:
            raise Failure(f"session stalled: no reply to listTrees within {REPLY_TIMEOUT:.0f} s")
        except websockets.ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd else None
            if not (oversize and code == 1009) and not (invalid_text and code == 1007):
                self.note(f"connection closed with {code} after a {case['kind']} case", case, e)
            self.stats["closed"] += 1

    async def run_frames(self, case):
        outcome, detail = await run_case(HOST, self.daemon.port, case["steps"], FRAME_TIMEOUT)
        self.stats["frame " + outcome] += 1
        if outcome == "hung":
            self.note(f"{case['kind']} left the connection open without answering", case, detail)

    async def run(self, case):
        self.recent.append(case)
        t0 = time.monotonic()
        self.timeline.append((t0, case["i"], case["kind"]))
        self.stats[case["kind"].split(":")[0]] += 1
        if "steps" in case:
            await self.run_frames(case)
        else:
            await self.run_messages(case)
        took = time.monotonic() - t0
        if len(self.slowest) < 5 or took > self.slowest[0][0]:
            heapq.heappush(self.slowest, (took, case["i"], case["kind"], case_text(case)))
            if len(self.slowest) > 5:
                heapq.heappop(self.slowest)
        if not self.daemon.alive():
            raise Failure(f"canopyd exited with {self.daemon.process.returncode}")

    # -- checks --
    async def check_alive(self):
        conn = http.client.HTTPConnection(HOST, self.daemon.port, timeout=REPLY_TIMEOUT)
        conn.request("GET", "/healthz")
        resp = conn.getresponse()
        if resp.status != 200:
            raise Failure(f"/healthz answered {resp.status}")
        conn.close()
        async with connect(self.daemon.url) as ws:
            await request(ws, {"type": "hello", "client": "fuzz-probe"}, lambda r: r.get("type") == "welcome")
            trees = await request(ws, {"type": "listTrees", "rid": 1}, lambda r: r.get("rid") == 1)
            await request(ws, {"type": "probe", "tree": FUZZ_TREES[0], "node": "root", "key": "Sum", "rid": 2},
                          lambda r: r.get("rid") == 2 and r.get("type") in ("value", "error"))
        return {t["tree"]: t["version"] for t in trees["trees"] if t["tree"] in FUZZ_TREES}

    async def check_replay(self, versions):
        await self.observer.wait_for(versions)
        for t in FUZZ_TREES:
            if t in self.observer.excluded:
                continue
            diffs = self.observer.diffs[t][self.replayed[t]:]
            for d in diffs:  # pipelined: the replay daemon answers an author's edits in order
                await self.replay_ws.send(json.dumps({"type": "edit", "tree": t, "seq": d["version"], "ops": d["ops"]}))
            for d in diffs:
                got = json.loads(await asyncio.wait_for(self.replay_ws.recv(), REPLY_TIMEOUT))
                for field in ("type", "version", "ops", "changes"):
                    if got.get(field) != d.get(field):
                        self.save_replay(t, d, got)
                        raise Failure(f"replay of {t} v{d['version']}: {field} differs: "
                                      f"{str(d.get(field))[:200]} vs {str(got.get(field))[:200]}")
            self.replayed[t] += len(diffs)
            a, b = await self.snapshot(self.daemon.url, t), await self.snapshot(self.replay.url, t)
            self.snapshot_bytes[t] = len(json.dumps(a))
            for field in ("version", "keys", "root", "readers"):
                if a.get(field) != b.get(field):
                    self.save_replay(t, a, b)
                    raise Failure(f"replayed snapshot of {t} differs in {field}")
            self.stats["replayed diffs"] += len(diffs)

    async def snapshot(self, url, tree):
        async with connect(url) as ws:
            return await request(ws, {"type": "subscribe", "tree": tree, "rid": "s"},
                                 lambda r: r.get("type") == "snapshot")

    def check_latency(self, label):
        window, control = self.canary.window(), self.control.window()
        if window is None:
            raise Failure("the canary stopped answering (its edit round trip did not complete)")
        if control is None:
            raise Failure("the control canary (on the idle replay daemon) stopped answering")
        p, c = p99([rtt for _, rtt in window]), p99([rtt for _, rtt in control or []]) or 0.0
        if p is None:
            raise Failure("the canary measured nothing in this window")
        self.latency.append((p, c))
        limit = max(LATENCY_FACTOR * self.baseline, LATENCY_FLOOR, CONTROL_FACTOR * c)
        slow = sum(1 for _, rtt in window if rtt > limit)
        if slow:
            self.slow_windows += 1
        if p > limit and slow >= LATENCY_MIN_SLOW:
            start, rtt = max(window, key=lambda w: w[1])
            busy = [f"{i} {kind}" for t, i, kind in self.timeline if start - 0.5 <= t <= start + rtt]
            print(f"slowest canary round trip {rtt * 1000:.0f} ms; cases started then: {', '.join(busy[-12:])}")
            raise Failure(f"canary p99 {p * 1000:.1f} ms at {label}, {slow} round trips over the limit (baseline "
                          f"{self.baseline * 1000:.1f} ms, control {c * 1000:.1f} ms, limit {limit * 1000:.0f} ms)")
        return p, c, len(window)

    async def checkpoint(self, done):
        versions = await self.check_alive()
        await self.check_replay(versions)
        p, c, n = self.check_latency(f"case {done}")
        if self.args.epoch and done % self.args.epoch == 0 and done < self.args.cases:
            await self.new_epoch()
        elapsed = time.monotonic() - self.started
        print(f"[{done}/{self.args.cases}] {elapsed:.1f}s alive; replayed {self.stats['replayed diffs']} diffs ok; "
              f"canary p99 {p * 1000:.1f} ms ({n} edits, control {c * 1000:.1f} ms); snapshots {sum(self.snapshot_bytes.values()) // 1024} KiB; closes {self.stats['closed']}; "
              f"findings {sum(self.findings.values())}", flush=True)

    async def new_epoch(self):
        """Deletes and recreates the fuzzed trees on both daemons (after a passed check), so that they do not grow
        over a long run: every subscribe encodes the whole tree, and the canary would end up measuring that."""
        self.observer.resetting = True
        for d in (self.daemon, self.replay):
            async with connect(d.url) as ws:
                for t in FUZZ_TREES:
                    await request(ws, {"type": "deleteTree", "tree": t, "rid": "d"}, lambda r: r.get("rid") == "d")
                    await request(ws, create_body(t), lambda r: r.get("type") in ("created", "error"))
        await self.observer.restart()
        self.grammar.new_epoch()
        self.replayed = {t: 0 for t in FUZZ_TREES}
        self.epochs += 1

    # -- failure records --
    def save_replay(self, tree, expected, got):
        if self.args.keep_failures:
            os.makedirs(self.args.keep_failures, exist_ok=True)
            with open(os.path.join(self.args.keep_failures, f"replay-{tree}.json"), "w") as f:
                json.dump({"create": create_body(tree), "diffs": self.observer.diffs[tree],
                           "expected": expected, "got": got}, f)

    def save_cases(self, why):
        d = self.args.keep_failures
        if not d:
            return
        os.makedirs(d, exist_ok=True)
        cases = [dump_case(c) for c in self.recent]
        with open(os.path.join(d, "cases.json"), "w") as f:
            json.dump({"seed": self.args.seed, "why": why, "cases": cases}, f, indent=1)
        print(f"saved the last {len(cases)} cases to {d}/cases.json "
              f"(rerun: scripts/fuzz.py --daemon ... --reproduce {d}/cases.json, or --seed {self.args.seed})")

    # -- main --
    async def setup(self):
        self.daemon = Daemon(self.args.daemon, "target")
        # A diff's ops sent back as an edit can be a little longer than the edit that made them (normalized ops),
        # so the replay daemon takes bigger messages; the limit has no effect on what an edit does.
        self.replay = Daemon(self.args.daemon, "replay", "--max-message-bytes", str(4 * MAX_MESSAGE))
        for d in (self.daemon, self.replay):
            async with connect(d.url) as ws:
                for t in FUZZ_TREES:
                    await request(ws, create_body(t), lambda r: r.get("type") in ("created", "error"))
        self.replay_ws = await connect(self.replay.url)
        await request(self.replay_ws, {"type": "hello", "client": "replay"}, lambda r: r.get("type") == "welcome")
        self.observer = Observer(self.daemon.url)
        await self.observer.start()
        self.canary = Canary(self.daemon.url)
        self.control = Canary(self.replay.url)
        time.sleep(self.args.baseline_seconds)
        base = self.canary.window()
        self.control.window()
        self.baseline = p99([rtt for _, rtt in base or []]) or 0.0
        print(f"canopyd on port {self.daemon.port}; canary baseline p99 {self.baseline * 1000:.1f} ms "
              f"({len(base or [])} edits); seed {self.args.seed}, {self.args.cases} cases", flush=True)

    async def main(self, cases):
        self.started = time.monotonic()
        self.stop_requested = False
        # Ctrl-C (SIGINT) ends a long run after the current case, with a last check and the summary.
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, lambda: setattr(self, "stop_requested", True))
        done = 0
        for case in cases:
            await self.run(case)
            done += 1
            if done % self.args.check_every == 0 or done == self.args.cases:
                await self.checkpoint(done)
            elif self.stop_requested:
                await self.checkpoint(done)
            if self.stop_requested:
                print(f"stopped by SIGINT after {done} cases")
                break

    def generate(self):
        for i in range(self.args.cases):
            yield self.next_case(i)

    def summary(self, failure):
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items()))
        ps = sorted(p for p, _ in self.latency)
        cs = sorted(c for _, c in self.latency)
        lat = (f"canary p99 per window: median {ps[len(ps) // 2] * 1000:.1f} ms, max {ps[-1] * 1000:.1f} ms "
               f"(baseline {self.baseline * 1000:.1f} ms; control on the idle replay daemon: median "
               f"{cs[len(cs) // 2] * 1000:.1f} ms, max {cs[-1] * 1000:.1f} ms); windows with 1-2 round trips over the "
               f"limit: {self.slow_windows}") if ps else "no canary window"
        print(f"summary: {kinds}; tree epochs {self.epochs + 1}")
        print("summary: replies " + ", ".join(f"{k} {v}" for k, v in self.replies.most_common()))
        observer = getattr(self, "observer", None)
        if observer:
            print(f"summary: {lat}; observer reconnects {observer.reconnects}; "
                  f"trees excluded from replay: {observer.excluded or 'none'}")
        for took, i, kind, text in sorted(self.slowest, reverse=True):
            print(f"slowest: case {i} {kind} {took * 1000:.0f} ms: {text}")
        for what, n in sorted(self.findings.items()):
            i, kind, detail = self.finding_examples[what]
            print(f"finding: {what}: {n}× (first: case {i}, {kind}: {detail})")
        print(f"fuzz: {'FAILED: ' + str(failure) if failure else 'passed'} "
              f"({time.monotonic() - self.started:.1f} s)")


def case_text(c):
    """The start of a case, for the summary."""
    if "steps" in c:
        return c["kind"]
    p = c["msgs"][0][0]
    p = p.decode("utf-8", "replace") if isinstance(p, bytes) else p
    return f"{len(c['msgs'])} message(s), first {len(p)} chars: {p[:100]!r}"


def dump_case(c):
    out = {"i": c["i"], "kind": c["kind"]}
    if "steps" in c:
        out["steps"] = [base64.b64encode(s[1]).decode() if s[0] == "send" else "probe" for s in c["steps"]]
    else:
        out["conn"] = c["conn"]
        out["msgs"] = [{"b64": base64.b64encode(p).decode(), "binary": b} if isinstance(p, bytes) else {"text": p}
                       for p, b in c["msgs"]]
    return out


def load_cases(path):
    for c in json.load(open(path))["cases"]:
        if "steps" in c:
            c["steps"] = [("probe",) if s == "probe" else ("send", base64.b64decode(s)) for s in c["steps"]]
        else:
            c["msgs"] = [(base64.b64decode(m["b64"]), m["binary"]) if "b64" in m else (m["text"], False)
                         for m in c["msgs"]]
        yield c


async def amain(args):
    fuzzer = Fuzzer(args)
    failure = None
    try:
        await fuzzer.setup()
        cases = list(load_cases(args.reproduce)) if args.reproduce else fuzzer.generate()
        if args.reproduce:
            args.cases = len(cases)
        await fuzzer.main(cases)
    except Failure as e:
        failure = e
    except (OSError, websockets.WebSocketException, asyncio.TimeoutError) as e:
        daemon = getattr(fuzzer, "daemon", None)
        if daemon and not daemon.alive():  # what the connection error was about
            failure = Failure(f"canopyd exited with {daemon.process.returncode} ({type(e).__name__}: {e})")
        else:
            failure = Failure(f"{type(e).__name__}: {e}")
    except BaseException as e:  # a bug of the fuzzer itself: still stop the daemons, then fail
        traceback.print_exc()
        failure = Failure(f"fuzzer error {type(e).__name__}: {e}")
    try:
        if failure:
            fuzzer.save_cases(str(failure))
        fuzzer.summary(failure)
    finally:
        for c in ("canary", "control"):
            if hasattr(fuzzer, c):
                getattr(fuzzer, c).stop()
        keep = args.keep_failures if failure and args.keep_failures else None
        for d in ("daemon", "replay"):
            if hasattr(fuzzer, d):
                code = getattr(fuzzer, d).stop(keep if d == "daemon" else None)
                if d == "daemon" and code not in (0, None) and not failure:
                    failure = Failure(f"canopyd exited with {code} at SIGTERM")
                    print(f"fuzz: FAILED: {failure}")
    return 1 if failure else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--daemon", required=True, help="path to canopyd")
    p.add_argument("--cases", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check-every", type=int, default=1000, help="cases between checks (default 1000)")
    p.add_argument("--epoch", type=int, default=2000,
                   help="cases after which the fuzzed trees are deleted and created afresh (0: never)")
    p.add_argument("--baseline-seconds", type=float, default=3.0, help="canary baseline before fuzzing")
    p.add_argument("--keep-failures", metavar="DIR", help="on failure, save the last cases and the daemon log here")
    p.add_argument("--reproduce", metavar="CASEFILE", help="send the cases saved in CASEFILE instead of generating")
    sys.exit(asyncio.run(amain(p.parse_args())))


if __name__ == "__main__":
    main()
