#!/usr/bin/env python3
"""End-to-end test of scripts/cluster.py, the whole loopback cluster people start by hand: two canopyd on three NATS
servers come up with the example trees served by both and the inspector served; a daemon killed and restarted
serves them again; a NATS command goes through; quit stops every process it started and removes its folder.
Usage: cluster_script_smoke.py PATH/TO/canopyd PATH/TO/canopy"""
import json
import os
import subprocess
import sys
import time
import urllib.request

from e2e import ROOT, Checks

check = Checks()


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is gone too
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def trees(cli, url):
    done = subprocess.run([cli, "ls", "--json", "--url", url], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        return None
    return {t["tree"] for line in done.stdout.splitlines() for t in json.loads(line).get("trees", [])}


def main():
    canopyd, cli = map(os.path.abspath, sys.argv[1:3])
    script = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "scripts", "cluster.py"), "--daemons", "2", "--port", "0", "--json",
         "--exit-on-eof", "--canopyd", canopyd, "--canopy", cli],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def ask(command):
        script.stdin.write(command + "\n")
        script.stdin.flush()
        return script.stdout.readline().strip()

    try:
        started = time.monotonic()
        line = script.stdout.readline()
        check("the cluster script prints its cluster once ready", line.startswith("{"), line)
        info = json.loads(line)
        print(f"cluster of {len(info['nats'])} NATS servers and {len(info['daemons'])} canopyd ready in "
              f"{time.monotonic() - started:.1f} s")
        d1, d2 = info["daemons"]
        examples = {os.path.splitext(f)[0] for f in os.listdir(os.path.join(ROOT, "config", "examples"))
                    if f.endswith((".json", ".swift"))}
        check("the example trees are imported", set(info["trees"]) == examples, (info["trees"], examples))
        check("d1 and d2 serve them", trees(cli, d1["url"]) == examples and trees(cli, d2["url"]) == examples)
        with urllib.request.urlopen(d2["inspector"], timeout=5) as page:
            check("the inspector is served by d2", page.status == 200 and b"<html" in page.read().lower())

        answer = json.loads(ask("kill d2"))
        check("kill d2", answer == {"ok": "kill", "daemon": "d2", "pid": d2["pid"]} and not alive(d2["pid"]), answer)
        check("a command for a dead daemon is refused", ask("stop d2").startswith("error: d2 is not running"))
        answer = json.loads(ask("restart d2"))
        check("restart d2", answer["ok"] == "restart" and alive(answer["pid"]), answer)
        check("the restarted d2 serves every example tree", trees(cli, d2["url"]) == examples)
        status = json.loads(ask("nats status"))
        check("nats status reaches the NATS servers", len(status.get("servers", [])) == 3, status)
        check("an unknown command is named", ask("frobnicate").startswith("error: unknown command `frobnicate`"))
        pids = [d1["pid"], answer["pid"]] + [s["pid"] for s in status["servers"]]

        script.stdin.write("quit\n")
        script.stdin.close()
        code = script.wait(60)
        check("quit: the script exits 0", code == 0, code)
        check("quit: no daemon or NATS server is left", not any(alive(p) for p in pids), pids)
        check("quit: its temporary folder is removed", not os.path.exists(info["folder"]), info["folder"])
    finally:
        if script.poll() is None:
            script.kill()
            script.wait()
    check.finish("cluster script")


if __name__ == "__main__":
    main()
