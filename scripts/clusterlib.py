"""Processes of a loopback cluster, shared by scripts/cluster.py, scripts/cluster-bench.py and
Tests/e2e/cluster_test.py: the NATS servers (scripts/nats-cluster.py as a child) and canopyd daemons in cluster
mode, each with its own config file, port, data directory and log.

Every daemon gets PR_SET_PDEATHSIG and the NATS script --exit-on-eof, so nothing started here outlives the
script that started it, even when that script is killed.
"""

import asyncio
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from loadlib import free_port_in

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent():
    """In the child before exec: SIGKILL when the parent dies (PR_SET_PDEATHSIG), so no daemon outlives it."""
    _libc.prctl(1, signal.SIGKILL)


def free_port():
    """A free loopback port in 10000-19999: below Linux's ephemeral range (so no outgoing connection takes it
    before the daemon binds it) and apart from the range nats-cluster.py hands out (20000-32000)."""
    return free_port_in(10000, 20000)


def http_status(port, path="/healthz"):
    """The status of GET http://127.0.0.1:port/path, or None when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError, OSError, ValueError):
        return None


def tail(path, lines):
    """The last `lines` lines of a log, indented, for an error message."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode(errors="replace").splitlines()
    except OSError as error:
        return f"  ({path}: {error})"
    return "\n".join("  | " + line for line in text[-lines:])


class NatsCluster:
    """scripts/nats-cluster.py as a child: its JSON description, and its commands on standard input."""

    def __init__(self, folder, keep=False, servers=3):
        self.folder = folder  # where its stderr goes, and (with `keep`) the servers' stores and logs
        self.keep = keep
        self.servers = servers
        self.process = None
        self.info = None
        self.lock = asyncio.Lock()
        self.stderr_path = os.path.join(folder, "nats-cluster.stderr")

    async def start(self, timeout=60):
        args = [sys.executable, os.path.join(ROOT, "scripts", "nats-cluster.py"), "--json", "--exit-on-eof",
                "--servers", str(self.servers)]
        if self.keep:
            args += ["--dir", os.path.join(self.folder, "nats")]
        with open(self.stderr_path, "ab") as stderr:
            self.process = await asyncio.create_subprocess_exec(*args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                                stderr=stderr, cwd=ROOT)
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError("nats-cluster.py exited before the cluster was ready (bash scripts/setup.sh --test "
                               "installs nats-server):\n" + tail(self.stderr_path, 20))
        self.info = json.loads(line)
        return self.info

    @property
    def urls(self):
        return self.info["urls"]

    async def command(self, text, timeout=90):
        """One command; its answer (JSON). An `error: ...` answer raises."""
        async with self.lock:
            self.process.stdin.write((text + "\n").encode())
            await self.process.stdin.drain()
            line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"nats-cluster.py ended on `{text}`:\n" + tail(self.stderr_path, 20))
        answer = line.decode().strip()
        if answer.startswith("error"):
            raise RuntimeError(f"nats-cluster.py `{text}`: {answer}")
        return json.loads(answer)

    async def leader(self, stream):
        """The index (1...) of the server leading `stream`, or None."""
        name = (await self.command(f"leader {stream}")).get("leader")
        return int(name[1:]) if name and re.fullmatch(r"n\d+", name) else None

    async def status(self):
        """The servers and the meta leader, as `status` answers."""
        return await self.command("status")

    async def stop(self):
        if self.process is None or self.process.returncode is not None:
            return
        try:
            self.process.stdin.write(b"quit\n")
            await self.process.stdin.drain()
            self.process.stdin.close()
            await asyncio.wait_for(self.process.wait(), 15)
        except (asyncio.TimeoutError, OSError, ConnectionError):
            self.process.terminate()  # SIGTERM: the script kills its servers
            try:
                await asyncio.wait_for(self.process.wait(), 15)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()


class Daemon:
    """One canopyd: its config file, port, data directory and log (kept across restarts). With `nats_urls` it runs
    in cluster mode under `name`. `settings` adds to or overrides the config's sections, e.g.
    {"log": {"level": "debug"}}; by default it serves no files and loads no examples."""

    def __init__(self, name, binary, folder, nats_urls=None, port=None, lease_seconds=3, settings=None):
        self.name, self.binary = name, binary
        self.port = port or free_port()
        self.data = os.path.join(folder, name)
        self.config = os.path.join(folder, f"{name}.yaml")
        self.log = os.path.join(folder, f"{name}.log")
        self.process = None
        self.paused = False
        self.starts = 0
        sections = {"server": {"port": self.port, "web": ""}, "storage": {"data": self.data},
                    "examples": {"directory": ""}}
        if nats_urls is not None:
            sections["cluster"] = {"servers": list(nats_urls), "name": name, "lease_seconds": lease_seconds}
        for section, values in (settings or {}).items():
            sections.setdefault(section, {}).update(values)
        with open(self.config, "w") as f:  # JSON flow mappings are YAML
            f.writelines(f"{section}: {json.dumps(values)}\n" for section, values in sections.items())

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self):
        return self.process.pid if self.process else None

    def running(self):
        return self.process is not None and self.process.poll() is None

    def alive(self):
        """Running and not SIGSTOPped: worth connecting to."""
        return self.running() and not self.paused

    def start(self):
        self.starts += 1
        with open(self.log, "ab") as log:
            log.write(f"\n===== start {self.starts} of {self.name} "
                      f"(port {self.port}) at {time.strftime('%H:%M:%S')} =====\n".encode())
            log.flush()
            self.process = subprocess.Popen([self.binary, "--config", self.config], cwd=ROOT, stdin=subprocess.DEVNULL,
                                            stdout=log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        self.paused = False

    async def wait_ready(self, timeout=60):
        """Until GET /healthz answers 200; raises if the process exits first or at the deadline."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running():
                raise RuntimeError(f"{self.name} exited with {self.process.returncode} before it was ready:\n"
                                   + tail(self.log, 25))
            if await asyncio.to_thread(http_status, self.port) == 200:
                return
            await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name} not ready (GET /healthz 200) within {timeout:.0f} s:\n" + tail(self.log, 25))

    def kill9(self):
        if self.running():
            os.kill(self.process.pid, signal.SIGCONT)  # harmless, and a stopped process dies on SIGKILL anyway
            self.process.kill()
        if self.process:
            self.process.wait()
        self.paused = False

    def pause(self):
        os.kill(self.process.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self):
        os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False

    async def terminate(self, timeout=15):
        """SIGTERM; the exit code, or None if it had to be killed after `timeout` seconds."""
        if not self.running():
            return self.process.returncode if self.process else None
        if self.paused:
            self.resume()  # a stopped process handles SIGTERM only once it runs again
        self.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return self.process.returncode
            await asyncio.sleep(0.02)
        self.kill9()
        return None
