"""Shared plumbing for the load-testing scripts: release binaries, a throwaway canopyd (or redis-server), the
server's own CPU time and memory from /proc over the measured window, /metrics, and results as JSON lines; also
free ports and a WebSocket session for the cluster scripts and Tests/e2e/cluster_test.py.

Server CPU per delivery = (utime + stime of the server process during the window) / deliveries in the window.
With the clients on the same machine, the kernel's loopback TCP work for a send is charged to the sending process,
so this number includes what a real network stack would cost the server (see docs/load-testing.md).
"""
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "load"
RESULTS = ARTIFACTS / "results.jsonl"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SWIFT_BIN = os.environ.get("SWIFT_BIN", "/opt/swift/usr/bin")


def _terminate(signum, frame):
    sys.exit(128 + signum)  # SystemExit unwinds the `with` blocks: servers stopped, load tools killed, data removed


signal.signal(signal.SIGTERM, _terminate)


def log(text):
    print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- binaries


def add_build_arguments(parser):
    """--build-path and --rebuild, shared by every script."""
    parser.add_argument("--build-path", default=os.environ.get("CANOPY_BUILD_PATH", ".build"),
                        help="SwiftPM scratch path holding release/canopyd and release/canopy (default .build)")
    parser.add_argument("--rebuild", action="store_true", help="run swift build even if the binaries exist")


def binaries(build_path=".build", rebuild=False, products=("canopyd", "canopy")):
    """Paths of the release `products` (canopyd and canopy unless named), built with `swift build -c release` if
    missing (or asked to)."""
    scratch = Path(build_path)
    if not scratch.is_absolute():
        scratch = ROOT / scratch
    env = dict(os.environ, PATH=f"{SWIFT_BIN}:{os.environ.get('PATH', '')}")
    paths = []
    for product in products:
        path = scratch / "release" / product
        if rebuild or not path.exists():
            log(f"building {product} (release, scratch path {scratch})")
            subprocess.run(["swift", "build", "-c", "release", "--product", product, "--scratch-path", str(scratch)],
                           cwd=ROOT, env=env, check=True, stdout=sys.stderr)
        paths.append(path)
    return tuple(paths)


def check_load_flags(canopy):
    """Stops with a hint when the canopy binary predates the load flags the scenarios use."""
    help_text = subprocess.run([str(canopy), "load", "--help"], capture_output=True, text=True).stdout
    if "--clients" not in help_text:
        sys.exit(f"{canopy} has no `load --clients`: it is older than these scripts; run again with --rebuild")


# ---------------------------------------------------------------- /proc


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _cpu_or_none(pid):
    try:
        return cpu_seconds(pid) if pid else None
    except OSError:  # it just ended
        return None


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def raise_open_files():
    """Soft limit on open files up to the hard limit; children (daemon, load tool) inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_HANDED_OUT = set()  # the ports free_port_in has handed out in this process


def free_port_in(low, high):
    """A free loopback port in low...high-1 that this process has not handed out before. Below Linux's ephemeral
    range (32768 and up), no outgoing connection can take it before its server binds it; scripts that start
    servers side by side take disjoint ranges."""
    while True:
        port = random.randrange(low, high)
        if port in _HANDED_OUT:
            continue
        _HANDED_OUT.add(port)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue


# ---------------------------------------------------------------- WebSocket sessions


class ConnectionLost(Exception):
    pass


class Session:
    """One WebSocket session (subprotocol canopy.v1). A reader task keeps every message as (receive time, raw text,
    parsed JSON). Needs the websockets package, imported when a session opens (the other load scripts do not)."""

    def __init__(self, ws, label):
        self.ws, self.label = ws, label
        self.messages = []
        self.closed = False
        self._changed = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url, label, timeout=5, compression="deflate"):
        import websockets
        ws = await asyncio.wait_for(websockets.connect(url, subprotocols=["canopy.v1"], max_size=None,
                                                       ping_interval=None, open_timeout=timeout,
                                                       compression=compression), timeout + 1)
        return cls(ws, label)

    async def _read(self):
        try:
            async for raw in self.ws:
                self.messages.append((time.monotonic(), raw, json.loads(raw)))
                self._wake()
        except Exception:  # closed, reset, or a frame that is not JSON: the session is over
            pass
        finally:
            self.closed = True
            self._wake()

    def _wake(self):
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def send(self, message):
        import websockets
        try:
            await self.ws.send(json.dumps(message))
        except websockets.exceptions.ConnectionClosed as error:
            raise ConnectionLost(f"{self.label}: {error}") from None

    async def wait(self, predicate, timeout, start=0):
        """The first (index, message) at or after `start` that satisfies `predicate`; TimeoutError at the
        deadline, ConnectionLost if the session ends first."""
        deadline = time.monotonic() + timeout
        index = start
        while True:
            while index < len(self.messages):
                message = self.messages[index][2]
                if predicate(message):
                    return index, message
                index += 1
            if self.closed:
                raise ConnectionLost(f"{self.label}: connection closed")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.label}: nothing matching within {timeout:.1f} s")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    async def request(self, message, predicate, timeout=10):
        start = len(self.messages)
        await self.send(message)
        return (await self.wait(predicate, timeout, start))[1]

    async def close(self):
        try:
            await asyncio.wait_for(self.ws.close(), 3)
        except Exception:
            pass
        self._task.cancel()


# ---------------------------------------------------------------- servers


def _stop(process, timeout):
    """SIGTERM a server still running, wait up to `timeout` seconds, then SIGKILL it; always reaped."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Daemon:
    """A release canopyd on a free loopback port with a fresh data directory and no examples; SIGTERM on exit."""

    def __init__(self, canopyd, config=None, log_level="warning", event_loop=None):
        self.canopyd, self.config, self.log_level = canopyd, config, log_level
        self.event_loop = event_loop  # server.event_loop ("poll", "libuv"), None: the configured one
        self.process = None

    def __enter__(self):
        self.data = tempfile.mkdtemp(prefix="canopy-load-")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.log_path = ARTIFACTS / "canopyd.log"
        args = [str(self.canopyd), "--port", "0", "--data", self.data, "--examples", "", "--log-level", self.log_level]
        if self.config:
            args += ["--config", str(self.config)]
        env = dict(os.environ)
        if self.event_loop:
            env["CANOPY_SERVER_EVENT_LOOP"] = self.event_loop
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env=env)
        self.port = None
        deadline = time.time() + 30
        lines = []
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            self.__exit__(None, None, None)
            raise RuntimeError("canopyd did not announce its port:\n" + "".join(lines))
        self.pid = self.process.pid
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        # Keep draining its output so a chatty daemon never blocks on a full pipe.
        log_file = open(self.log_path, "a")
        log_file.write("".join(lines))

        def drain():
            for line in self.process.stdout:
                log_file.write(line)
            log_file.close()

        threading.Thread(target=drain, daemon=True).start()
        return self

    def metrics(self):
        """GET /metrics as {"name{labels}": value}, or None when the daemon does not serve it."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=2) as response:
                text = response.read().decode()
        except Exception:
            return None
        return parse_prometheus(text)

    def __exit__(self, *exc):
        _stop(self.process, 20)
        shutil.rmtree(self.data, ignore_errors=True)
        return False


def parse_prometheus(text):
    values = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        parts = line.rsplit(" ", 1)
        if len(parts) == 2:
            try:
                values[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return values


def metric(values, name, labels=None):
    """The value of `name` (with exactly `labels`, e.g. 'result="accepted"'), or the sum over all its series."""
    if values is None:
        return None
    if labels is not None:
        return values.get(f"{name}{{{labels}}}")
    found = [v for k, v in values.items() if k == name or k.startswith(name + "{")]
    return sum(found) if found else None


class Redis:
    """redis-server on 127.0.0.1, a free port, no persistence; installed with apt-get if missing."""

    def __enter__(self):
        ensure_redis()
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="canopy-redis-")
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", self.dir, "--daemonize", "no",
             "--maxclients", "20000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        raise RuntimeError("redis-server did not answer PING")

    def version(self):
        binary = shutil.which("redis-server") or "redis-server"
        out = subprocess.run([binary, "--version"], capture_output=True, text=True)
        m = re.search(r"v=(\S+)", out.stdout)
        return m.group(1) if m else "?"

    def __exit__(self, *exc):
        _stop(self.process, 10)
        shutil.rmtree(self.dir, ignore_errors=True)
        return False


def ensure_redis():
    if shutil.which("redis-server") or Path("/usr/bin/redis-server").exists():
        return
    log("installing redis-server with apt-get")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env, stdout=sys.stderr)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "redis-server"], check=True, env=env, stdout=sys.stderr)
    # The package may start a system service on 6379; the scripts use their own instance and leave that alone.


# ---------------------------------------------------------------- one measured run


class Sampler:
    """Samples a server's CPU, RSS and (optionally) /metrics: on demand at the window's edges, and RSS every 100 ms."""

    def __init__(self, pid, metrics=None):
        self.pid, self.metrics = pid, metrics
        self.rss_before = rss_bytes(pid)
        self.rss_peak = self.rss_before
        self.edges = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self):
        while not self._stop.wait(0.1):
            try:
                self.rss_peak = max(self.rss_peak, rss_bytes(self.pid))
            except OSError:
                return

    def mark(self, name, tool_pid=None):
        self.edges[name] = {"t": time.monotonic(), "cpu": cpu_seconds(self.pid), "rss": rss_bytes(self.pid),
                            "metrics": self.metrics() if self.metrics else None,
                            "toolCpu": _cpu_or_none(tool_pid)}

    def stop(self):
        self._stop.set()
        self._thread.join()
        try:
            self.rss_after = rss_bytes(self.pid)
        except OSError:
            self.rss_after = 0


def run_measured(cmd, server_pid, warmup, duration, metrics=None, start_marker=None, arm_marker=None,
                 timeout=None):
    """Runs a load tool (stdout: one JSON object) against a server and samples the server over the measured window.

    The window starts `warmup` seconds after the load starts and lasts `duration`. "Starts" is, in order of
    whichever is seen first: a line on the tool's stderr matching `start_marker` (canopy-redis-load prints one when its
    window opens; canopy load's progress line gives the seconds since its run began, after trees and connections were
    set up, in a group named `elapsed`), or the first accepted edit in the daemon's /metrics after a stderr line
    matching `arm_marker` (canopy load creates large trees with edits; it logs when they are done). Failing both
    (the tool ended first), the tool's launch. An edge passed by more than 0.3 s when the start becomes known is not
    sampled (no CPU figure); otherwise CPU and deliveries are taken over the interval actually sampled.
    Returns (the tool's JSON, server measurements)."""
    sampler = Sampler(server_pid, metrics)
    started = threading.Event()
    armed = threading.Event()
    if arm_marker is None:
        armed.set()
    stderr_lines = []
    begin = time.monotonic()
    process = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)

    def read_stderr():
        for line in process.stderr:
            stderr_lines.append(line)
            if arm_marker and re.search(arm_marker, line):
                armed.set()
            m = re.search(start_marker, line) if start_marker and not started.is_set() else None
            if m:
                # A progress line naming the seconds since the run began dates the start more exactly.
                elapsed = m.groupdict().get("elapsed")
                sampler.edges["start"] = time.monotonic() - (float(elapsed) if elapsed else 0)
                started.set()

    try:
        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        output = {}

        def read_stdout():
            output["text"] = process.stdout.read()

        out_reader = threading.Thread(target=read_stdout, daemon=True)
        out_reader.start()

        # Whichever comes first: the marker line, or the daemon's first accepted edit.
        watch_metrics = metrics is not None and metrics() is not None
        base = None
        start, how = None, "launch"
        while start is None and process.poll() is None:
            if started.is_set():
                start, how = sampler.edges["start"], "marker"
            elif watch_metrics and armed.is_set() and base is None:
                base = metric(metrics(), "canopy_edits_total", 'result="accepted"') or 0
            elif watch_metrics and base is not None:
                value = metric(metrics(), "canopy_edits_total", 'result="accepted"')
                if value is not None and value > base:
                    start, how = time.monotonic(), "first edit (/metrics)"
            if start is None:
                started.wait(0.02)
        if start is None:
            start = begin
        # Stay a little inside the window on both sides: the edges are seen from outside the tool.
        margin = min(0.2, duration * 0.05)
        window = [(start + warmup + margin, "from"), (start + warmup + duration - margin, "to")]
        for at, name in window:
            while process.poll() is None and time.monotonic() < at:
                time.sleep(min(0.01, max(0, at - time.monotonic())))
            if process.poll() is not None or time.monotonic() > at + 0.3:
                break  # the tool ended, or the start was learnt too late to sample this edge in time: no CPU figure
            sampler.mark(name, tool_pid=process.pid)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        out_reader.join()
        reader.join()
        sampler.stop()
        text = output.get("text", "")
        if process.returncode != 0 or not text.strip():
            raise RuntimeError(f"{' '.join(map(str, cmd))} exited {process.returncode}:\n"
                               f"{''.join(stderr_lines)[-2000:]}")
        result = json.loads(text.strip().splitlines()[-1])
        server = {"rssBefore": sampler.rss_before, "rssPeak": sampler.rss_peak, "rssAfter": sampler.rss_after,
                  "windowFrom": how}
        edges = sampler.edges
        if "from" in edges and "to" in edges:
            seconds = edges["to"]["t"] - edges["from"]["t"]
            cpu = edges["to"]["cpu"] - edges["from"]["cpu"]
            server.update(sampledSeconds=seconds, cpuSeconds=cpu, cpuShare=cpu / seconds if seconds > 0 else None,
                          rssInWindow=edges["to"]["rss"])
            if edges["from"]["toolCpu"] is not None and edges["to"]["toolCpu"] is not None and seconds > 0:
                # The load tool runs on the same cores: how much of them it took over the same window.
                server["loadToolCpuShare"] = (edges["to"]["toolCpu"] - edges["from"]["toolCpu"]) / seconds
            # Deliveries over the same interval: the server's own counter if it has one, else the tool's rate.
            m0, m1 = edges["from"]["metrics"], edges["to"]["metrics"]
            d0, d1 = metric(m0, "canopy_diffs_delivered_total"), metric(m1, "canopy_diffs_delivered_total")
            received = result.get("diffs", {}).get("perSecond", 0) * seconds
            if d0 is not None and d1 is not None:
                deliveries, source = d1 - d0, "metrics"
                # The counter counts diffs queued to sessions. When the clients fall behind, queues grow and the
                # counter runs ahead of what was delivered: count what the clients received, and say so.
                if received < 0.95 * deliveries:
                    server["saturated"] = True
                    deliveries, source = received, "load tool (queues growing)"
            else:
                deliveries, source = received, "load tool"
            server.update(deliveries=deliveries, deliveriesFrom=source,
                          cpuMicrosPerDelivery=cpu / deliveries * 1e6 if deliveries > 0 else None)
            if m1 is not None:
                server["metrics"] = {k: v for k, v in m1.items() if k.startswith(("canopy_", "process_"))
                                     and "_bucket{" not in k}
        return result, server
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# ---------------------------------------------------------------- output


CANOPY_LOAD_PROGRESS = r"^(?P<elapsed>\d+(?:\.\d+)?)s (?:warm-up|measure|hold|drain)"
# canopy load logs this once its scratch trees exist, just before it connects the clients.
CANOPY_LOAD_READY = r"load: \d+ writer\(s\), "


def run_canopy_load(canopy, daemon, extra_args, warmup, duration, slack, sample=None):
    """`canopy load` against a Daemon with `extra_args`, `--warmup`/`--duration`, through run_measured; the server is
    sampled over `sample` = (warm-up, duration) seconds after the load starts (default: the run's own), and the tool
    is given warmup + duration + `slack` seconds. Returns (the tool's JSON, server measurements)."""
    cmd = [canopy, "load", "--url", daemon.url, *extra_args, "--warmup", warmup, "--duration", duration, "--json"]
    sample_warmup, sample_duration = sample if sample is not None else (warmup, duration)
    return run_measured(cmd, daemon.pid, sample_warmup, sample_duration, metrics=daemon.metrics,
                        start_marker=CANOPY_LOAD_PROGRESS, arm_marker=CANOPY_LOAD_READY,
                        timeout=warmup + duration + slack)


def daemon_config(durability=None, max_message_bytes=None, name=None):
    """A copy of config/canopyd.yaml with another storage.durability ("fsync" or "none") and/or
    limits.max_message_bytes, written as artifacts/<name>.yaml; None when nothing differs from the shipped file."""
    settings = {}
    if durability not in (None, "fsync"):
        settings[r'durability: "fsync"'] = f'durability: "{durability}"'
    if max_message_bytes is not None:
        settings[r"max_message_bytes: \d+"] = f"max_message_bytes: {max_message_bytes}"
    if not settings:
        return None
    text = (ROOT / "config" / "canopyd.yaml").read_text()
    for pattern, replacement in settings.items():
        text, count = re.subn(rf"(?m)^(\s+){pattern}", lambda m: m.group(1) + replacement, text)
        if count != 1:
            sys.exit(f"config/canopyd.yaml has no `{pattern}` line to replace")
    path = ARTIFACTS / f"{name or 'canopyd-' + (durability or 'fsync')}.yaml"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def append_jsonl(path, record):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")


def fmt_ms(stats, name):
    value = (stats or {}).get(name)
    return "—" if value is None else f"{value:.2f}"


def fmt_bytes(n):
    if not n:
        return "—"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def summary(record):
    """One screen: what ran, throughput, latencies, server CPU per delivery and memory, errors."""
    load, server = record["load"], record["server"]
    edits, diffs = load.get("edits", {}), load.get("diffs", {})
    cpu = server.get("cpuMicrosPerDelivery")
    lines = [
        f"== {record['scenario']}: {record['label']}",
        f"   edits/s {edits.get('perSecond', 0):,.0f}   diffs/s {diffs.get('perSecond', 0):,.0f}   "
        f"server CPU {'—' if cpu is None else f'{cpu:.1f} µs'}/delivery "
        f"({(server.get('cpuShare') or 0) * 100:.0f}% of a core)   "
        f"RSS {fmt_bytes(server.get('rssPeak'))} peak"
        + (f"   load tool {server['loadToolCpuShare'] * 100:.0f}% of a core"
           if server.get("loadToolCpuShare") is not None else ""),
    ]
    for name in ("ack", "delivery"):
        stats = load.get(name) or {}
        if stats.get("count"):
            lines.append(f"   {name:<8} p50 {fmt_ms(stats, 'p50')}  p99 {fmt_ms(stats, 'p99')}  "
                         f"p99.9 {fmt_ms(stats, 'p999')}  max {fmt_ms(stats, 'max')} ms  (n={stats['count']:,})")
    rejected = edits.get("rejected") or {}
    disconnects = load.get("disconnects") or {}
    connections = load.get("connections") or {}
    problems = []
    if rejected:
        problems.append("rejected " + ", ".join(f"{k} {v}" for k, v in rejected.items()))
    if disconnects:
        problems.append("disconnects " + ", ".join(f"{k} {v}" for k, v in disconnects.items()))
    if connections.get("failed"):
        problems.append(f"failed connections {connections['failed']}")
    if server.get("saturated"):
        problems.append("saturated: the clients received under 95% of what the daemon queued (queues grew); "
                        "CPU per delivery counts what they received")
    lines.append("   " + ("; ".join(problems) if problems else "no rejections, no disconnects"))
    for extra in record.get("notes", []):
        lines.append("   " + extra)
    return "\n".join(lines)
