"""The fuzzer's canary: another client of the same daemon, in its own process (so the fuzzer's Python work does not
delay it), doing one small edit round trip every 50 ms on its own tree. The parent asks for the round trips
measured since it last asked; a p99 far above the pre-fuzzing baseline means the fuzzing hurt other clients."""
import json, multiprocessing, time

import websockets

from websockets.sync.client import connect

TREE = "canary"
PERIOD = 0.05


def _run(url, conn):
    try:
        _loop(url, conn)
    except (OSError, websockets.WebSocketException, TimeoutError):
        pass  # the daemon went away or stopped answering: the parent sees this process end and fails the check


def _loop(url, conn):
    rtts, seq = [], 0
    # No keepalive pings: a daemon busy for 20 s would make the library drop the connection, and the round trips
    # already say whether the daemon answers.
    with connect(url, max_size=None, compression=None, close_timeout=1, ping_interval=None) as ws:
        ws.send(json.dumps({"type": "hello", "client": "canary"}))
        ws.recv(10)
        ws.send(json.dumps({"type": "createTree", "tree": TREE}))
        ws.recv(10)
        conn.send("ready")
        next_at = time.monotonic()
        while True:
            if conn.poll():
                if conn.recv() == "stop":
                    return
                conn.send(rtts)
                rtts = []
            seq += 1
            t0 = time.monotonic()
            ws.send(json.dumps({"type": "edit", "tree": TREE, "seq": seq,
                                "ops": [{"op": "setProps", "node": "root", "props": {"n": seq}}]}))
            while True:  # a round trip that never ends is recorded by the parent as a missing reply
                reply = json.loads(ws.recv(30))
                if reply.get("seq") == seq and reply.get("type") in ("diff", "rejected"):
                    break
            rtts.append((t0, time.monotonic() - t0))
            next_at += PERIOD
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at = max(next_at, time.monotonic() - PERIOD)  # after a stall, do not fire a burst to catch up


class Canary:
    """Starts the canary process on `url` and hands out its round-trip times in windows."""

    def __init__(self, url):
        self.conn, child = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=_run, args=(url, child), daemon=True)
        self.process.start()
        if not self.conn.poll(20) or self.conn.recv() != "ready":
            raise RuntimeError("canary did not start")

    def window(self, timeout=40):
        """(start, round trip) pairs in seconds (time.monotonic, the same clock in every process) since the previous
        call; None if the canary died or stopped answering."""
        if not self.process.is_alive():
            return None
        self.conn.send("window")
        if not self.conn.poll(timeout):
            return None
        return self.conn.recv()

    def stop(self):
        if self.process.is_alive():
            self.conn.send("stop")
            self.process.join(5)
        if self.process.is_alive():
            self.process.terminate()


def p99(values):
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * 0.99))]
