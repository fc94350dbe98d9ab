#!/usr/bin/env python3
"""End-to-end test of canopyd's cluster mode (docs/cluster.md): a 3-server NATS JetStream cluster
(scripts/nats-cluster.py) and three canopyd processes (d1, d2, d3) sharing trees through it, driven by Python
WebSocket clients speaking PROTOCOL.md v1 plus cluster mode's additions: the retryable rejection `unavailable`
(resend the same message with the same seq), authors named `<daemon>/s<N>`, and every tree served by every daemon.

Usage: cluster_test.py PATH/TO/canopyd [ARTIFACT_DIR]

Scenarios, in order, on the same cluster (each restores a full cluster after itself):
  converge              three writers on three daemons, 50 pipelined edits each; every subscriber sees versions
                        1...150 with the same bytes; the snapshots agree with each other and with the ops replayed
                        here; a resubmission, through the same or another daemon, is answered `duplicate`
  owner kill -9         kill -9 of a tree's owner while a client on another daemon writes: the pause, nothing
                        acknowledged lost or doubled, no gap; the killed daemon restarts and catches up
  stream leader kill -9 kill -9 of the NATS server leading CANOPY_TREES while writing: the pause, nothing lost;
                        the server restarts
  lease leader kill -9  kill -9 of the NATS server leading the lease bucket, then a tree created on each daemon at
                        once: each is created once the bucket has a leader again (or answered `unavailable` and
                        created when sent again), never refused as existing
  recreate              a tree deleted through a follower and created again through a third daemon as soon as it
                        has read the deletion (five times): created, never refused as existing
  stale owner           SIGSTOP of the owner until another daemon took over (an edit through it acknowledged), and
                        for at least 3 x lease_seconds; edits sent to the stale daemon are never committed
                        divergently and succeed once it follows again
  restart from nothing  SIGTERM d3, delete its data, 30 edits via d1, start d3: it serves every tree at the same
                        version with the same snapshot
  stream audit          after each scenario and at the end, each tree's subject in CANOPY_TREES read directly
                        (JetStream's direct get over a plain NATS connection): batch versions 1, 2, 3 ... with no
                        gap or second history, and no edit committed twice

Clients resend the same seq on `unavailable` and on a lost connection (to the next daemon). Wherever edits are
written the test also checks that every edit was answered on its open session within ATTEMPT_SECONDS (longer than
a daemon may take to answer at all; a silence that long is a lost answer, resent and reported). An edit answered
`unavailable` may still have been committed (an owner's publish stored after it was given up, a forwarded batch
committed after its follower stopped waiting): its resend must then be answered `duplicate`, and the checks of
exactly-once delivery cover it; such edits are counted and printed.

ARTIFACT_DIR (optional) keeps the daemon logs (d1.log ...), their configs, the NATS servers' stores and logs
(nats/), and the cluster script's stderr; without it they go to a temporary folder that is removed on success.
On a failure the tail of each daemon log is printed. Environment: CLUSTER_TEST_LOG_LEVEL=debug sets the daemons'
`log.level`; CLUSTER_TEST_SCENARIOS="stale owner,converge" runs only those scenarios (by name, in their
usual order); CLUSTER_TEST_SELFCHECK=1 runs only the converge scenario against one plain (single-node) daemon
standing in for d1, d2 and d3, which checks this script's own clients and checks without NATS.

Every wait is for a state, with a deadline; the stale-owner scenario's SIGSTOP also lasts at least 3 x lease_seconds
(so that the owner's lease has long expired when it runs again: that is the scenario). Everything started here is
killed at the end, also on an exception (and the daemons get PR_SET_PDEATHSIG, the cluster script --exit-on-eof,
should this script itself be killed).
"""
import asyncio
import base64
import copy
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time

import websockets

from e2e import ROOT, Checks

sys.path.append(os.path.join(ROOT, "scripts"))
from clusterlib import Daemon, NatsCluster, tail  # noqa: E402
from loadlib import ConnectionLost, Session  # noqa: E402 (its SIGTERM handler is replaced in main)

LEASE_SECONDS = 2
# How long a client waits for the answer to an edit on an open session before it sends it again: longer than a
# daemon may take to answer at all (a forwarded batch: up to 2 x lease + 10 s, then `unavailable`; docs/cluster.md),
# so a silence this long is a lost answer, and is reported as one.
ATTEMPT_SECONDS = 2 * LEASE_SECONDS + 10 + 6
# How long the stale-owner scenario keeps the owner stopped at most, waiting for another daemon to take over: far
# above what that takes (docs/cluster.md): the lease expires at most lease_seconds after the stop, another daemon takes
# it a moment later, and a forwarded edit that was waiting for the stopped owner is sent again within 2 s: about 4.5 s.
TAKEOVER_SECONDS = 30
STREAM = "CANOPY_TREES"
LEASES = "KV_canopy-owners"  # the lease bucket's stream
NAMES = ("d1", "d2", "d3")
SELFCHECK = os.environ.get("CLUSTER_TEST_SELFCHECK") == "1"
check = Checks(verbose=True)


def say(text):
    print(text, flush=True)


def now():
    return time.monotonic()


# ---------------------------------------------------------------- processes


def daemon(index, binary, folder, nats_urls, log_level=None):
    """d1, d2 or d3 (index 0, 1, 2): snapshots every 20 batches (stored in the cluster, in chunks for the large tree)
    and messages large enough for that tree's createTree."""
    settings = {"storage": {"snapshot_every_batches": 20}, "limits": {"max_message_bytes": 8388608}}
    if log_level:
        settings["log"] = {"level": log_level}
    return Daemon(NAMES[index], binary, folder, nats_urls, lease_seconds=LEASE_SECONDS, settings=settings)


def alias(daemon, name):
    """The same process under another name (CLUSTER_TEST_SELFCHECK)."""
    other = copy.copy(daemon)
    other.name = name
    return other


# ---------------------------------------------------------------- WebSocket sessions


def has_rid(rid):
    return lambda m: m.get("rid") == rid


class Rejected(Exception):
    pass


class Writer:
    """A client that edits one tree: hello with its own name, edits answered by their diff (its acknowledgement)
    or a rejection; `unavailable` and a lost connection mean: resend the same seq (after a reconnection, to the
    next daemon that is alive, starting from `home`)."""

    def __init__(self, name, tree, daemons, home, prop_prefix, attempt_timeout=ATTEMPT_SECONDS, stick=False):
        self.name, self.tree, self.daemons, self.home = name, tree, daemons, home
        self.prop_prefix = prop_prefix  # the writer's edits set props named <prefix><seq>: how a diff is traced back
        self.attempt_timeout = attempt_timeout
        self.stick = stick  # never move to another daemon (the stale-owner scenario's client of the stale daemon)
        self.conn = None
        self.daemon = None
        self.session = None
        self.sessions = []  # (daemon name, session) of every connection, in order
        self.conns = []
        self.acks = {}  # seq -> the diff that acknowledged it
        self.ops = {}  # seq -> the ops sent
        self.sent_at = {}  # seq -> time of the first send
        self.acked_at = {}  # seq -> time of the acknowledgement
        self.unavailable = 0
        self.resends = 0
        self.why = {}  # seq -> why it was sent again, in order: "unavailable", "silence", "connection"
        self.silences = []  # (seq, daemon): no answer within attempt_timeout on a session that stayed open
        self.reconnects = 0
        self.duplicates = 0
        self.rejections = []
        self._connect_lock = asyncio.Lock()

    async def connect(self, deadline):
        async with self._connect_lock:
            if self.conn is not None and not self.conn.closed:
                return
            if self.conn is not None:
                self.reconnects += 1
            order = [self.daemons[(self.home + i) % len(self.daemons)] for i in range(len(self.daemons))]
            if self.stick:
                order = order[:1]
            while now() < deadline:
                for daemon in order:
                    if not daemon.alive():
                        continue
                    try:
                        conn = await Session.open(daemon.url, f"{self.name}@{daemon.name}")
                        welcome = await conn.request({"type": "hello", "client": self.name, "rid": "hello"},
                                                     has_rid("hello"), timeout=5)
                    except (OSError, ConnectionLost, TimeoutError, asyncio.TimeoutError,
                            websockets.exceptions.WebSocketException):
                        continue
                    if welcome.get("type") != "welcome":
                        await conn.close()
                        raise Rejected(f"{self.name}: hello on {daemon.name} answered {welcome}")
                    self.conn, self.daemon, self.session = conn, daemon, welcome.get("session")
                    self.sessions.append((daemon.name, self.session))
                    self.conns.append(conn)
                    return
                await asyncio.sleep(0.1)  # no daemon took the connection: try the list again
            raise TimeoutError(f"{self.name}: could not connect to any daemon")

    async def edit(self, seq, ops, timeout=ATTEMPT_SECONDS + 25.0):
        """Sends the edit until it is acknowledged; returns its diff. A rejection other than `unavailable` raises
        Rejected; no acknowledgement within `timeout` raises TimeoutError."""
        deadline = now() + timeout
        self.sent_at.setdefault(seq, now())
        self.ops[seq] = ops
        attempt = 0
        while True:
            if now() >= deadline:
                raise TimeoutError(f"{self.name}: seq {seq} not acknowledged within {timeout:.0f} s "
                                   f"({attempt} attempts, {self.unavailable} unavailable so far, on "
                                   f"{self.daemon.name if self.daemon else 'no daemon'})")
            if self.conn is None or self.conn.closed:
                await self.connect(deadline)
            conn, rid = self.conn, f"{self.name}:{seq}:{attempt}"
            if attempt:
                self.resends += 1
            attempt += 1
            prefix = f"{self.name}:{seq}:"

            def answers(m):
                return ((m.get("type") in ("diff", "rejected") and m.get("tree") == self.tree and m.get("seq") == seq)
                        or (m.get("type") == "error" and str(m.get("rid", "")).startswith(prefix)))
            try:
                start = len(conn.messages)
                await conn.send({"type": "edit", "tree": self.tree, "seq": seq, "ops": ops, "rid": rid})
                _, answer = await conn.wait(answers, min(self.attempt_timeout, max(0.01, deadline - now())), start)
            except ConnectionLost:
                self.why.setdefault(seq, []).append("connection")
                continue  # resend through another daemon
            except TimeoutError:
                if now() < deadline:
                    self.silences.append((seq, self.daemon.name))
                    self.why.setdefault(seq, []).append("silence")
                continue  # resend on the same session (the batch is deduplicated if the first one was accepted)
            if answer["type"] == "diff":
                self.acks[seq] = answer
                self.acked_at[seq] = now()
                if answer.get("duplicate"):
                    self.duplicates += 1
                return answer
            if answer.get("code") == "unavailable":
                self.unavailable += 1
                self.why.setdefault(seq, []).append("unavailable")
                await asyncio.sleep(0.02)  # back off a little, then the same message again
                continue
            self.rejections.append(answer)
            raise Rejected(f"{self.name}: seq {seq} on {self.daemon.name}: {answer}")

    def acked_after(self, t):
        """Acknowledgements of edits first sent after `t`: (seq, time of ack)."""
        return sorted((self.acked_at[s], s) for s in self.acks if self.sent_at[s] > t)

    async def close(self):
        for conn in self.conns:
            await conn.close()


async def write_sequentially(writer, prefix, first_seq, stop, node="root"):
    """One edit at a time (each waits for its acknowledgement), seq first_seq, first_seq+1, ... until `stop` is
    set; each edit sets the prop `<prefix><seq>` on `node`."""
    seq = first_seq
    while not stop.is_set():
        await writer.edit(seq, [{"op": "setProps", "node": node, "props": {f"{prefix}{seq}": seq}}])
        seq += 1
    return seq - 1


async def wait_until(predicate, timeout, what, interval=0.02):
    """Polls `predicate` until it is true; raises TimeoutError naming `what` at the deadline."""
    deadline = now() + timeout
    while True:
        if predicate():
            return
        if now() >= deadline:
            raise TimeoutError(f"not within {timeout:.0f} s: {what}")
        await asyncio.sleep(interval)


class Subscriber:
    """A session subscribed to one tree on one daemon; records its snapshot and every diff."""

    def __init__(self, daemon, tree):
        self.daemon, self.tree = daemon, tree
        self.conn = None

    async def start(self, timeout=20):
        """Subscribes; retries (on the same session) while the daemon does not know the tree yet."""
        deadline = now() + timeout
        self.conn = await Session.open(self.daemon.url, f"subscriber@{self.daemon.name}")
        attempt = 0
        while True:
            attempt += 1
            rid = f"sub{attempt}"
            answer = await self.conn.request({"type": "subscribe", "tree": self.tree, "rid": rid},
                                             lambda m: m.get("rid") == rid, timeout=max(0.1, deadline - now()))
            if answer.get("type") == "snapshot":
                return self
            if now() > deadline or answer.get("code") not in ("no_such_tree", "unavailable"):
                raise RuntimeError(f"subscribe to {self.tree} on {self.daemon.name}: {answer}")
            await asyncio.sleep(0.05)

    def events(self):
        """[("snapshot", version, message) | ("diff", version, raw)] for this tree, in arrival order."""
        out = []
        for _, raw, m in self.conn.messages:
            if m.get("tree") != self.tree:
                continue
            if m.get("type") == "snapshot":
                out.append(("snapshot", m.get("version"), m))
            elif m.get("type") == "diff":
                out.append(("diff", m.get("version"), raw))
        return out

    def version(self):
        versions = [v for _, v, _ in self.events() if isinstance(v, int)]
        return max(versions) if versions else -1

    def analyse(self):
        """(diffs by version as raw text, problems, notes): a diff must follow the previous version by exactly 1; a
        version delivered twice is a problem too. A snapshot after the first one (a daemon resynchronising its
        subscribers, e.g. after a rollback) is a note when it does not go back, a problem when it does."""
        diffs, problems, notes, last = {}, [], [], None
        for kind, version, item in self.events():
            if kind == "snapshot":
                if last is not None:
                    (notes if version >= last else problems).append(
                        f"an unrequested snapshot at version {version} after version {last}")
                last = version
                continue
            if last is not None and version != last + 1:
                problems.append(f"version {version} after {last}")
            if version in diffs:
                problems.append(f"version {version} delivered twice")
            diffs[version] = item
            last = version
        return diffs, problems, notes

    async def close(self):
        if self.conn:
            await self.conn.close()


async def subscribe_all(daemons, tree):
    return [await Subscriber(d, tree).start() for d in daemons]


async def create_tree(daemon, tree, root=None, keys=None):
    conn = await Session.open(daemon.url, f"admin@{daemon.name}")
    try:
        message = {"type": "createTree", "tree": tree, "rid": "create"}
        if root is not None:
            message["root"] = root
        if keys is not None:
            message["keys"] = keys
        answer = await conn.request(message, has_rid("create"), timeout=20)
        if answer.get("type") != "created":
            raise RuntimeError(f"createTree {tree} on {daemon.name}: {answer}")
        return answer
    finally:
        await conn.close()


async def fresh_snapshot(daemon, tree, timeout=10):
    conn = await Session.open(daemon.url, f"snapshot@{daemon.name}")
    try:
        answer = await conn.request({"type": "subscribe", "tree": tree, "rid": "snap"}, has_rid("snap"), timeout)
        return answer
    finally:
        await conn.close()


async def versions_served(daemons, tree):
    """{daemon: the version its fresh snapshot shows, or what went wrong} (for failure reports)."""
    out = {}
    for d in daemons:
        if not d.alive():
            out[d.name] = "not running" if not d.running() else "stopped"
            continue
        try:
            snapshot = await fresh_snapshot(d, tree, timeout=3)
            out[d.name] = snapshot.get("version", snapshot.get("code"))
        except Exception as error:
            out[d.name] = f"{type(error).__name__}: {error}"
    return out


def essence(snapshot):
    """What must agree across daemons: version, keys, root and readers (not presence)."""
    return {k: snapshot.get(k) for k in ("type", "tree", "version", "keys", "root", "readers")}


async def agreeing_snapshots(daemons, tree, version, timeout=30):
    """Fresh snapshots from every daemon once each shows `version` (polled until the deadline): {name: snapshot}."""
    deadline = now() + timeout
    while True:
        snaps = {}
        for d in daemons:
            try:
                snaps[d.name] = await fresh_snapshot(d, tree, timeout=max(1, deadline - now()))
            except (ConnectionLost, TimeoutError, OSError, websockets.exceptions.WebSocketException) as error:
                snaps[d.name] = {"error": repr(error)}
        if all(s.get("version") == version for s in snaps.values()) or now() >= deadline:
            return snaps
        await asyncio.sleep(0.1)


def first_difference(a, b, path="$"):
    """Where two JSON values first differ, and the two values there (for failure reports)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:300]} vs {json.dumps(b)[:300]}"


def check_snapshots_agree(label, snaps, version):
    versions = {name: s.get("version", s.get("code", s.get("error"))) for name, s in snaps.items()}
    check(f"{label}: every daemon serves version {version}", all(v == version for v in versions.values()), versions)
    essences = [essence(s) for s in snaps.values()]
    same = all(e == essences[0] for e in essences)
    detail = ""
    if not same:
        names = list(snaps)
        other = next(n for n in names if essence(snaps[n]) != essences[0])
        detail = f"{names[0]} and {other} first differ at {first_difference(essences[0], essence(snaps[other]))}"
    check(f"{label}: the snapshots of {', '.join(snaps)} are equal (keys, root, readers)", same, detail)
    return same


def check_history(label, subscribers, final_version, writers, exclusive=True):
    """The subscribers' diffs: no gap and no repeat, the same bytes for a version everywhere, each up to
    `final_version`; every writer's acknowledgement matches the delivered diff of its version (seq, author, ops);
    with `exclusive` (only these writers edited since the subscriptions) every delivered diff is one
    acknowledged edit and every acknowledged edit appears exactly once."""
    analysed = {s.daemon.name: s.analyse() for s in subscribers}
    for s in subscribers:
        diffs, problems, notes = analysed[s.daemon.name]
        check(f"{label}: the subscriber on {s.daemon.name} saw no gap, repeat or step back", not problems, problems[:5])
        if notes:
            say(f"  note: the subscriber on {s.daemon.name} got {'; '.join(notes[:3])}")
        check(f"{label}: the subscriber on {s.daemon.name} reached version {final_version}",
              s.version() == final_version, s.version())
    mismatched = []
    names = list(analysed)
    for version in sorted(set().union(*(d for d, _, _ in analysed.values()))):
        texts = {n: analysed[n][0].get(version) for n in names if version in analysed[n][0]}
        if len(set(texts.values())) > 1:
            mismatched.append((version, texts))
    check(f"{label}: every version's diff has the same bytes on {', '.join(names)}", not mismatched,
          json.dumps(mismatched[:2])[:1500])

    canonical = {}
    for diffs, _, _ in analysed.values():
        for version, raw in diffs.items():
            canonical.setdefault(version, json.loads(raw))
    wrong = []
    for w in writers:
        for seq, ack in w.acks.items():
            delivered = canonical.get(ack.get("version"))
            if delivered is None:
                continue
            if any(delivered.get(k) != ack.get(k) for k in ("seq", "author", "ops", "changes")):
                wrong.append({"writer": w.name, "seq": seq, "ack": ack, "delivered": delivered})
    check(f"{label}: each acknowledgement is the delivered diff of its version (seq, author, ops, changes)",
          not wrong, json.dumps(wrong[:2])[:1500])
    check_answers(label, writers)
    if exclusive:
        acked_keys = {}
        for w in writers:
            for seq, ack in w.acks.items():
                acked_keys[(w.name, seq)] = ack.get("version")
        version_of = {}  # (writer name, seq) -> versions that carry its ops
        for version, diff in canonical.items():
            for key in diff_keys(diff, writers):
                version_of.setdefault(key, []).append(version)
        lost = [k for k in acked_keys if k not in version_of]
        doubled = {f"{k[0]}:{k[1]}": v for k, v in version_of.items() if len(v) > 1}
        phantom = {f"{k[0]}:{k[1]}": v for k, v in version_of.items() if k not in acked_keys}
        check(f"{label}: every acknowledged edit is delivered exactly once ({len(acked_keys)} edits)",
              not lost and not doubled, {"lost": lost[:10], "doubled": doubled})
        check(f"{label}: nothing unacknowledged was committed", not phantom, phantom)
    return canonical


def check_answers(label, writers):
    """Every edit was answered on its session (no silence of ATTEMPT_SECONDS); edits answered `unavailable` that
    were committed after all (their resend answered `duplicate`, exactly once) are printed."""
    silences = [f"{w.name} seq {seq} on {daemon}" + (" (committed: the resend was a duplicate)"
                                                     if w.acks.get(seq, {}).get("duplicate") else "")
                for w in writers for seq, daemon in w.silences]
    check(f"{label}: every edit was answered within {ATTEMPT_SECONDS} s on an open session", not silences, silences)
    false_unavailable = [f"{w.name} seq {seq}: {w.why[seq]}, then version {a.get('version')} as a duplicate"
                         for w in writers for seq, a in w.acks.items()
                         if a.get("duplicate") and w.why.get(seq) and set(w.why[seq]) == {"unavailable"}]
    if false_unavailable:
        say(f"  {label}: answered unavailable, committed after all (resend answered duplicate): {false_unavailable}")


def diff_keys(diff, writers):
    """(writer name, seq) pairs a delivered diff carries, recognised by the props the writers set."""
    keys = []
    by_prefix = {w.prop_prefix: w.name for w in writers}
    for op in diff.get("ops") or []:
        if op.get("op") != "setProps":
            continue
        for prop in op.get("props") or {}:
            m = re.fullmatch(r"([a-z]+)(\d+)", prop)
            if m and m.group(1) in by_prefix:
                keys.append((by_prefix[m.group(1)], int(m.group(2))))
    return keys


def props_of(snapshot, node="root"):
    def find(n):
        if n.get("id") == node:
            return n
        for child in n.get("children") or []:
            found = find(child)
            if found:
                return found
        return None
    found = find(snapshot.get("root") or {})
    return (found or {}).get("props") or {}


def check_final_props(label, snapshot, writers, node="root"):
    """The final snapshot shows exactly the props of the acknowledged edits."""
    props = props_of(snapshot, node)
    expected = {f"{w.prop_prefix}{seq}" for w in writers for seq in w.acks}
    prefixes = tuple(w.prop_prefix for w in writers)
    present = {p for p in props if re.fullmatch(r"[a-z]+\d+", p) and p.startswith(prefixes)}
    check(f"{label}: the final tree shows every acknowledged edit and nothing else ({len(expected)} props)",
          present == expected, {"missing": sorted(expected - present)[:10], "extra": sorted(present - expected)[:10]})


def pause_report(label, writer, t_event):
    """Seconds from `t_event` to the first acknowledgement of an edit first sent after it, and the longest gap
    between consecutive acknowledgements."""
    after = writer.acked_after(t_event)
    first = after[0][0] - t_event if after else None
    times = sorted(writer.acked_at.values())
    gaps = [b - a for a, b in zip(times, times[1:])]
    longest = max(gaps, default=0.0)
    say(f"  {label}: writes resumed {first:.2f} s after it (first edit sent afterwards acknowledged); "
        f"longest gap between acknowledgements {longest:.2f} s; {writer.unavailable} unavailable, "
        f"{writer.resends} resends, {writer.reconnects} reconnections, {writer.duplicates} duplicate answers"
        if first is not None else f"  {label}: no edit sent after it was acknowledged")
    return first


# ---------------------------------------------------------------- the local replay (converge)


def full(node):
    """A node in the wire's full form (every field, children too)."""
    return {"id": node["id"], "type": node["type"], "props": dict(node.get("props") or {}),
            "modifiers": [dict(m) for m in node.get("modifiers") or []],
            "children": [full(c) for c in node.get("children") or []]}


def replay(root, diffs):
    """`root` after the ops of `diffs` (in version order), for the ops the converge scenario sends; None if a
    diff carries another op."""
    tree = full(root)
    nodes = {}

    def index(n):
        nodes[n["id"]] = n
        for c in n["children"]:
            index(c)
    index(tree)
    for diff in diffs:
        for op in diff.get("ops") or []:
            node = nodes.get(op.get("node"))
            if node is None:
                return None
            if op["op"] == "setProps":
                for k, v in op["props"].items():
                    if v is None:
                        node["props"].pop(k, None)
                    else:
                        node["props"][k] = v
            elif op["op"] == "setPreference":
                writers = [m for m in node["modifiers"] if m.get("kind") == "preference" and m.get("key") == op["key"]]
                if writers:
                    writers[-1]["value"] = op["value"]
                else:
                    node["modifiers"].append({"kind": "preference", "key": op["key"], "value": op["value"]})
            else:
                return None
    return tree


# ---------------------------------------------------------------- scenarios


# ---------------------------------------------------------------- the stream itself


async def stream_messages(url, stream, subject, timeout=20):
    """Every message of `subject` in `stream`, in order, read with JetStream's direct API over a plain NATS
    connection (no client library): [(stream sequence, payload bytes)]."""
    host, port = url.split("//")[1].rsplit(":", 1)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 5)
    deadline = now() + timeout
    try:
        await reader.readline()  # INFO
        writer.write(b'CONNECT {"verbose":false,"pedantic":false,"headers":true,"no_responders":true}\r\n'
                     b"SUB _INBOX.cluster-test 1\r\n")
        out, seq = [], 0
        while True:
            request = json.dumps({"next_by_subj": subject, "seq": seq + 1}).encode()
            writer.write(b"PUB $JS.API.STREAM.MSG.GET.%s _INBOX.cluster-test %d\r\n%s\r\n"
                         % (stream.encode(), len(request), request))
            await writer.drain()
            while True:  # the reply, answering the server's pings meanwhile
                line = (await asyncio.wait_for(reader.readline(), max(0.1, deadline - now()))).decode().strip()
                if line == "PING":
                    writer.write(b"PONG\r\n")
                elif line.startswith(("MSG ", "HMSG ")):
                    break
                elif line.startswith("-ERR"):
                    raise RuntimeError(f"NATS: {line}")
            words = line.split()
            body = (await reader.readexactly(int(words[-1]) + 2))[:-2]
            if words[0] == "HMSG":
                head = int(words[-2])
                status, body = body[:head].decode(errors="replace"), body[head:]
                if not body:  # a status only, e.g. 503 (no responders) during an election: ask again
                    if now() > deadline:
                        raise RuntimeError(f"NATS: {status.strip()}")
                    await asyncio.sleep(0.2)
                    continue
            answer = json.loads(body)
            if "message" not in answer:
                if (answer.get("error") or {}).get("code") == 404:
                    return out  # no message after `seq`
                raise RuntimeError(f"JetStream: {answer.get('error')}")
            seq = answer["message"]["seq"]
            out.append((seq, base64.b64decode(answer["message"].get("data") or "")))
    finally:
        writer.close()


async def audit_stream(env, tree):
    """The tree's subject in CANOPY_TREES, whatever the daemons say: its batches (the payloads that are diffs)
    carry versions 1, 2, 3 ... without a gap or a repeat, and no prop is set by two batches (every edit of this
    test sets props of its own), i.e. no edit was committed twice and no deposed owner committed a history of its
    own."""
    try:
        status = await env.cluster.status()
        url = next(server["url"] for server in status["servers"] if server["running"])
        messages = await stream_messages(url, STREAM, f"canopy.tree.{tree.replace('.', '~')}")
    except Exception as error:
        check(f"stream audit: {tree}: the stream can be read", False, f"{type(error).__name__}: {error}")
        return
    problems, expected, setters = [], 1, {}
    for seq, payload in messages:
        try:
            diff = json.loads(payload)
        except ValueError:
            diff = None
        if not isinstance(diff, dict) or diff.get("type") != "diff":
            expected, setters = 1, {}  # a creation (or a deletion): a new life of the id
            continue
        version = diff.get("version")
        if version != expected:
            problems.append(f"stream sequence {seq}: version {version} where {expected} was due "
                            f"(author {diff.get('author')}, seq {diff.get('seq')})")
        expected = (version if isinstance(version, int) else expected) + 1
        for op in diff.get("ops") or []:
            if op.get("op") == "setProps":
                for prop in op.get("props") or {}:
                    setters.setdefault(prop, []).append(version)
    twice = {prop: versions for prop, versions in setters.items() if len(versions) > 1}
    check(f"stream audit: {tree}: {len(messages)} messages, batch versions without a gap or a second history",
          not problems, f"{len(problems)} problems, the first: {problems[:4]}")
    check(f"stream audit: {tree}: no edit committed twice", not twice,
          f"{len(twice)} props set by two batches, e.g. {dict(list(twice.items())[:4])}")


class Env:
    def __init__(self, cluster, daemons):
        self.cluster, self.daemons = cluster, daemons
        self.trees = {}  # tree -> version last seen final (for the restart-from-nothing scenario)
        self.created = []  # every tree a scenario created (for the stream audit)

    async def create(self, daemon, tree, root=None, keys=None):
        self.created.append(tree)
        return await create_tree(daemon, tree, root, keys)

    async def restore(self):
        """After a scenario (also a failed one): every daemon running and not stopped, every NATS server up."""
        for d in self.daemons:
            if d.paused and d.running():
                d.resume()
        status = await self.cluster.status()
        for server in status["servers"]:
            if not server["running"]:
                say(f"  (restoring NATS server {server['name']})")
                await self.cluster.command(f"restart {server['index']}")
        for d in self.daemons:
            if not d.running():
                say(f"  (restoring {d.name})")
                d.start()
        for d in self.daemons:
            await d.wait_ready()


async def scenario_converge(env):
    """Three writers on three daemons, 50 pipelined edits each; everyone converges."""
    d1, d2, d3 = env.daemons
    tree = "converge"
    keys = [{"key": "Sum", "reducer": "sum", "default": 0}]
    root = {"id": "root", "type": "VStack", "modifiers": [{"kind": "onPreferenceChange", "key": "Sum"}],
            "children": [{"id": f"c{i}", "type": "Text",
                          "modifiers": [{"kind": "preference", "key": "Sum", "value": 0}]} for i in (1, 2, 3)]}
    created = await env.create(d1, tree, root, keys)
    check("converge: createTree on d1 answers version 0", created.get("version") == 0, created)
    subscribers = await subscribe_all(env.daemons, tree)
    writers = []
    for i, d in enumerate(env.daemons, 1):
        w = Writer(f"conv-{i}", tree, env.daemons, home=i - 1, prop_prefix=f"k{'abc'[i - 1]}")
        writers.append(w)
        await w.connect(now() + 20)
    edits = 50

    async def pipelined(w, i, window=8):
        gate = asyncio.Semaphore(window)

        async def one(seq):
            async with gate:
                await w.edit(seq, [{"op": "setProps", "node": f"c{i}", "props": {f"{w.prop_prefix}{seq}": seq}},
                                   {"op": "setPreference", "node": f"c{i}", "key": "Sum", "value": i * 1000 + seq}])
        await asyncio.gather(*(one(s) for s in range(1, edits + 1)))

    started = now()
    await asyncio.gather(*(pipelined(w, i) for i, w in enumerate(writers, 1)))
    elapsed = now() - started
    total = edits * len(writers)
    await wait_until(lambda: all(s.version() >= total for s in subscribers), 30,
                     f"every subscriber at version {total} "
                     f"({', '.join(f'{s.daemon.name}: {s.version()}' for s in subscribers)})")
    say(f"  {total} edits from 3 writers acknowledged in {elapsed:.2f} s; "
        f"{sum(w.unavailable for w in writers)} unavailable answers")
    versions = sorted(a["version"] for w in writers for a in w.acks.values())
    check("converge: the acknowledgements carry versions 1...150, one each", versions == list(range(1, total + 1)),
          versions[:20])
    for i, w in enumerate(writers, 1):
        daemon_name, session = w.sessions[-1]
        expected_author = session if SELFCHECK or "/" in str(session) else f"{daemon_name}/{session}"
        authors = {a.get("author") for a in w.acks.values()}
        check(f"converge: conv-{i}'s diffs are authored {expected_author}", authors == {expected_author}, authors)
        counts = {}
        for _, _, m in w.conn.messages:
            if m.get("type") == "diff":
                counts[m.get("seq")] = counts.get(m.get("seq"), 0) + 1
        check(f"converge: conv-{i} got its diff exactly once per edit",
              sorted(counts) == list(range(1, edits + 1)) and set(counts.values()) == {1},
              {s: c for s, c in counts.items() if c != 1})
    canonical = check_history("converge", subscribers, total, writers)
    snaps = await agreeing_snapshots(env.daemons, tree, total)
    if check_snapshots_agree("converge", snaps, total):
        ordered = [canonical[v] for v in range(1, total + 1) if v in canonical]
        expected_root = replay(root, ordered) if len(ordered) == total else None
        got = snaps["d1"].get("root")
        check("converge: the snapshot's root equals the initial root with the 150 diffs replayed here",
              expected_root is not None and got == expected_root,
              json.dumps({"expected": expected_root, "got": got})[:1500])
        finals = {n["id"]: n["modifiers"][-1]["value"] for n in (expected_root or {"children": []})["children"]}
        reader = {r["reader"]: r.get("value") for r in snaps["d1"].get("readers") or []}
        check("converge: the reader root#0 shows the sum of the last values written",
              reader.get("root#0") == sum(finals.values()) and sum(finals.values()) > 0, (reader, finals))

    # Deduplication by (client, seq): a resubmission on the same session, and through another daemon.
    w2 = writers[1]
    original = w2.acks[5]
    again = await w2.conn.request({"type": "edit", "tree": tree, "seq": 5, "ops": w2.ops[5], "rid": "again"},
                                  lambda m: m.get("rid") == "again" or (m.get("type") in ("diff", "rejected")
                                                                       and m.get("seq") == 5), timeout=10)
    check("converge: a resubmitted seq is answered with the original diff, duplicate",
          again.get("type") == "diff" and again.get("duplicate") is True
          and again.get("version") == original["version"], (again, original.get("version")))
    other = Writer("conv-2", tree, env.daemons, home=2, prop_prefix="kb")  # the same client name, on d3
    await other.connect(now() + 10)
    again = await other.edit(6, w2.ops[6])
    check("converge: a resubmission through another daemon is a duplicate of the original",
          again.get("duplicate") is True and again.get("version") == w2.acks[6]["version"],
          (again, w2.acks[6].get("version")))
    snaps = await agreeing_snapshots(env.daemons, tree, total, timeout=5)
    check("converge: the resubmissions changed nothing", all(s.get("version") == total for s in snaps.values()),
          {n: s.get("version") for n, s in snaps.items()})
    env.trees[tree] = total
    for c in [*writers, other]:
        await c.close()
    for s in subscribers:
        await s.close()


async def write_through_kill(label, event, whose, writer, subscribers, kill):
    """What the kill -9 scenarios share: `writer` writes edits one at a time (seq 1, 2, ...); after 20
    acknowledgements `kill()` kills something and returns what it killed, for the log (None: nothing was killed,
    and this returns None too); writing goes on until 20 edits sent after the kill are acknowledged. Then the pause
    is reported (as `event`) and checked, nothing acknowledged is lost or doubled, and every subscriber reaches the
    final version with the same history. Returns (seconds until writes resumed or None, the final version)."""
    stop = asyncio.Event()
    task = asyncio.create_task(write_sequentially(writer, "k", 1, stop))
    try:
        await wait_until(lambda: len(writer.acks) >= 20 or task.done(), 30, "20 edits before the kill")
        if task.done():
            task.result()
        killed = await kill()
        if killed is None:
            return None
        t_kill = now()
        say(f"  killed {killed} with SIGKILL after {len(writer.acks)} edits")
        await wait_until(lambda: len(writer.acked_after(t_kill)) >= 20 or task.done(), 60,
                         "20 edits acknowledged after the kill")
        stop.set()
        last = await task
    finally:
        stop.set()
        if not task.done():
            task.cancel()
    first = pause_report(event, writer, t_kill)
    check(f"{label}: edits are acknowledged again after {whose} kill -9", first is not None, first)
    final = max(a["version"] for a in writer.acks.values())
    check(f"{label}: {last} edits, versions 1...{last}", final == last and len(writer.acks) == last,
          (final, last, len(writer.acks)))
    await wait_until(lambda: all(s.version() >= final for s in subscribers), 30, f"subscribers at {final}")
    check_history(label, subscribers, final, [writer])
    return first, final


async def scenario_owner_kill(env):
    """kill -9 of the owner while a client on another daemon writes."""
    d1, d2, d3 = env.daemons
    tree = "owner-kill"
    await env.create(d1, tree)  # d1 owns it
    subscribers = await subscribe_all([d2, d3], tree)
    writer = Writer("ok-writer", tree, env.daemons, home=1, prop_prefix="k")

    async def kill():
        d1.kill9()
        return f"d1 (the owner, pid {d1.process.pid})"
    first, final = await write_through_kill("owner kill", "owner kill -9", "the owner's", writer, subscribers, kill)

    d1.start()
    await d1.wait_ready()
    snaps = await agreeing_snapshots(env.daemons, tree, final)
    check_snapshots_agree("owner kill: the restarted d1 caught up", snaps, final)
    check_final_props("owner kill", snaps["d2"], [writer])
    env.trees[tree] = final
    await writer.close()
    for s in subscribers:
        await s.close()
    return first


async def scenario_stream_leader_kill(env):
    """kill -9 of the NATS server leading the stream while writing."""
    d1, d2, d3 = env.daemons
    tree = "stream-leader"
    await env.create(d2, tree)
    subscribers = await subscribe_all(env.daemons, tree)
    writer = Writer("sl-writer", tree, env.daemons, home=2, prop_prefix="k")
    leader = None

    async def kill():
        nonlocal leader
        leader = await env.cluster.leader(STREAM)
        if not check(f"stream leader: the stream {STREAM} has a leader", leader is not None,
                     await env.cluster.status()):
            return None
        await env.cluster.command(f"kill {leader}")
        return f"NATS server n{leader} (leader of {STREAM})"
    result = await write_through_kill("stream leader", "stream leader kill -9", "the leader's", writer, subscribers,
                                      kill)
    if result is None:
        return None
    first, final = result
    await env.cluster.command(f"restart {leader}")
    say(f"  restarted n{leader}")
    snaps = await agreeing_snapshots(env.daemons, tree, final)
    check_snapshots_agree("stream leader", snaps, final)
    check_final_props("stream leader", snaps["d1"], [writer])
    env.trees[tree] = final
    await writer.close()
    for s in subscribers:
        await s.close()
    return first


async def create_through_election(daemon, tree, deadline):
    """createTree on `daemon`, sent again on `unavailable` (the retryable answer) until another answer or the
    deadline: the list of answers' types or codes, and the time the last one came."""
    answers = []
    conn = await Session.open(daemon.url, f"admin@{daemon.name}")
    try:
        while now() < deadline:
            rid = f"create-{len(answers)}"
            answer = await conn.request({"type": "createTree", "tree": tree, "rid": rid}, has_rid(rid),
                                        timeout=max(1, deadline - now()))
            answers.append(answer.get("code", answer.get("type")))
            if answers[-1] != "unavailable":
                break
            await asyncio.sleep(0.2)
        return answers, now()
    finally:
        await conn.close()


async def scenario_lease_leader_kill(env):
    """kill -9 of the NATS server leading the lease bucket, then a tree created on every daemon at once."""
    leader = await env.cluster.leader(LEASES)
    if not check(f"lease leader: the stream {LEASES} has a leader", leader is not None, await env.cluster.status()):
        return None
    await env.cluster.command(f"kill {leader}")
    t_kill = now()
    say(f"  kill -9 of NATS server n{leader} (leader of {LEASES})")
    trees = [f"lease-leader-{d.name}" for d in env.daemons]
    env.created.extend(trees)
    results = await asyncio.gather(*(create_through_election(d, t, t_kill + 60)
                                     for d, t in zip(env.daemons, trees)))
    for d, tree, (answers, at) in zip(env.daemons, trees, results):
        say(f"  createTree {tree} on {d.name}: {' → '.join(answers)}, {at - t_kill:.2f} s after the kill")
        # `tree_exists` is right only for an id that exists: after an `unavailable`, an earlier attempt that was
        # committed after all. As a first answer it would be a creation refused for a lease that no one holds.
        check(f"lease leader: {tree} is created on {d.name} (the election waited out, or answered unavailable)",
              answers[-1] == "created" or (answers[-1] == "tree_exists" and "unavailable" in answers), answers)
    await env.cluster.command(f"restart {leader}")
    say(f"  restarted n{leader}")
    for tree in trees:
        snaps = await agreeing_snapshots(env.daemons, tree, 0)
        check_snapshots_agree(f"lease leader: {tree}", snaps, 0)
        env.trees[tree] = 0
    return None


async def listed(daemon, tree):
    conn = await Session.open(daemon.url, f"list@{daemon.name}")
    try:
        answer = await conn.request({"type": "listTrees", "rid": "ls"}, has_rid("ls"))
        return any(t.get("tree") == tree for t in answer.get("trees") or [])
    finally:
        await conn.close()


async def scenario_recreate(env):
    """A tree owned by d1, deleted through d2, created again through d3 as soon as d3 has read the deletion."""
    d1, d2, d3 = env.daemons
    for attempt in range(1, 6):
        tree = f"recreated-{attempt}"
        await env.create(d1, tree)
        await wait_until_listed(d2, tree, 10)
        await wait_until_listed(d3, tree, 10)
        conn = await Session.open(d2.url, "admin@d2")
        try:
            deleted = await conn.request({"type": "deleteTree", "tree": tree, "rid": "del"}, has_rid("del"), 20)
        finally:
            await conn.close()
        check(f"recreate {attempt}: deleteTree through d2 (a follower)", deleted.get("type") == "deleted", deleted)
        deadline = now() + 10
        while await listed(d3, tree):
            if now() > deadline:
                raise RuntimeError(f"d3 still lists {tree} 10 s after its deletion")
            await asyncio.sleep(0.01)
        sent = now()
        answers, answered = await create_through_election(d3, tree, now() + 60)
        say(f"  {tree}: created again through d3: {' → '.join(answers)} in {answered - sent:.2f} s")
        # The old life's lease, which d1 releases a moment after the deletion, must not make the id look taken.
        check(f"recreate {attempt}: created again through d3 at once", answers[-1] == "created", answers)
    return None


async def scenario_stale_owner(env):
    """SIGSTOP of the owner until another daemon took over, at least 3 x lease_seconds; the stale one must not
    diverge."""
    d1, d2, d3 = env.daemons
    tree = "stale-owner"
    await env.create(d1, tree)  # d1 owns it
    subscribers = await subscribe_all(env.daemons, tree)
    a = Writer("stale-a", tree, env.daemons, home=1, prop_prefix="a")  # on d2
    b = Writer("stale-b", tree, env.daemons, home=0, prop_prefix="b", stick=True)  # on d1, and only there
    await b.connect(now() + 10)
    stop_a = asyncio.Event()
    task_a = asyncio.create_task(write_sequentially(a, "a", 1, stop_a))
    task_b = None
    try:
        await wait_until(lambda: len(a.acks) >= 10 or task_a.done(), 30, "10 edits before the stop")
        if task_a.done():
            task_a.result()
        version_at_stop = max(x["version"] for x in a.acks.values())
        d1.pause()
        t_stop = now()
        say(f"  SIGSTOP d1 (the owner) at version {version_at_stop}, for {3 * LEASE_SECONDS} s and until another "
            f"daemon took over (at most {TAKEOVER_SECONDS} s)")
        # The stale daemon's client sends while it is stopped: the kernel keeps the edit until it runs again.
        task_b = asyncio.create_task(b.edit(1, [{"op": "setProps", "node": "root", "props": {"b1": 1}}],
                                            timeout=TAKEOVER_SECONDS + 60))
        # d1 stays stopped until an edit d2's client sent after the stop is acknowledged — another daemon owns the
        # tree: the takeover, seen as a state — and for at least 3 x lease_seconds, so that d1 runs again long after
        # its lease expired, believing it still owns the tree.
        while not ((now() - t_stop >= 3 * LEASE_SECONDS and a.acked_after(t_stop)) or task_a.done()
                   or now() - t_stop >= TAKEOVER_SECONDS):
            await asyncio.sleep(0.02)
        if task_a.done():
            task_a.result()
        taken_over = a.acked_after(t_stop)
        around = [(q, round(a.sent_at[q] - t_stop, 2), round(a.acked_at[q] - t_stop, 2) if q in a.acked_at else None)
                  for q in sorted(a.sent_at)[-3:]]
        check(f"stale owner: another daemon took over while d1 was stopped (an edit sent after the stop "
              f"acknowledged within {TAKEOVER_SECONDS} s, before SIGCONT)",
              bool(taken_over), f"{len(a.acks)} acks, none for an edit sent after the stop; d2's client's edits "
              f"around the stop (seq, sent, acknowledged; seconds after the stop): {around}")
        if taken_over:
            say(f"  takeover: the first edit sent after the stop was acknowledged {taken_over[0][0] - t_stop:.2f} s "
                f"after it ({a.unavailable} unavailable answers meanwhile)")
        d1.resume()
        t_cont = now()
        say(f"  SIGCONT d1 after {t_cont - t_stop:.2f} s")
        b_deadline = t_cont + 60  # everything d1's client sends is acknowledged within a minute of SIGCONT
        first_b = await asyncio.wait_for(task_b, max(1, b_deadline - now()))
        say(f"  d1's client: its edit sent during the stop acknowledged {b.acked_at[1] - t_cont:.2f} s after "
            f"SIGCONT as version {first_b['version']} ({b.unavailable} unavailable answers, {b.resends} resends)")
        for seq in range(2, 12):  # more edits through the resumed daemon while d2's client still writes
            await b.edit(seq, [{"op": "setProps", "node": "root", "props": {f"b{seq}": seq}}],
                         timeout=max(1, b_deadline - now()))
        stop_a.set()
        await task_a
        pending = min((q for q in a.acks if a.sent_at[q] > t_stop), default=None)
        if pending is not None:  # the first edit d2's client sent after the stop
            say(f"  d2's client: seq {pending} (sent {a.sent_at[pending] - t_stop:+.2f} s from the stop) acknowledged "
                f"{a.acked_at[pending] - t_stop:+.2f} s from it, version {a.acks[pending]['version']}"
                f"{' (a duplicate answer to a resend)' if a.acks[pending].get('duplicate') else ''}; in all "
                f"{a.unavailable} unavailable, {a.resends} resends, {a.duplicates} duplicate answers")
    finally:
        stop_a.set()
        if d1.paused:
            d1.resume()
        for t in (task_a, task_b):
            if t is not None and not t.done():
                t.cancel()
    check("stale owner: every edit through the resumed daemon was acknowledged", len(b.acks) == 11, sorted(b.acks))
    check("stale owner: the stale daemon's first edit was committed after the takeover's versions",
          b.acks[1]["version"] > version_at_stop, (b.acks[1].get("version"), version_at_stop))
    final = max(x["version"] for w in (a, b) for x in w.acks.values())
    total = len(a.acks) + len(b.acks)
    check(f"stale owner: {total} edits, versions 1...{total}", final == total, (final, total))
    await wait_until(lambda: all(s.version() >= final for s in subscribers), 30,
                     f"subscribers at {final} ({[s.version() for s in subscribers]})")
    check_history("stale owner", subscribers, final, [a, b])
    snaps = await agreeing_snapshots(env.daemons, tree, final)
    check_snapshots_agree("stale owner: all three converge", snaps, final)
    check_final_props("stale owner", snaps["d2"], [a, b])
    env.trees[tree] = final
    for c in (a, b, *subscribers):
        await c.close()


async def scenario_restart_from_nothing(env):
    """SIGTERM d3, delete its data, 30 edits via d1, start d3: it serves every tree as the others do."""
    d1, d2, d3 = env.daemons
    tree = "converge"
    code = await d3.terminate()
    check("from nothing: SIGTERM stops d3 with exit code 0", code == 0, code)
    shutil.rmtree(d3.data, ignore_errors=True)
    check("from nothing: d3's data directory is gone", not os.path.exists(d3.data))
    writer = Writer("fn-writer", tree, env.daemons, home=0, prop_prefix="fn")
    for seq in range(1, 31):
        await writer.edit(seq, [{"op": "setProps", "node": "root", "props": {f"fn{seq}": seq}}])
    final = max(x["version"] for x in writer.acks.values())
    base = env.trees.get(tree)
    check("from nothing: 30 more edits while d3 is down", base is None or final == base + 30, (base, final))
    check_answers("from nothing", [writer])
    env.trees[tree] = final
    d3.start()
    await d3.wait_ready()
    for name, version in env.trees.items():
        snaps = await agreeing_snapshots(env.daemons, name, version)
        check_snapshots_agree(f"from nothing: {name}", snaps, version)
    listed = {}
    conn = await Session.open(d3.url, "list@d3")
    try:
        answer = await conn.request({"type": "listTrees", "rid": "ls"}, has_rid("ls"))
        listed = {t.get("tree"): t.get("version") for t in answer.get("trees") or []}
    finally:
        await conn.close()
    check("from nothing: d3 lists every tree at its version",
          all(listed.get(name) == version for name, version in env.trees.items()), (listed, env.trees))
    if "large" in env.trees:
        with open(d3.log) as f:
            loaded = [line for line in f if "tree large: from its snapshot at version 20" in line]
        check("from nothing: d3 loaded the large tree from its chunked snapshot (version 20) and the batches after",
              len(loaded) >= 1, loaded)
    await writer.close()


LAYOUT_PROGRAM = """struct TopKey: PreferenceKey {
    static var defaultValue: CGFloat = 0
    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) { value += nextValue() }
}
struct Scroller: View {
    @State private var top: CGFloat = 0
    var body: some View {
        ScrollView {
            VStack(spacing: 0) {
                ForEach(0..<20, id: \\.self) { i in
                    Color.blue.frame(height: 50).background(GeometryReader { p in
                        Color.clear.preference(key: TopKey.self, value: i == 0 ? p.frame(in: .named("s")).minY : 0)
                    })
                }
            }
        }
        .coordinateSpace(name: "s")
        .onPreferenceChange(TopKey.self) { top = $0 }
    }
}
"""


async def scenario_layout(env):
    """A program tree laid out in a 200×300 canvas, created on d1: a scroll sent to d2 and a resize sent to d3 (each
    forwarded to the owner); every daemon then serves the same frames, canvas, scroll offset and cells."""
    d1, d2, d3 = env.daemons
    tree = "layout"
    admin = await Session.open(d1.url, "admin@d1")
    try:
        answer = await admin.request({"type": "createTree", "tree": tree, "source": LAYOUT_PROGRAM, "view": "Scroller",
                                      "canvas": {"width": 200, "height": 300}, "rid": "create"}, has_rid("create"),
                                     timeout=20)
    finally:
        await admin.close()
    check("layout: a program tree with a canvas is created", answer.get("type") == "created", answer)
    scroll_view = "Scroller/0:ScrollView"
    batches = [(d2, 1, {"node": scroll_view, "event": "scroll", "value": {"x": 0, "y": 120}}),
               (d3, 2, {"event": "resize", "value": {"device": "iPhone SE"}})]
    for daemon_, seq, body in batches:
        conn = await Session.open(daemon_.url, f"layout@{daemon_.name}")
        try:
            await conn.request({"type": "hello", "client": f"layout-{daemon_.name}", "rid": "hello"}, has_rid("hello"))
            start = len(conn.messages)
            await conn.send({"type": "event", "tree": tree, "seq": seq, **body})
            _, diff = await conn.wait(lambda m: m.get("type") in ("diff", "rejected") and m.get("tree") == tree
                                      and m.get("seq") == seq, 20, start)
        finally:
            await conn.close()
        check(f"layout: {body['event']} through {daemon_.name} is acknowledged", diff.get("type") == "diff"
              and diff.get("version") == seq, diff)
    snaps = await agreeing_snapshots(env.daemons, tree, 2)
    check_snapshots_agree("layout", snaps, 2)
    canvases = {name: s.get("canvas") for name, s in snaps.items()}
    check("layout: every daemon serves the resized canvas", all((c or {}).get("device") == "iPhone SE"
                                                                  for c in canvases.values()), canvases)
    offsets = {name: (s.get("program") or {}).get("scroll") for name, s in snaps.items()}
    check("layout: every daemon holds the scroll offset", all(o == {scroll_view: [0, 120]} for o in offsets.values()),
          offsets)
    tops = {name: {c["name"]: c["value"] for c in s.get("state") or []}.get("top") for name, s in snaps.items()}
    check("layout: the reader's cell saw the scroll on every daemon", all(t == -120 for t in tops.values()), tops)
    env.trees[tree] = 2


async def scenario_large_tree(env):
    """A tree whose snapshot is larger than one NATS message (max_payload, 1 MiB): created on d1 (its snapshot goes
    to the snapshot stream in chunks), edited through d2 past a snapshot; every daemon serves the same tree (the
    next scenario starts d3 from nothing with it)."""
    d1, d2, d3 = env.daemons
    tree = "large"
    root = {"id": "root", "type": "VStack",
            "children": [{"id": f"n{i}", "type": "Text", "props": {"text": f"row {i} " + "x" * 60}}
                         for i in range(LARGE_TREE_NODES)]}
    check("large tree: its createTree is over 1 MiB", len(json.dumps(root)) > 1 << 20, len(json.dumps(root)))
    await create_tree(d1, tree, root=root)
    # Another daemon serves a tree once it has read its creation (here: assembled its chunks).
    await wait_until_listed(d2, tree, 30)
    writer = Writer("large-writer", tree, env.daemons, home=1, prop_prefix="lg")
    try:
        for seq in range(1, 26):
            await writer.edit(seq, [{"op": "setProps", "node": f"n{seq}", "props": {"lg": seq}}])
        final = max(x["version"] for x in writer.acks.values())
        check("large tree: 25 edits through d2, versions 1...25", final == 25 and len(writer.acks) == 25,
              (final, len(writer.acks)))
        check_answers("large tree", [writer])
    finally:
        await writer.close()
    snaps = await agreeing_snapshots(env.daemons, tree, 25)
    check_snapshots_agree("large tree", snaps, 25)
    env.trees[tree] = 25


LARGE_TREE_NODES = 15000


async def wait_until_listed(daemon, tree, timeout):
    deadline = now() + timeout
    conn = await Session.open(daemon.url, f"list@{daemon.name}")
    try:
        while True:
            rid = f"ls{now()}"
            answer = await conn.request({"type": "listTrees", "rid": rid}, has_rid(rid))
            if any(t.get("tree") == tree for t in answer.get("trees") or []):
                return
            if now() >= deadline:
                raise RuntimeError(f"{daemon.name} does not list {tree} after {timeout} s")
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


SCENARIOS = [  # name, function, seconds it may take at most (a passing run takes a fraction)
    ("converge", scenario_converge, 60),
    ("owner kill -9", scenario_owner_kill, 75),
    ("stream leader kill -9", scenario_stream_leader_kill, 90),
    ("lease leader kill -9", scenario_lease_leader_kill, 90),
    ("recreate", scenario_recreate, 90),
    ("stale owner", scenario_stale_owner, 110),
    ("large tree", scenario_large_tree, 60),
    ("layout", scenario_layout, 60),
    ("restart from nothing", scenario_restart_from_nothing, 60),
]


async def selfcheck(binary, folder):
    """The converge scenario against one single-node daemon posing as d1, d2 and d3."""
    single = daemon(0, binary, folder, None, os.environ.get("CLUSTER_TEST_LOG_LEVEL"))
    try:
        single.start()
        await single.wait_ready()
        env = Env(None, [single, alias(single, "d2"), alias(single, "d3")])
        t0 = now()
        failed_before = check.failed
        try:
            await asyncio.wait_for(scenario_converge(env), 90)
        except Exception as error:
            check("converge (selfcheck): ran to the end", False, f"{type(error).__name__}: {error}")
        say(f"{'PASS' if check.failed == failed_before else 'FAIL'} converge, selfcheck ({now() - t0:.1f} s)")
    finally:
        single.kill9()


async def run(binary, folder, keep):
    if SELFCHECK:
        return await selfcheck(binary, folder)
    log_level = os.environ.get("CLUSTER_TEST_LOG_LEVEL")
    cluster = NatsCluster(folder, keep)
    daemons = []
    try:
        started = now()
        info = await cluster.start()
        say(f"NATS cluster ready in {now() - started:.1f} s: {', '.join(info['urls'])}")
        daemons = [daemon(i, binary, folder, info["urls"], log_level) for i in range(3)]
        for d in daemons:
            d.start()
        try:
            for d in daemons:
                await d.wait_ready()
        except RuntimeError as error:
            check("three daemons start in cluster mode", False, f"\n{error}")
            return
        say(f"d1, d2, d3 ready on ports {', '.join(str(d.port) for d in daemons)} (pids "
            f"{', '.join(str(d.pid) for d in daemons)}); logs in {folder}")
        env = Env(cluster, daemons)
        only = [n.strip() for n in os.environ.get("CLUSTER_TEST_SCENARIOS", "").split(",") if n.strip()]
        for name, scenario, budget in SCENARIOS:
            if only and name not in only:
                continue
            failed_before = check.failed
            t0 = now()
            say(f"-- {name}")
            created_before = len(env.created)
            try:
                await asyncio.wait_for(scenario(env), budget)
            except asyncio.TimeoutError as error:
                check(f"{name}: ran to the end", False, str(error) or f"it did not finish within {budget} s")
            except Exception as error:  # a hang, a rejection, a lost daemon: a failure of this scenario
                check(f"{name}: ran to the end", False, f"{type(error).__name__}: {error}")
            for tree in env.created[created_before:]:  # also after a failure: what did reach the stream?
                await audit_stream(env, tree)
            ok = check.failed == failed_before
            say(f"{'PASS' if ok else 'FAIL'} {name} ({now() - t0:.1f} s)")
            if not ok:
                for tree in env.created[created_before:]:
                    say(f"  {tree} as each daemon serves it now: {await versions_served(daemons, tree)}")
                for d in daemons:
                    say(f"  last lines of {d.log}:\n{tail(d.log, 15)}")
            try:
                await asyncio.wait_for(env.restore(), 90)
            except Exception as error:
                check(f"{name}: the cluster is restored afterwards", False, f"{type(error).__name__}: {error}")
                break
        say("-- stream audit of every tree at the end")
        failed_before = check.failed
        for tree in env.created:
            await audit_stream(env, tree)
        say(f"{'PASS' if check.failed == failed_before else 'FAIL'} stream audit")
    finally:
        for d in daemons:
            d.kill9()
        await cluster.stop()


def artifact_folder(path, prefix):
    """`path` made ready for a run (a previous run's daemon data, logs, configs and NATS stores removed: this run's
    daemons would load them), or a new temporary folder when `path` is None."""
    if path is None:
        return tempfile.mkdtemp(prefix=prefix)
    folder = os.path.abspath(path)
    os.makedirs(folder, exist_ok=True)
    for name in NAMES:
        shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
        for suffix in (".log", ".yaml"):
            if os.path.exists(os.path.join(folder, name + suffix)):
                os.unlink(os.path.join(folder, name + suffix))
    shutil.rmtree(os.path.join(folder, "nats"), ignore_errors=True)
    return folder


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    keep = len(sys.argv) > 2
    folder = artifact_folder(sys.argv[2] if keep else None, "canopy-cluster-")

    def on_signal(number, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    started = now()
    try:
        asyncio.run(run(binary, folder, keep))
    except KeyboardInterrupt:
        check("the test was not interrupted", False)
    elapsed = now() - started
    if not keep and check.failed == 0:
        shutil.rmtree(folder, ignore_errors=True)
    elif not keep:
        say(f"logs kept in {folder}")
    check.finish("cluster", f" in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
