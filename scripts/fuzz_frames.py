"""Frame-level cases for the fuzzer: a WebSocket client written over a raw socket (RFC 6455), so frames can be
fragmented, interleaved with control frames, unmasked, mis-sized or closed with bad codes.

A case is a list of steps: ("send", bytes) writes bytes as they are; ("probe",) then sends a valid `listTrees` and
waits for its reply or for the connection to end. The daemon may close on any violation; what counts is that it
answers or closes (a connection left hanging is reported) and that it stays alive and fast (checked elsewhere)."""
import asyncio, base64, os, struct

OP_CONT, OP_TEXT, OP_BIN, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


def frame(opcode, payload, fin=True, mask=True, rsv=0, length=None, key=b"\x11\x22\x33\x44"):
    """One frame; `length` overrides the length field (a lie about the payload), `mask=False` sends it in clear."""
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    m = 0x80 if mask else 0
    if n < 126:
        head += bytes([m | n])
    elif n < 65536:
        head += bytes([m | 126]) + struct.pack(">H", n)
    else:
        head += bytes([m | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def close_payload(code, reason=b""):
    return (struct.pack(">H", code) if code is not None else b"") + reason


class FrameCases:
    """Draws frame-level cases from the fuzzer's random generator."""

    def __init__(self, rng):
        self.rng = rng

    def text(self, s=None):
        return (s or '{"type":"listTrees","rid":"f"}').encode()

    def case(self):
        r, rng = self.rng, self.rng
        msg = self.text()
        kind = rng.choice(["fragmented", "control_between", "bad_continuation", "unmasked", "rsv", "opcode",
                           "big_ping", "fragmented_ping", "close_code", "bad_length", "truncated", "binary",
                           "invalid_utf8", "many_fragments", "pong", "empty"])
        steps = []
        if kind == "fragmented":
            cut = sorted(r.sample(range(1, len(msg)), 2))
            steps = [frame(OP_TEXT, msg[:cut[0]], fin=False), frame(OP_CONT, msg[cut[0]:cut[1]], fin=False),
                     frame(OP_CONT, msg[cut[1]:])]
        elif kind == "control_between":
            cut = r.randrange(1, len(msg))
            steps = [frame(OP_TEXT, msg[:cut], fin=False), frame(r.choice([OP_PING, OP_PONG]), b"hi"),
                     frame(OP_CONT, msg[cut:])]
        elif kind == "bad_continuation":
            steps = r.choice([[frame(OP_CONT, msg)],                                   # no message to continue
                              [frame(OP_TEXT, msg[:5], fin=False), frame(OP_TEXT, msg)],  # new message mid-way
                              [frame(OP_TEXT, msg[:5], fin=False), frame(OP_BIN, msg)]])
        elif kind == "unmasked":
            steps = [frame(OP_TEXT, msg, mask=False)]
        elif kind == "rsv":
            steps = [frame(OP_TEXT, msg, rsv=r.randrange(1, 8))]
        elif kind == "opcode":
            steps = [frame(r.choice([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), msg)]
        elif kind == "big_ping":
            steps = [frame(OP_PING, b"p" * r.choice([125, 126, 1000, 70000]))]
        elif kind == "fragmented_ping":
            steps = [frame(OP_PING, b"ab", fin=False), frame(OP_CONT, b"cd")]
        elif kind == "close_code":
            code = r.choice([1000, 1001, 1002, 1005, 1006, 1015, 999, 0, 1004, 2999, 3000, 4999, 5000, 65535, None])
            payload = close_payload(code, r.choice([b"", b"bye", b"\xff\xfe", b"r" * 123, b"r" * 200]))
            if r.random() < 0.2:
                payload = b"\x03"  # a 1-byte close payload
            steps = [frame(OP_CLOSE, payload[:125] if r.random() < 0.7 else payload)]
        elif kind == "bad_length":
            claimed = r.choice([len(msg) + 10, 2**63 - 1, 2**63, 2**64 - 1, 70000, 126])
            try:
                steps = [frame(OP_TEXT, msg, length=claimed)]
            except struct.error:
                steps = [frame(OP_TEXT, msg, length=2**64 - 1)]
            if r.random() < 0.5:
                steps.append(b"\x00" * 64)
            return kind, [("send", s) for s in steps]  # nothing to probe: the daemon may wait for the rest
        elif kind == "truncated":
            f = frame(OP_TEXT, msg)
            return kind, [("send", f[: r.randrange(1, len(f))])]
        elif kind == "binary":
            steps = [frame(OP_BIN, msg)]
        elif kind == "invalid_utf8":
            bad = r.choice([b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xff"])
            body = b'{"type":"listTrees","rid":"' + bad + b'"}'
            if r.random() < 0.5:  # split inside the bad sequence, across fragments
                steps = [frame(OP_TEXT, body[:27], fin=False), frame(OP_CONT, body[27:])]
            else:
                steps = [frame(OP_TEXT, body)]
        elif kind == "many_fragments":
            big = self.text('{"type":"listTrees","rid":"' + "z" * r.choice([10, 5000, 100000]) + '"}')
            size = r.choice([1, 7, 4096])
            parts = [big[i:i + size] for i in range(0, len(big), size)][:3000]
            if len(parts) > 1:
                steps = [frame(OP_TEXT, parts[0], fin=False)] + \
                        [frame(OP_CONT, p, fin=False) for p in parts[1:-1]] + [frame(OP_CONT, parts[-1])]
            else:
                steps = [frame(OP_TEXT, big)]
        elif kind == "pong":
            steps = [frame(OP_PONG, b"unsolicited")]
        else:
            steps = [frame(OP_TEXT, b"")]
        return kind, [("send", b"".join(steps)), ("probe",)]


async def handshake(host, port):
    """Opens a connection and upgrades it; returns (reader, writer)."""
    reader, writer = await asyncio.open_connection(host, port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Sec-WebSocket-Protocol: canopy.v1\r\n\r\n").encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise ConnectionError(f"upgrade refused: {head[:80]!r}")
    return reader, writer


async def read_frame(reader):
    """(opcode, payload) of the next server frame; raises IncompleteReadError at the end of the stream."""
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", await reader.readexactly(8))[0]
    key = await reader.readexactly(4) if b1 & 0x80 else None
    payload = await reader.readexactly(n)
    if key:
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return b0 & 0x0F, payload


async def run_case(host, port, steps, timeout):
    """Runs one frame case. Returns (outcome, detail): outcome is "answered", "closed" (a close frame or the end of
    the stream: fine), "sent" (no probe asked) or "hung" (neither answered nor closed within `timeout`)."""
    reader, writer = await handshake(host, port)
    try:
        for step in steps:
            if step[0] == "send":
                writer.write(step[1])
                await writer.drain()
                continue
            writer.write(frame(OP_TEXT, b'{"type":"listTrees","rid":"probe"}'))
            await writer.drain()
            deadline = asyncio.get_running_loop().time() + timeout
            while True:
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    return "hung", "no reply and no close"
                try:
                    op, payload = await asyncio.wait_for(read_frame(reader), left)
                except (asyncio.IncompleteReadError, ConnectionError):
                    return "closed", "end of stream"
                except asyncio.TimeoutError:
                    return "hung", "no reply and no close"
                if op == OP_CLOSE:
                    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                    return "closed", f"close {code}"
                if op == OP_TEXT and b'"probe"' in payload:
                    return "answered", ""
        return "sent", ""
    except (ConnectionError, asyncio.IncompleteReadError) as e:
        return "closed", repr(e)
    finally:
        writer.close()
