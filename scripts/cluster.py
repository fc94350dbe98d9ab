#!/usr/bin/env python3
"""A whole Canopy cluster on loopback, to try cluster mode by hand (docs/cluster.md): a NATS JetStream cluster
(scripts/nats-cluster.py: 3 servers, sync_interval: always) and three canopyd in cluster mode, d1, d2 and d3,
with the example trees.

    python3 scripts/cluster.py                 # builds canopyd and canopy (release) if missing; d1-d3 on 7701-7703
    python3 scripts/cluster.py --daemons 5 --port 8001 --dir /tmp/canopy-cluster
    python3 scripts/cluster.py --port 0 --json --exit-on-eof      # free ports; one JSON line once ready

Every daemon serves every tree, and the inspector at http://127.0.0.1:7701/ (7702, 7703 ...): edit in one browser
tab on d1 and watch another on d3. The example trees of config/examples are imported through d1 (as `canopy import
--skip-existing` does) unless --no-examples; the script waits until every daemon serves them. While it runs,
commands on standard input:

    kill d2     kill -9 of a daemon (its trees move to another after lease_seconds)
    stop d2     SIGSTOP (a stale owner)        cont d2     SIGCONT        restart d2   start it again
    nats ...    a command for the NATS servers, as nats-cluster.py takes them: nats kill 1, nats restart 1,
                nats stop 1, nats cont 1, nats leader CANOPY_TREES, nats status
    status      the daemons and the NATS servers                          quit         stop everything

On exit (quit, Ctrl-C, SIGTERM, end of input with --exit-on-eof) every daemon gets SIGTERM, then the NATS servers
are stopped. Without --dir everything lives in a temporary folder that is removed then; with --dir the NATS stores
(and so the trees) and the logs are kept, and a later run on the same folder finds the trees again.
"""

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from clusterlib import ROOT, Daemon, NatsCluster
from loadlib import add_build_arguments, binaries


def port_taken(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
            return False
        except OSError:
            return True


def trees_served(canopy, daemon):
    """The ids of the trees `daemon` lists (canopy ls --json), or None when it does not answer with a list."""
    done = subprocess.run([str(canopy), "ls", "--json", "--url", daemon.url], capture_output=True, text=True)
    lists = [m for m in map(json.loads, done.stdout.splitlines()) if m.get("type") == "trees"]
    if done.returncode != 0 or not lists:
        return None
    return {tree["tree"] for tree in lists[0]["trees"]}


async def import_examples(canopy, daemons, timeout=60):
    """The example trees through the first daemon, then until every daemon lists them; their ids."""
    done = await asyncio.to_thread(
        subprocess.run, [str(canopy), "import", os.path.join(ROOT, "config", "examples"), "--skip-existing",
                         "--url", daemons[0].url], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"canopy import config/examples through {daemons[0].name} failed:\n"
                           f"{done.stdout}{done.stderr}")
    wanted = await asyncio.to_thread(trees_served, canopy, daemons[0])
    if not wanted:
        raise RuntimeError(f"{daemons[0].name} lists no trees after `canopy import config/examples`:\n{done.stdout}")
    deadline = time.monotonic() + timeout
    for daemon in daemons[1:]:
        while not wanted <= (await asyncio.to_thread(trees_served, canopy, daemon) or set()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{daemon.name} does not serve the example trees {timeout} s after their import")
            await asyncio.sleep(0.1)
    return sorted(wanted)


def read_lines(loop, queue):
    """Standard input's lines into `queue`, then "" at its end (a daemon thread: a pending read keeps no one)."""
    try:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, "")
    except RuntimeError:  # the loop is closed: the cluster is being stopped
        pass


def describe(nats, daemons, folder, trees):
    return {
        "nats": nats.urls,
        "daemons": [{"name": d.name, "url": d.url, "inspector": f"http://127.0.0.1:{d.port}/", "pid": d.pid,
                     "running": d.running(), "paused": d.paused, "log": d.log} for d in daemons],
        "trees": trees,
        "folder": folder,
    }


async def command(words, nats, daemons):
    """The answer to one command (its words; not `quit`)."""
    verb, rest = words[0], words[1:]
    if verb == "nats":
        try:
            return json.dumps(await nats.command(" ".join(rest)))
        except RuntimeError as error:
            return f"error: {error}"
    if verb == "status":
        return json.dumps({"daemons": describe(nats, daemons, None, None)["daemons"],
                           "nats": await nats.status()})
    named = {d.name: d for d in daemons}
    if verb in ("kill", "stop", "cont", "restart") and len(rest) == 1 and rest[0] in named:
        daemon = named[rest[0]]
        if verb == "restart":
            if daemon.running():
                return f"error: {daemon.name} is running; kill it first"
            daemon.start()
            try:
                await daemon.wait_ready()
            except RuntimeError as error:
                return f"error: {error}"
        elif not daemon.running():
            return f"error: {daemon.name} is not running (restart {daemon.name})"
        elif verb == "kill":
            daemon.kill9()
        elif verb == "stop":
            daemon.pause()
        else:
            daemon.resume()
        return json.dumps({"ok": verb, "daemon": daemon.name, "pid": daemon.pid})
    return (f"error: unknown command `{' '.join(words)}` (kill dN, stop dN, cont dN, restart dN, nats COMMAND, "
            "status, quit)")


async def run(args, canopyd, canopy, folder):
    nats = NatsCluster(folder, keep=True, servers=args.servers)
    daemons = []
    try:
        started = time.monotonic()
        await nats.start()
        settings = {"server": {"web": "web"}, "examples": {"directory": "config/examples"},
                    "cluster": {"replicas": min(3, args.servers)}}
        for index in range(args.daemons):
            port = args.port + index if args.port else None
            daemons.append(Daemon(f"d{index + 1}", str(canopyd), folder, nats.urls, port=port,
                                  lease_seconds=args.lease_seconds, settings=settings))
        for daemon in daemons:
            daemon.start()
        for daemon in daemons:
            await daemon.wait_ready()
        trees = [] if args.no_examples else await import_examples(canopy, daemons)
        elapsed = time.monotonic() - started
        if args.json:
            print(json.dumps(describe(nats, daemons, folder, trees)), flush=True)
        else:
            print(f"cluster: {len(nats.urls)} NATS servers and {len(daemons)} canopyd ready in {elapsed:.1f} s "
                  f"(files in {folder})")
            for d in daemons:
                print(f"  {d.name}  {d.url}  inspector http://127.0.0.1:{d.port}/  pid {d.pid}  log {d.log}")
            print(f"  NATS  {','.join(nats.urls)}")
            if trees:
                print(f"{len(trees)} example trees, served by every daemon: {', '.join(trees)}")
            print("commands: kill dN, stop dN, cont dN, restart dN, nats COMMAND, status, quit", flush=True)
        lines = asyncio.Queue()
        threading.Thread(target=read_lines, args=(asyncio.get_running_loop(), lines), daemon=True).start()
        while True:
            line = await lines.get()
            if not line:  # end of input
                if args.exit_on_eof:
                    break
                await asyncio.Event().wait()  # no more commands: run until a signal
            words = line.split()
            if words == ["quit"]:
                break
            if words:
                print(await command(words, nats, daemons), flush=True)
    finally:
        for daemon in daemons:
            await daemon.terminate()
        await nats.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daemons", type=int, default=3, help="how many canopyd (1-9, default 3)")
    parser.add_argument("--servers", type=int, default=3, help="how many NATS servers (default 3)")
    parser.add_argument("--port", type=int, default=7701,
                        help="the first daemon's port, the others follow (default 7701); 0 picks free ports")
    parser.add_argument("--lease-seconds", type=int, default=3, help="cluster.lease_seconds (1-60, default 3)")
    parser.add_argument("--no-examples", action="store_true", help="do not import config/examples")
    parser.add_argument("--dir", help="where the NATS stores, configs and logs go (default: a temporary folder, "
                                      "removed on exit)")
    parser.add_argument("--json", action="store_true", help="print the cluster as one JSON line once it is ready")
    parser.add_argument("--exit-on-eof", action="store_true", help="stop the cluster when standard input ends")
    parser.add_argument("--canopyd", help="the canopyd binary (default: the release build, built if missing)")
    parser.add_argument("--canopy", help="the canopy CLI, for the import (default: the release build)")
    add_build_arguments(parser)
    args = parser.parse_args()
    if not 1 <= args.daemons <= 9:
        parser.error("--daemons must be 1...9")
    if not 1 <= args.lease_seconds <= 60:
        parser.error("--lease-seconds must be 1...60")
    if args.port:
        taken = [p for p in range(args.port, args.port + args.daemons) if port_taken(p)]
        if taken:
            parser.error(f"port {taken[0]} is taken (another canopyd or cluster?); --port 0 picks free ports")

    wanted = [name for name in ("canopyd", "canopy") if not getattr(args, name)]
    built = dict(zip(wanted, binaries(args.build_path, args.rebuild, wanted) if wanted else ()))
    canopyd = os.path.abspath(args.canopyd) if args.canopyd else built["canopyd"]
    canopy = os.path.abspath(args.canopy) if args.canopy else built["canopy"]
    temporary = args.dir is None
    folder = tempfile.mkdtemp(prefix="canopy-cluster-") if temporary else os.path.abspath(args.dir)
    os.makedirs(folder, exist_ok=True)

    def on_signal(number, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    status = 0
    try:
        asyncio.run(run(args, canopyd, canopy, folder))
    except KeyboardInterrupt:
        pass
    except RuntimeError as error:
        print(f"cluster: {error}", file=sys.stderr)
        status = 1
    finally:
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
