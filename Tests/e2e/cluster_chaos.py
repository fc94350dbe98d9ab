#!/usr/bin/env python3
"""Randomized fault ("chaos") test of canopyd's cluster mode (docs/cluster.md): 3 NATS servers and 3 canopyd (d1,
d2, d3) sharing trees, with writers on every daemon editing throughout while random faults hit the daemons and the
NATS servers; after each round everything is restored and the cluster's invariants are checked.

Usage: cluster_chaos.py PATH/TO/canopyd [--seed N] [--rounds N] [--seconds-per-round S] [--stop-on-failure]
                        [--keep-stores] [ARTIFACT_DIR]

Without --seed a random seed is drawn and printed; the replay command is printed at the start.

Deterministic given the seed: the whole fault schedule (which fault, which target, when, for how long, which tree
is created or deleted where) is drawn from random.Random(seed) before the cluster starts, printed, and replayed
exactly by the same seed (the timing of the system under test is not, of course). Faults, one per round:

  daemon kill     kill -9 of a random daemon, restarted 1-8 s later
  daemon stop     SIGSTOP of a random daemon for 0.5-3 x lease_seconds, then SIGCONT
  nats kill       kill -9 of a NATS server (a random one, or the leader of CANOPY_TREES or of KV_canopy-owners at
                  that moment), restarted 2-10 s later
  nats stop       SIGSTOP of a NATS server (sometimes a leader) for 0.5-4 s, then SIGCONT
  overlap         a daemon fault (kill or stop) and a NATS fault (kill or stop) at overlapping times

and, in about half the rounds, a tree of a small pool created (then edited) or deleted (sometimes deleted and at
once created again through another daemon) while the fault is on.

Each round: fresh writers (cluster_test.Writer: it resends the same seq on `unavailable`, on a lost connection,
and after a silence) edit the two main trees, one writer per daemon per tree one edit at a time, and one more
per tree (on a daemon the plan picks) with up to PIPELINE edits in flight; subscribers on every daemon record each
tree's history. The fault runs; everything is restored (killed processes restarted,
stopped ones continued); the writers go on until each had edits acknowledged after the restore; then:

  * every writer's edits were acknowledged (none waited past EDIT_SECONDS; none rejected otherwise than
    `unavailable`), and each was answered within ATTEMPT_SECONDS on an open session (cluster_test.check_answers);
    an edit answered `unavailable` and committed after all is allowed (docs/cluster.md: "not committed in time")
    but explained and counted by cause
  * the round's acknowledgements carry exactly the versions start+1 ... final, one each; each one-at-a-time
    writer's versions increase with its seq (in order per writer)
  * every subscriber saw a gap-free history with the same bytes per version everywhere, each acknowledgement is the
    diff delivered at its version, every acknowledged edit delivered exactly once and nothing unacknowledged
    (cluster_test.check_history); a subscriber whose daemon was killed is checked up to its end, and a new one
    subscribes after the restart
  * every daemon's `history` of the round's versions, and its catch-up (`subscribe` with `since` the round's
    start), give exactly the diffs the subscribers got (older than the in-memory log: read from the stream)
  * every daemon serves the same snapshot at the final version (agreeing_snapshots + check_snapshots_agree), which
    shows every acknowledged edit of every round and nothing else (check_final_props)
  * the stream itself: no gap, no second history, no edit committed twice (audit_stream), for every tree
  * the pool's trees: creations never refused as existing at their first answer, every daemon agrees whether each
    exists and at which version
  * no daemon or NATS server exited unless this script killed it (a crash: its log tail is printed)

An edit answered `unavailable` that turns out committed, and an edit left unanswered, are explained on the spot:
every answer its writer got for it (with times and the rejection's message, which names the path that produced
it) and the stream message that holds it (its sequence, time, and the instance that published it). At the end
the failed checks are summarised by kind, with their rounds.

ARTIFACT_DIR (default: a temporary folder, removed on success) keeps the daemon logs (d1.log ..., with a line
`===== chaos ... =====` appended at every fault and round so the daemons' lines can be placed), the NATS servers'
logs (nats/; their stores only with --keep-stores), chaos.log (this script's output with times) and plan.json
(the schedule).
Environment: CHAOS_LOG_LEVEL sets the daemons' log.level (default info).
"""
import argparse
import asyncio
import base64
import json
import os
import random
import re
import shutil
import signal
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import cluster_test as ct  # noqa: E402 (puts scripts/ on sys.path)
from cluster_test import (  # noqa: E402
    LEASE_SECONDS, LEASES, NAMES, STREAM, ATTEMPT_SECONDS, Env, Rejected, Subscriber, Writer, agreeing_snapshots,
    audit_stream, check_final_props, check_history, check_snapshots_agree, has_rid, versions_served)
from clusterlib import NatsCluster, tail  # noqa: E402
from loadlib import ConnectionLost, Session  # noqa: E402

class RecordingChecks(ct.Checks):
    """cluster_test's checks, quiet when they pass, and remembering each failure (for the summary by kind)."""

    def __init__(self):
        super().__init__(verbose=False)
        self.failures = []  # (round, name)
        self.round = 0

    def __call__(self, name, condition, detail=""):
        if not condition:
            self.failures.append((self.round, name))
        return super().__call__(name, condition, detail)


check = ct.check = RecordingChecks()  # cluster_test's helpers call ct.check

MAIN_TREES = ("chaos-a", "chaos-b")
POOL = ("churn-x", "churn-y")
KINDS = ("daemon kill", "daemon stop", "nats kill", "nats stop", "overlap")
# How long one edit may take in all, resends included: faults overlap (a daemon stopped for 6 s while the NATS
# servers elect), so well beyond a forwarded batch's own patience (2 x lease + 10 s) and a publish's (10 s).
EDIT_SECONDS = 150.0
PACE = 0.05  # seconds between a writer's edits
# How long a restarted daemon may take to serve: it reads the whole tree stream first (nothing is compacted,
# docs/cluster.md), which grows with every round.
START_SECONDS = 240.0
PIPELINE = 4  # the pipelined writer's window
T0 = time.monotonic()
LOG = None  # chaos.log


def say(text):
    stamp = time.strftime("%H:%M:%S") + f".{int(time.time() * 1000) % 1000:03d}"
    line = f"[{stamp} +{time.monotonic() - T0:7.1f}] {text}"
    print(line, flush=True)
    if LOG:
        LOG.write(line + "\n")
        LOG.flush()


ct.say = say  # cluster_test's own messages (notes) go through the same log


def now():
    return time.monotonic()


def letters(n, width=3):
    out = ""
    for _ in range(width):
        out = "abcdefghijklmnopqrstuvwxyz"[n % 26] + out
        n //= 26
    return out


# ---------------------------------------------------------------- the plan (all randomness is here)


def plan_run(seed, rounds, seconds):
    rng = random.Random(seed)
    plan = []
    for r in range(rounds):
        kind = rng.choice(KINDS)
        start = round(rng.uniform(1.0, max(1.5, 0.3 * seconds)), 2)

        def daemon_fault(how, at):
            target = rng.randrange(3)
            if how == "kill":
                return {"what": "daemon kill", "target": target, "at": at, "down": round(rng.uniform(1.0, 8.0), 2)}
            return {"what": "daemon stop", "target": target, "at": at,
                    "down": round(rng.uniform(0.5, 3.0) * LEASE_SECONDS, 2)}

        def nats_fault(how, at):
            pick = rng.choice(("random", "random", "stream leader", "lease leader"))
            index = rng.randint(1, 3)
            down = round(rng.uniform(2.0, 10.0) if how == "kill" else rng.uniform(0.5, 4.0), 2)
            return {"what": f"nats {how}", "pick": pick, "index": index, "at": at, "down": down}

        faults = []
        if kind == "daemon kill":
            faults.append(daemon_fault("kill", start))
        elif kind == "daemon stop":
            faults.append(daemon_fault("stop", start))
        elif kind == "nats kill":
            faults.append(nats_fault("kill", start))
        elif kind == "nats stop":
            faults.append(nats_fault("stop", start))
        else:
            how_d, how_n = rng.choice(("kill", "stop")), rng.choice(("kill", "stop"))
            daemon_first = rng.random() < 0.5
            first = daemon_fault(how_d, start) if daemon_first else nats_fault(how_n, start)
            second_at = round(start + rng.uniform(0.0, first["down"]), 2)
            second = nats_fault(how_n, second_at) if daemon_first else daemon_fault(how_d, second_at)
            faults += [first, second]
        churn = None
        if rng.random() < 0.5:
            churn = {"at": round(start + rng.uniform(0.0, 2.0), 2), "tree": rng.choice(POOL),
                     "daemon": rng.randrange(3), "other": rng.randrange(3), "recreate": rng.random() < 0.4,
                     "edits": rng.randint(3, 15), "writer_home": rng.randrange(3)}
        pipelined = [rng.randrange(3) for _ in MAIN_TREES]  # the daemon of each tree's pipelined writer
        plan.append({"round": r + 1, "kind": kind, "faults": faults, "churn": churn, "pipelined": pipelined})
    return plan


def describe_fault(f):
    if f["what"].startswith("daemon"):
        return f"{f['what']} {NAMES[f['target']]} at +{f['at']} s for {f['down']} s"
    target = f"n{f['index']}" if f["pick"] == "random" else f"the {f['pick']} (else n{f['index']})"
    return f"{f['what']} {target} at +{f['at']} s for {f['down']} s"


# ---------------------------------------------------------------- the environment


class Chaos:
    def __init__(self, cluster, daemons, folder):
        self.cluster, self.daemons, self.folder = cluster, daemons, folder
        self.env = Env(cluster, daemons)  # audit_stream wants .cluster
        self.expected_down = set()  # daemon names this script killed and has not restarted yet
        self.killed_nats = set()  # NATS server indexes this script killed and has not restarted
        self.stopped_nats = set()
        self.crashes = []  # (daemon name, pid, exit code, when, log tail)
        self.seen_exit = set()  # pids whose exit was recorded
        self.trees = {t: 0 for t in MAIN_TREES}  # tree -> its version as last checked
        self.pool = {}  # pool tree -> version (alive) ; absent: not alive
        self.writers = {t: [] for t in MAIN_TREES}  # every writer of every round, per tree (final props)
        self.pool_writers = {}  # pool tree -> writers of its current life
        self.touched = set(MAIN_TREES)  # every tree id used (audit)
        self.stats = {"rounds": 0, "faults": {}, "acked": 0, "unavailable": 0, "resends": 0, "reconnects": 0,
                      "duplicates": 0, "churn": {}, "failed rounds": [], "starts": [],
                      "unavailable but committed": {}}

    def mark(self, text):
        """A line in chaos.log and in every daemon log, to place the daemons' lines."""
        say(text)
        stamp = time.strftime("%H:%M:%S") + f".{int(time.time() * 1000) % 1000:03d}"
        for d in self.daemons:
            try:
                with open(d.log, "ab") as f:
                    f.write(f"===== chaos {stamp}: {text} =====\n".encode())
            except OSError:
                pass

    def count(self, group, key):
        self.stats[group][key] = self.stats[group].get(key, 0) + 1

    # -- crash watch

    def watch_exits(self):
        for d in self.daemons:
            p = d.process
            if p is None or p.pid in self.seen_exit:
                continue
            code = p.poll()
            if code is not None and d.name not in self.expected_down:
                self.seen_exit.add(p.pid)
                self.crashes.append((d.name, p.pid, code, time.strftime("%H:%M:%S"), round_lines(d.log, 0, 40)))
                say(f"!! {d.name} (pid {p.pid}) exited by itself with {code}")

    async def watcher(self, stop):
        while not stop.is_set():
            self.watch_exits()
            try:
                await asyncio.wait_for(stop.wait(), 0.25)
            except asyncio.TimeoutError:
                pass

    # -- faults

    def kill_daemon(self, d):
        self.expected_down.add(d.name)
        self.seen_exit.add(d.process.pid)
        d.kill9()

    async def start_daemon(self, d, timeout=START_SECONDS):
        d.start()
        self.expected_down.discard(d.name)
        started = now()
        await d.wait_ready(timeout)
        self.stats["starts"].append(round(now() - started, 1))

    async def nats_target(self, f):
        if f["pick"] == "random":
            return f["index"], "random"
        stream = STREAM if f["pick"] == "stream leader" else LEASES
        try:
            leader = await self.cluster.leader(stream)
        except Exception as error:
            say(f"  (leader {stream}: {error})")
            leader = None
        if leader is None:
            return f["index"], f"no leader of {stream} known: n{f['index']}"
        return leader, f"leader of {stream}"

    async def run_fault(self, f, t_round, r):
        await asyncio.sleep(max(0.0, t_round + f["at"] - now()))
        if f["what"] == "daemon kill":
            d = self.daemons[f["target"]]
            if not d.running():
                say(f"  {d.name} is not running: no kill")
                return
            pid = d.pid
            self.kill_daemon(d)
            self.mark(f"round {r}: kill -9 {d.name} (pid {pid}) for {f['down']} s")
            await asyncio.sleep(f["down"])
            await self.start_daemon(d)
            self.mark(f"round {r}: {d.name} restarted (pid {d.pid}) and ready")
        elif f["what"] == "daemon stop":
            d = self.daemons[f["target"]]
            if not d.alive():
                say(f"  {d.name} is not alive: no stop")
                return
            d.pause()
            self.mark(f"round {r}: SIGSTOP {d.name} (pid {d.pid}) for {f['down']} s")
            await asyncio.sleep(f["down"])
            if d.paused and d.running():
                d.resume()
            self.mark(f"round {r}: SIGCONT {d.name}")
        elif f["what"] == "nats kill":
            index, why = await self.nats_target(f)
            self.killed_nats.add(index)
            await self.cluster.command(f"kill {index}")
            self.mark(f"round {r}: kill -9 NATS n{index} ({why}) for {f['down']} s")
            await asyncio.sleep(f["down"])
            await self.restart_nats(index)
            self.mark(f"round {r}: NATS n{index} restarted and the cluster ready")
        elif f["what"] == "nats stop":
            index, why = await self.nats_target(f)
            self.stopped_nats.add(index)
            await self.cluster.command(f"stop {index}")
            self.mark(f"round {r}: SIGSTOP NATS n{index} ({why}) for {f['down']} s")
            await asyncio.sleep(f["down"])
            await self.cluster.command(f"cont {index}")
            self.stopped_nats.discard(index)
            self.mark(f"round {r}: SIGCONT NATS n{index}")

    async def restart_nats(self, index):
        # nats-cluster.py's restart waits until every server is ready: none may be stopped meanwhile.
        for other in sorted(self.stopped_nats):
            await self.cluster.command(f"cont {other}")
            self.stopped_nats.discard(other)
        await self.cluster.command(f"restart {index}", timeout=120)
        self.killed_nats.discard(index)

    async def restore(self):
        """Everything running and not stopped (the round's fault tasks are done or cancelled)."""
        for d in self.daemons:
            if d.paused and d.running():
                d.resume()
                say(f"  (restore: SIGCONT {d.name})")
        for index in sorted(self.stopped_nats):
            await self.cluster.command(f"cont {index}")
            self.stopped_nats.discard(index)
            say(f"  (restore: SIGCONT NATS n{index})")
        status = await self.cluster.status()
        for server in status["servers"]:
            if not server["running"]:
                if server["index"] not in self.killed_nats:
                    check(f"NATS server {server['name']} did not exit by itself", False,
                          tail(os.path.join(server["folder"], "server.log"), 30))
                say(f"  (restore: restart NATS {server['name']})")
                await self.restart_nats(server["index"])
        self.watch_exits()
        for d in self.daemons:
            if not d.running():
                say(f"  (restore: start {d.name})")
                await self.start_daemon(d)
        for d in self.daemons:
            await d.wait_ready(START_SECONDS)


# ---------------------------------------------------------------- clients


async def request(daemon, message, timeout=20):
    conn = await Session.open(daemon.url, f"admin@{daemon.name}")
    try:
        return await conn.request(message, has_rid(message["rid"]), timeout=timeout)
    finally:
        await conn.close()


async def resend_until(daemon_list, home, message, deadline, label):
    """Sends `message` (createTree or deleteTree) until an answer other than `unavailable`, through `home` and, when
    its connection fails, the next daemon alive. Returns the list of answers (type or code)."""
    answers = []
    attempt = 0
    while now() < deadline:
        attempt += 1
        order = [daemon_list[(home + i) % len(daemon_list)] for i in range(len(daemon_list))]
        d = next((x for x in order if x.alive()), None)
        if d is None:
            await asyncio.sleep(0.2)
            continue
        m = dict(message, rid=f"{label}-{attempt}")
        try:
            answer = await request(d, m, timeout=max(1.0, min(ATTEMPT_SECONDS, deadline - now())))
        except (OSError, ConnectionLost, TimeoutError, asyncio.TimeoutError) as error:
            answers.append(f"({type(error).__name__} on {d.name})")
            await asyncio.sleep(0.2)
            continue
        except Exception as error:  # websockets' own errors
            answers.append(f"({type(error).__name__} on {d.name})")
            await asyncio.sleep(0.2)
            continue
        code = answer.get("code", answer.get("type"))
        answers.append(f"{code}@{d.name}")
        if code != "unavailable":
            return answers
        await asyncio.sleep(0.2)
    return answers


def last_code(answers):
    return answers[-1].split("@")[0] if answers else None


async def write_loop(writer, prefix, stop, results, window=1):
    """Edits until `stop`: one at a time (`window` 1), or up to `window` sent before their acknowledgements (then
    a resend after `unavailable` may legitimately land after later seqs). A pause of PACE seconds between edits
    keeps the trees' size reasonable over many rounds. An edit's failure (a rejection, or no acknowledgement within
    EDIT_SECONDS) ends the loop and is kept in `results`."""
    gate = asyncio.Semaphore(window)
    running = set()

    async def one(seq):
        try:
            await writer.edit(seq, [{"op": "setProps", "node": "root", "props": {f"{prefix}{seq}": seq}}],
                              timeout=EDIT_SECONDS)
        except (Rejected, TimeoutError) as error:
            results.setdefault(writer.name, f"{type(error).__name__}: {error}")
        except Exception as error:
            results.setdefault(writer.name, f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
        finally:
            gate.release()

    seq = 1
    while not stop.is_set() and writer.name not in results:
        await gate.acquire()
        if stop.is_set() or writer.name in results:
            gate.release()
            break
        task = asyncio.create_task(one(seq))
        running.add(task)
        task.add_done_callback(running.discard)
        seq += 1
        await asyncio.sleep(PACE)
    if running:
        await asyncio.wait(set(running))


async def wait_for(predicate, timeout, what, interval=0.05):
    """True once `predicate` holds; False (and a failed check) at the deadline."""
    deadline = now() + timeout
    while not predicate():
        if now() >= deadline:
            check(f"within {timeout:.0f} s: {what}", False)
            return False
        await asyncio.sleep(interval)
    return True


async def agreed_version(daemons, tree, timeout=60):
    """The version every daemon serves of `tree` once they agree (None at the deadline)."""
    deadline = now() + timeout
    while True:
        versions = {}
        for d in daemons:
            try:
                conn = await Session.open(d.url, f"v@{d.name}")
                try:
                    a = await conn.request({"type": "subscribe", "tree": tree, "rid": "v"}, has_rid("v"), 10)
                finally:
                    await conn.close()
                versions[d.name] = a.get("version", a.get("code"))
            except Exception as error:
                versions[d.name] = repr(error)
        values = set(map(str, versions.values()))
        if len(values) == 1 and isinstance(next(iter(versions.values())), int):
            return next(iter(versions.values())), versions
        if now() >= deadline:
            return None, versions
        await asyncio.sleep(0.2)


async def listed_everywhere(daemons):
    out = {}
    for d in daemons:
        try:
            a = await request(d, {"type": "listTrees", "rid": "ls"}, timeout=10)
            out[d.name] = {t.get("tree"): t.get("version") for t in a.get("trees") or []}
        except Exception as error:
            out[d.name] = repr(error)
    return out


def wall(t):
    """A monotonic time as the wall clock (the daemons' logs)."""
    at = time.time() - (time.monotonic() - t)
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


def answers_of(w, seq):
    """Every answer `w` got for `seq`, in order: when, on which daemon, what."""
    out = []
    for (name, _), conn in zip(w.sessions, w.conns):
        for t, _, m in conn.messages:
            if m.get("seq") == seq and m.get("tree") == w.tree and m.get("type") in ("rejected", "diff"):
                what = (f"rejected {m.get('code')}: {m.get('message')}" if m["type"] == "rejected" else
                        f"diff version {m.get('version')} author {m.get('author')}"
                        + (" duplicate" if m.get("duplicate") else ""))
                out.append(f"{wall(t)} on {name}: {what}")
    return out


async def stream_details(chaos, tree, versions, timeout=60):
    """{version: (stream sequence, stored time, headers)} of `tree`'s batches at `versions`, read from the stream
    with a reply subject of this call's own."""
    status = await chaos.cluster.status()
    url = next(server["url"] for server in status["servers"] if server["running"])
    host, port = url.split("//")[1].rsplit(":", 1)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 5)
    inbox = f"_INBOX.chaos{os.getpid()}x{int(now() * 1000)}".encode()
    deadline = now() + timeout
    found, seq, wanted = {}, 0, set(versions)
    try:
        await reader.readline()
        writer.write(b'CONNECT {"verbose":false,"headers":true,"no_responders":true}\r\nSUB %s 1\r\n' % inbox)
        subject = f"canopy.tree.{tree.replace('.', '~')}"
        while wanted - set(found) and now() < deadline:
            request = json.dumps({"next_by_subj": subject, "seq": seq + 1}).encode()
            writer.write(b"PUB $JS.API.STREAM.MSG.GET.%s %s %d\r\n%s\r\n" % (STREAM.encode(), inbox, len(request),
                                                                              request))
            await writer.drain()
            while True:
                line = (await asyncio.wait_for(reader.readline(), max(0.1, deadline - now()))).decode().strip()
                if line == "PING":
                    writer.write(b"PONG\r\n")
                elif line.startswith(("MSG ", "HMSG ")):
                    break
            words = line.split()
            body = (await reader.readexactly(int(words[-1]) + 2))[:-2]
            if words[0] == "HMSG":
                body = body[int(words[-2]):]
                if not body:
                    await asyncio.sleep(0.2)
                    continue
            answer = json.loads(body)
            if "message" not in answer:
                break
            m = answer["message"]
            seq = m["seq"]
            headers = base64.b64decode(m.get("hdrs") or "").decode(errors="replace")
            version = next((int(h.split(":", 1)[1]) for h in headers.split("\r\n") if h.startswith("Canopy-Version:")),
                           None)
            if version in wanted:
                keep = [h for h in headers.split("\r\n") if h.startswith(("Canopy-Instance", "Nats-Msg-Id",
                                                                           "Canopy-Client", "Canopy-Seq"))]
                found[version] = (seq, m.get("time"), "; ".join(keep))
    finally:
        writer.close()
    return found


def why_unavailable(texts):
    """What produced an `unavailable` answer, from its message (the daemon names the path)."""
    text = " ".join(texts)
    if "10158" in text:
        return "owner's publish answered 10158 (duplicate message id in process), taken as final"
    if "did not answer" in text and ("Disconnected" in text or "Stale" in text or "Connection" in text):
        return "follower's forward failed at once on a lost NATS connection"
    if "did not answer" in text:
        return "follower stopped waiting for the owner"
    if "another daemon committed" in text or "no longer owns" in text:
        return "an owner fenced/rolled back while another committed it (two owners answered)"
    if "not acknowledged" in text:
        return "owner's publish given up"
    return "other: " + text[:120]


async def explain_answers(chaos, label, writers):
    """Edits answered `unavailable` alone and then found committed (cluster_test.check_answers prints them; the
    protocol allows it since `unavailable` means "not committed in time"), and edits left unanswered on an open
    session for ATTEMPT_SECONDS (a failed check): every answer the writer got, and who stored the edit in the
    stream, when. The first kind is counted by what produced the `unavailable`."""
    flagged = [(w, seq, a, "unavailable, then committed") for w in writers for seq, a in w.acks.items()
               if a.get("duplicate") and w.why.get(seq) and set(w.why[seq]) == {"unavailable"}]
    flagged += [(w, seq, w.acks.get(seq, {}), f"no answer within {ATTEMPT_SECONDS} s on {daemon}")
                for w in writers for seq, daemon in w.silences]
    if not flagged:
        return
    try:
        details = await stream_details(chaos, writers[0].tree, [a.get("version") for _, _, a, _ in flagged
                                                                if a.get("version") is not None])
    except Exception as error:
        details = {}
        say(f"  (the stream could not be read for details: {type(error).__name__}: {error})")
    for w, seq, a, what in flagged:
        answers = answers_of(w, seq)
        sent = wall(w.sent_at[seq]) if seq in w.sent_at else "?"
        if what.startswith("unavailable"):
            kind = why_unavailable([x for x in answers if "rejected unavailable" in x][:1])
            chaos.count("unavailable but committed", kind)
            what += f" [{kind}]"
        say(f"  {label}: {w.name} seq {seq} (first sent {sent}): {what}; committed as version {a.get('version')}, "
            f"stored {details.get(a.get('version'), '(not found)')}; its answers:\n    " + "\n    ".join(answers))


async def read_history(daemon, tree, first, last, timeout=60):
    """`history` from `first` to `last` on `daemon`, following `next`: ({version: diff}, the answer that was not a
    history, or None)."""
    deadline = now() + timeout
    conn = await Session.open(daemon.url, f"history@{daemon.name}")
    out = {}
    try:
        frm = first
        while frm <= last:
            rid = f"h{frm}"
            a = await conn.request({"type": "history", "tree": tree, "from": frm, "to": last, "rid": rid},
                                   has_rid(rid), timeout=max(1, deadline - now()))
            if a.get("type") != "history":
                return out, a
            diffs = a.get("diffs") or []
            for d in diffs:
                out[d.get("version")] = d
            if a.get("next") is None or not diffs:
                break
            frm = a["next"]
    finally:
        await conn.close()
    return out, None


async def catch_up(daemon, tree, since, timeout=60):
    """`subscribe` with `since`: ("diffs", {version: diff}, the version `subscribed` names) or ("snapshot", version)
    or ("other", answer)."""
    conn = await Session.open(daemon.url, f"since@{daemon.name}")
    try:
        start = len(conn.messages)
        await conn.send({"type": "subscribe", "tree": tree, "since": since, "rid": "since"})
        index, answer = await conn.wait(has_rid("since"), timeout, start)
        if answer.get("type") == "snapshot":
            return "snapshot", answer.get("version"), None
        if answer.get("type") != "subscribed":
            return "other", answer, None
        diffs = {m.get("version"): m for _, _, m in conn.messages[start:index]
                 if m.get("type") == "diff" and m.get("tree") == tree}
        return "diffs", diffs, answer.get("version")
    finally:
        await conn.close()


async def check_reads(label, daemons, tree, first, last, canonical):
    """Every daemon's `history` of versions first...last, and its catch-up from first - 1, are the diffs the
    subscribers got (the older part is read back from the tree stream through each daemon's version index)."""
    if last < first:
        return
    for d in daemons:
        try:
            got, odd = await read_history(d, tree, first, last)
        except Exception as error:
            got, odd = {}, f"{type(error).__name__}: {error}"
        missing = [v for v in range(first, last + 1) if v not in got]
        wrong = [v for v in range(first, last + 1) if v in got and v in canonical and got[v] != canonical[v]]
        check(f"{label}: history {first}...{last} on {d.name} has every version, as delivered",
              odd is None and not missing and not wrong,
              {"answer": odd, "missing": f"{len(missing)}: {missing[:3]}...{missing[-3:]}" if missing else [],
               "different": wrong[:5], "example": json.dumps([got.get(v) for v in wrong[:1]]
                                                             + [canonical.get(v) for v in wrong[:1]])[:600]})
        try:
            kind, value, at = await catch_up(d, tree, first - 1)
        except Exception as error:
            kind, value, at = "other", f"{type(error).__name__}: {error}", None
        if kind == "snapshot":  # allowed when the missed diffs are too many bytes (catchUpMaxBytes)
            check(f"{label}: subscribe since {first - 1} on {d.name}: the snapshot is at {last}", value == last, value)
        elif kind == "diffs":
            missing = [v for v in range(first, last + 1) if v not in value]
            wrong = [v for v in range(first, last + 1) if v in value and v in canonical and value[v] != canonical[v]]
            check(f"{label}: subscribe since {first - 1} on {d.name} sends every diff up to {last}, as delivered",
                  at == last and not missing and not wrong and len(value) == last - first + 1,
                  {"subscribed at": at, "missing": missing[:5], "different": wrong[:5], "count": len(value)})
        else:
            check(f"{label}: subscribe since {first - 1} on {d.name} is answered", False, value)


# ---------------------------------------------------------------- the pool (creations and deletions)


async def churn(chaos, c, r, t_round):
    """Creates the pool tree (then edits it) or deletes it (then, with `recreate`, creates it again at once through
    another daemon), while the round's fault is on."""
    await asyncio.sleep(max(0.0, t_round + c["at"] - now()))
    daemons = chaos.daemons
    tree = c["tree"]
    chaos.touched.add(tree)
    deadline = now() + 120
    result = {"tree": tree}

    async def create(home):
        answers = await resend_until(daemons, home, {"type": "createTree", "tree": tree}, deadline, f"create-{tree}")
        code = last_code(answers)
        ok = code == "created" or (code == "tree_exists" and any(a.startswith("unavailable") for a in answers))
        chaos.mark(f"round {r}: createTree {tree} via {NAMES[home]}: {' -> '.join(answers)}")
        check(f"round {r}: pool: createTree {tree} through {NAMES[home]} succeeds (never refused as existing at "
              f"its first answer; unavailable then tree_exists is its own earlier attempt)", ok, answers)
        if ok:
            chaos.pool[tree] = 0
            chaos.pool_writers[tree] = []
        return ok

    async def delete(home):
        answers = await resend_until(daemons, home, {"type": "deleteTree", "tree": tree}, deadline, f"delete-{tree}")
        code = last_code(answers)
        ok = code == "deleted" or (code == "no_such_tree" and any(a.startswith("unavailable") for a in answers))
        chaos.mark(f"round {r}: deleteTree {tree} via {NAMES[home]}: {' -> '.join(answers)}")
        check(f"round {r}: pool: deleteTree {tree} through {NAMES[home]} succeeds", ok, answers)
        if ok:
            chaos.pool.pop(tree, None)
            chaos.pool_writers.pop(tree, None)
        return ok

    if tree in chaos.pool:
        chaos.count("churn", "delete")
        result["deleted"] = await delete(c["daemon"])
        if result["deleted"] and c["recreate"]:
            chaos.count("churn", "delete+recreate")
            home = c["other"] if c["other"] != c["daemon"] else (c["daemon"] + 1) % 3
            result["created"] = await create(home)
    else:
        chaos.count("churn", "create")
        result["created"] = await create(c["daemon"])
    if result.get("created"):
        # A daemon that has not read the creation yet answers no_such_tree: the edit is sent again.
        w = Writer(f"pool-{tree}-r{r}", tree, daemons, home=c["writer_home"], prop_prefix=f"p{letters(r)}z")
        w.round = r
        chaos.pool_writers.setdefault(tree, []).append(w)
        try:
            for seq in range(1, c["edits"] + 1):
                for _ in range(100):  # no_such_tree while the daemon has not read the creation yet
                    try:
                        await w.edit(seq, [{"op": "setProps", "node": "root", "props": {f"{w.prop_prefix}{seq}": seq}}],
                                     timeout=EDIT_SECONDS)
                        break
                    except Rejected as error:
                        if "no_such_tree" not in str(error) or now() > deadline:
                            raise
                        w.rejections.pop()
                        await asyncio.sleep(0.1)
            result["edits"] = len(w.acks)
        except (Rejected, TimeoutError) as error:
            check(f"round {r}: pool: edits of the new {tree} acknowledged", False, f"{type(error).__name__}: {error}")
        finally:
            await w.close()
        if w.acks:
            chaos.pool[tree] = max(a["version"] for a in w.acks.values())
        chaos.mark(f"round {r}: {len(w.acks)} edits of {tree} acknowledged (version {chaos.pool.get(tree)})")
    return result


def round_lines(path, r, count):
    """The daemon's own log lines (not this script's markers) since round `r` began (0: all), the last `count`."""
    try:
        with open(path, "rb") as f:
            lines = f.read().decode(errors="replace").splitlines()
    except OSError as error:
        return f"  ({error})"
    begin = max((i for i, line in enumerate(lines) if r and f": round {r} begins" in line), default=0)
    own = [line for line in lines[begin:] if not line.startswith("===== chaos")]
    return "\n".join("  | " + line for line in own[-count:]) or "  (none)"


# ---------------------------------------------------------------- a round


async def subscribe_with_retry(daemon, tree, timeout=60):
    deadline = now() + timeout
    while True:
        try:
            return await Subscriber(daemon, tree).start(timeout=max(1, deadline - now()))
        except Exception as error:
            if now() >= deadline:
                raise RuntimeError(f"subscribe to {tree} on {daemon.name}: {type(error).__name__}: {error}")
            await asyncio.sleep(0.2)


async def run_round(chaos, p, seconds):
    r = p["round"]
    check.round = r
    daemons = chaos.daemons
    failed_before = check.failed
    t_start = now()
    chaos.mark(f"round {r} begins: {p['kind']}: " + "; ".join(describe_fault(f) for f in p["faults"])
               + (f"; pool: {p['churn']['tree']} via {NAMES[p['churn']['daemon']]} at +{p['churn']['at']} s"
                  if p["churn"] else ""))
    for f in p["faults"]:
        chaos.count("faults", f["what"] + (f" ({f['pick']})" if "pick" in f else ""))
    chaos.count("faults", "round: " + p["kind"])

    # Where each tree starts this round: every daemon agrees (the previous round checked it).
    start = {}
    for tree in MAIN_TREES:
        version, seen = await agreed_version(daemons, tree)
        if not check(f"round {r}: the daemons agree on {tree}'s version at the start", version is not None, seen):
            return False
        start[tree] = version

    subs = {t: [await subscribe_with_retry(d, t) for d in daemons] for t in MAIN_TREES}
    for t in MAIN_TREES:
        for s in subs[t]:
            check(f"round {r}: the subscriber of {t} on {s.daemon.name} starts at {start[t]}", s.version() == start[t],
                  s.version())
    writers, tasks, results = {}, [], {}
    pipelined = set()  # names of the writers with a window (no order per seq to check)
    stop = asyncio.Event()
    for ti, t in enumerate(MAIN_TREES):
        writers[t] = []
        for i, d in enumerate(daemons):
            prefix = f"r{letters(r)}{'abc'[i]}"
            w = Writer(f"chaos-{t}-r{r}-{d.name}", t, daemons, home=i, prop_prefix=prefix)
            writers[t].append(w)
            chaos.writers[t].append(w)
            tasks.append(asyncio.create_task(write_loop(w, prefix, stop, results)))
        home = p["pipelined"][ti]
        prefix = f"r{letters(r)}p"
        w = Writer(f"chaos-{t}-r{r}-pipe-{NAMES[home]}", t, daemons, home=home, prop_prefix=prefix)
        writers[t].append(w)
        chaos.writers[t].append(w)
        pipelined.add(w.name)
        tasks.append(asyncio.create_task(write_loop(w, prefix, stop, results, window=PIPELINE)))
    all_writers = [w for t in MAIN_TREES for w in writers[t]]
    watch_stop = asyncio.Event()
    watch = asyncio.create_task(chaos.watcher(watch_stop))
    fault_tasks, churn_task = [], None
    try:
        await wait_for(lambda: all(len(w.acks) >= 2 for w in all_writers) or results, 60,
                       f"round {r}: every writer has 2 edits acknowledged before the fault")
        t_round = now()
        fault_tasks = [asyncio.create_task(chaos.run_fault(f, t_round, r)) for f in p["faults"]]
        if p["churn"]:
            churn_task = asyncio.create_task(churn(chaos, p["churn"], r, t_round))
        done, pending = await asyncio.wait(fault_tasks, timeout=START_SECONDS + 60)
        for t in pending:
            t.cancel()
        check(f"round {r}: the faults were applied and undone within {START_SECONDS + 60:.0f} s", not pending)
        for t in done:
            if t.exception():
                check(f"round {r}: the fault ran", False, f"{type(t.exception()).__name__}: {t.exception()}")
        await asyncio.wait_for(chaos.restore(), START_SECONDS + 120)
        t_restored = now()
        chaos.mark(f"round {r}: everything restored ({t_restored - t_round:.1f} s after the fault began)")
        # Subscribers whose daemon was killed: a new one on the restarted daemon.
        for t in MAIN_TREES:
            for s in list(subs[t]):
                if s.conn.closed:
                    s.ended = True
                    subs[t].append(await subscribe_with_retry(s.daemon, t))
        # Liveness after the restore: every writer gets edits acknowledged again; and the round lasts `seconds`.
        await wait_for(lambda: results or (now() - t_round >= seconds and
                                           all(len(w.acked_after(t_restored)) >= 3 for w in all_writers)),
                       max(90, seconds), f"round {r}: every writer has 3 edits sent after the restore acknowledged")
        if churn_task is not None:
            try:
                await asyncio.wait_for(churn_task, 200)
            except Exception as error:
                check(f"round {r}: the pool's creation/deletion finished", False, f"{type(error).__name__}: {error}")
    except Exception as error:
        check(f"round {r}: ran to the end", False, f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
    finally:
        stop.set()
        for t in fault_tasks:
            if not t.done():
                t.cancel()
        if churn_task is not None and not churn_task.done():
            churn_task.cancel()
    # Every writer ends its edit under way (acknowledged, or a failure within EDIT_SECONDS).
    done, pending = await asyncio.wait(tasks, timeout=EDIT_SECONDS + 30)
    for t in pending:
        t.cancel()
    check(f"round {r}: every writer's last edit ended", not pending, [w.name for w in all_writers
                                                                      if w.name not in results][:6])
    for name, why in sorted(results.items()):
        check(f"round {r}: writer {name} had every edit acknowledged (no rejection, none beyond {EDIT_SECONDS:.0f} s)",
              False, why)
    try:
        await asyncio.wait_for(chaos.restore(), START_SECONDS + 120)
    except Exception as error:
        check(f"round {r}: the cluster is restored", False, f"{type(error).__name__}: {error}")
    watch_stop.set()
    await watch
    chaos.watch_exits()

    # ---- checks
    for t in MAIN_TREES:
        ws = writers[t]
        acked = sorted(a["version"] for w in ws for a in w.acks.values())
        final = max(acked, default=start[t])
        label = f"round {r}: {t}"
        check(f"{label}: the acknowledgements carry versions {start[t] + 1}...{final}, one each ({len(acked)} edits)",
              acked == list(range(start[t] + 1, final + 1)),
              {"missing": sorted(set(range(start[t] + 1, final + 1)) - set(acked))[:10],
               "twice": sorted({v for v in acked if acked.count(v) > 1})[:10]})
        for w in ws:
            if w.name in pipelined:
                continue
            order = [w.acks[s]["version"] for s in sorted(w.acks)]
            check(f"{label}: {w.name}'s edits are committed in its order", order == sorted(order) and
                  len(set(order)) == len(order), order[:30])
        live = [s for s in subs[t] if not getattr(s, "ended", False) and not s.conn.closed]
        ended = [s for s in subs[t] if getattr(s, "ended", False) or s.conn.closed]
        ok = await wait_for(lambda: all(s.version() >= final for s in live), 60,
                            f"{label}: every subscriber reaches {final} "
                            f"({[(s.daemon.name, s.version()) for s in live]})")
        canonical = check_history(label, live, final, ws)
        try:
            await explain_answers(chaos, label, ws)
        except Exception as error:  # only an explanation: never a failure of its own
            say(f"  (explaining failed: {type(error).__name__}: {error})")
        for s in ended:
            diffs, problems, _ = s.analyse()
            check(f"{label}: the subscriber on {s.daemon.name} (its daemon killed) saw no gap before it ended",
                  not problems, problems[:5])
            differ = [v for v, raw in diffs.items() if v in canonical and json.loads(raw) != canonical[v]]
            check(f"{label}: the ended subscriber on {s.daemon.name} got the same diffs", not differ, differ[:5])
        await check_reads(label, daemons, t, start[t] + 1, final, canonical)
        snaps = await agreeing_snapshots(daemons, t, final, timeout=60)
        if check_snapshots_agree(label, snaps, final):
            check_final_props(label, snaps[daemons[0].name], chaos.writers[t])
        chaos.trees[t] = final
        for w in ws:
            chaos.stats["acked"] += len(w.acks)
            chaos.stats["unavailable"] += w.unavailable
            chaos.stats["resends"] += w.resends
            chaos.stats["reconnects"] += w.reconnects
            chaos.stats["duplicates"] += w.duplicates
        say(f"  {t}: versions {start[t]} -> {final}, {len(acked)} edits from {len(ws)} writers; "
            f"{sum(w.unavailable for w in ws)} unavailable, {sum(w.resends for w in ws)} resends, "
            f"{sum(w.reconnects for w in ws)} reconnections, {sum(w.duplicates for w in ws)} duplicate answers"
            + (f"; subscriber ended on {[s.daemon.name for s in ended]}" if ended else ""))

    # The pool: every daemon agrees on which trees exist, at which version.
    for tree in POOL:
        if tree not in chaos.touched:
            continue
        if tree in chaos.pool:
            version = chaos.pool[tree]
            snaps = await agreeing_snapshots(daemons, tree, version, timeout=60)
            if check_snapshots_agree(f"round {r}: pool {tree}", snaps, version) and chaos.pool_writers.get(tree):
                check_final_props(f"round {r}: pool {tree}", snaps[daemons[0].name], chaos.pool_writers[tree])
            this_round = [w for w in chaos.pool_writers.get(tree, []) if w.round == r]
            if this_round:
                ct.check_answers(f"round {r}: pool {tree}", this_round)
                try:
                    await explain_answers(chaos, f"round {r}: pool {tree}", this_round)
                except Exception as error:
                    say(f"  (explaining failed: {type(error).__name__}: {error})")
        else:
            deadline = now() + 60
            while True:
                listed = await listed_everywhere(daemons)
                gone = all(isinstance(v, dict) and tree not in v for v in listed.values())
                if gone or now() >= deadline:
                    break
                await asyncio.sleep(0.2)
            check(f"round {r}: pool {tree} (deleted) is listed by no daemon",
                  gone, {n: (v.get(tree) if isinstance(v, dict) else v) for n, v in listed.items()})
    for tree in sorted(chaos.touched):
        await audit_stream(chaos.env, tree)
    for name, pid, code, when, log_tail in chaos.crashes:
        check(f"round {r}: {name} (pid {pid}) did not exit unless killed here", False,
              f"exited with {code} at {when}; its log's last lines:\n{log_tail}")
    chaos.crashes.clear()
    for t in MAIN_TREES:
        for s in subs[t]:
            await s.close()
        for w in writers[t]:
            await w.close()
    ok = check.failed == failed_before
    chaos.stats["rounds"] += 1
    if not ok:
        chaos.stats["failed rounds"].append(r)
        for tree in sorted(chaos.touched):
            say(f"  {tree} as each daemon serves it now: {await versions_served(daemons, tree)}")
        for d in daemons:
            say(f"  {d.name}'s own lines in round {r} (the last 25; all in {d.log}):\n{round_lines(d.log, r, 25)}")
    chaos.mark(f"round {r} {'PASS' if ok else 'FAIL'} ({now() - t_start:.1f} s)")
    return ok


# ---------------------------------------------------------------- main


async def run(args, folder, keep):
    plan = plan_run(args.seed, args.rounds, args.seconds_per_round)
    with open(os.path.join(folder, "plan.json"), "w") as f:
        json.dump({"seed": args.seed, "rounds": args.rounds, "seconds_per_round": args.seconds_per_round,
                   "plan": plan}, f, indent=1)
    for p in plan:
        say(f"plan round {p['round']}: {p['kind']}: " + "; ".join(describe_fault(f) for f in p["faults"])
            + (f"; pool {p['churn']}" if p["churn"] else ""))
    log_level = os.environ.get("CHAOS_LOG_LEVEL")
    cluster = NatsCluster(folder, keep)
    daemons = []
    chaos = None
    try:
        info = await cluster.start()
        say(f"NATS cluster ready: {', '.join(info['urls'])} (pids "
            f"{', '.join(str(s['pid']) for s in info['servers'])})")
        daemons = [ct.daemon(i, args.binary, folder, info["urls"], log_level) for i in range(3)]
        chaos = Chaos(cluster, daemons, folder)
        for d in daemons:
            d.start()
        for d in daemons:
            await d.wait_ready()
        say(f"d1, d2, d3 ready (pids {', '.join(str(d.pid) for d in daemons)}); logs in {folder}")
        for i, tree in enumerate(MAIN_TREES):  # owned by d1 and d2 at first
            answer = await request(daemons[i], {"type": "createTree", "tree": tree, "rid": "create"})
            if not check(f"createTree {tree} on {daemons[i].name}", answer.get("type") == "created", answer):
                return chaos
        for tree in MAIN_TREES:
            snaps = await agreeing_snapshots(daemons, tree, 0)
            check_snapshots_agree(f"{tree} at the start", snaps, 0)
        for p in plan:
            try:
                ok = await run_round(chaos, p, args.seconds_per_round)
            except Exception as error:
                check(f"round {p['round']}: ran", False, f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
                ok = False
            if not ok and args.stop_on_failure:
                break
        say("-- the end: stream audit and agreement of every tree")
        for tree in sorted(chaos.touched):
            await audit_stream(chaos.env, tree)
        for tree in MAIN_TREES:
            snaps = await agreeing_snapshots(daemons, tree, chaos.trees[tree], timeout=60)
            check_snapshots_agree(f"the end: {tree}", snaps, chaos.trees[tree])
    finally:
        if chaos is not None:
            chaos.watch_exits()
            for name, pid, code, when, log_tail in chaos.crashes:
                check(f"{name} (pid {pid}) did not exit unless killed here", False,
                      f"exited with {code} at {when}; its log's last lines:\n{log_tail}")
            chaos.expected_down.update(NAMES)
        for d in daemons:
            d.kill9()
        await cluster.stop()
    return chaos


def main():
    global LOG
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("artifacts", nargs="?")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seconds-per-round", type=float, default=25.0)
    parser.add_argument("--stop-on-failure", action="store_true", help="stop after the first failed round")
    parser.add_argument("--keep-stores", action="store_true",
                        help="keep the NATS servers' stores in ARTIFACT_DIR (1-2 GB per 10 rounds, mostly snapshots)")
    args = parser.parse_intermixed_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1 << 31)
    args.binary = os.path.abspath(args.binary)
    keep = args.artifacts is not None
    folder = ct.artifact_folder(args.artifacts, "canopy-chaos-")
    LOG = open(os.path.join(folder, "chaos.log"), "w")
    say(f"cluster chaos: seed {args.seed}, {args.rounds} rounds of {args.seconds_per_round:.0f} s, binary "
        f"{args.binary}, artifacts in {folder}")
    say(f"replay: {sys.executable} {os.path.relpath(__file__)} {args.binary} --seed {args.seed} "
        f"--rounds {args.rounds} --seconds-per-round {args.seconds_per_round:g}" + (f" {folder}" if keep else ""))

    def on_signal(number, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    started = now()
    chaos = None
    try:
        chaos = asyncio.run(run(args, folder, keep))
    except KeyboardInterrupt:
        check("the test was not interrupted", False)
    elapsed = now() - started
    if chaos is not None:
        s = chaos.stats
        say(f"summary: seed {args.seed}: {s['rounds']} rounds in {elapsed:.0f} s, failed rounds {s['failed rounds']}; "
            f"faults {json.dumps(s['faults'], sort_keys=True)}; pool {json.dumps(s['churn'], sort_keys=True)}; "
            f"{s['acked']} edits acknowledged, {s['unavailable']} unavailable answers, {s['resends']} resends, "
            f"{s['reconnects']} reconnections, {s['duplicates']} duplicate answers; daemon restarts took "
            f"{s['starts']} s; edits answered unavailable but committed, by cause: "
            f"{json.dumps(s['unavailable but committed'], sort_keys=True)}")
    if check.failures:
        kinds = {}
        for r, name in check.failures:
            kind = re.sub(r"^round \d+: ", "", name)
            kind = re.sub(r"\b(chaos-[ab]|churn-[xy])\b", "TREE", kind)
            kind = re.sub(r"\b(d[123]|n[123])\b", "X", kind)
            kind = re.sub(r"\d+", "N", kind)
            kinds.setdefault(kind, []).append(r)
        say("failed checks by kind (rounds):")
        for kind, rounds in sorted(kinds.items()):
            say(f"  {len(rounds)} x {kind} (rounds {sorted(set(rounds))})")
    if keep and not args.keep_stores:
        for server in sorted(os.listdir(os.path.join(folder, "nats"))) if os.path.isdir(os.path.join(folder, "nats")) \
                else []:
            shutil.rmtree(os.path.join(folder, "nats", server, "store"), ignore_errors=True)
    if not keep and check.failed == 0:
        shutil.rmtree(folder, ignore_errors=True)
    elif not keep:
        say(f"logs kept in {folder}")
    check.finish(f"cluster chaos (seed {args.seed})", f" in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
