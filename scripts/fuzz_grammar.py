"""Message shapes of the canopyd protocol (../shared/PROTOCOL.md, docs/protocol.md) for the fuzzer, and the
mutators applied to them. Everything is drawn from one `random.Random`, so a seed always yields the same cases.

A message is built as a Python value, then written by `encode`, a JSON writer of our own that can also produce
what `json.dumps` cannot: duplicate keys, numbers spelled `00`/`1.`/`-01`, lone surrogate escapes."""
import json

MAX_MESSAGE = 1_048_576      # canopyd's default limits.max_message_bytes
MAX_JSON_DEPTH = 800          # limits.max_json_depth
MAX_TREE_DEPTH = 256          # limits.max_tree_depth

# Trees the fuzzer creates, observes and replays; they are never deleted on purpose. Scratch trees are created
# and deleted by cases and are not replayed.
FUZZ_TREES = ["fz0", "fz1", "fz2"]
SCRATCH_TREES = ["tmp-a", "tmp-b", "tmp.c", "tmp_d"]

# One key per reducer of SEMANTICS.md §5, with its default and the kind of value it takes.
KEYS = [
    ("Last", "last", 0, "any"), ("First", "first", 0, "any"), ("Sum", "sum", 0, "num"), ("Max", "max", 0, "num"),
    ("Min", "min", 0, "num"), ("And", "and", True, "bool"), ("Or", "or", False, "bool"),
    ("App", "append", [], "arr"), ("Mrg", "merge", {}, "obj"), ("FNN", "firstNonNull", None, "any"),
    ("Pri", "priority", None, "pri"), ("Nest", "nest", "", "str"),
]
KEY_KIND = {k: kind for k, _, _, kind in KEYS}
REDUCERS = [r for _, r, _, _ in KEYS] + ["nope", "", "LAST"]
MESSAGE_TYPES = ["hello", "listTrees", "createTree", "deleteTree", "subscribe", "unsubscribe", "edit", "probe",
                 "history"]
ODD_UNICODE = ["é", "e\u0301", "\u200b", "\ufeff", "𝔘", "🌲", "\u202e", "\u0000", "\ud7ff", "\ue000", "\uffff",
               "ǅ", "ﬃ", "\u2028", "\\", "\"", "/", "\t", "\u007f", "İ", "Å", "Å"]
EDGE_NUMBERS = [0, -0.0, 1, -1, 2**31 - 1, 2**31, 2**53, 2**53 + 1, 2**63 - 1, -2**63, 1.5, -1e-300, 1e300,
                0.1, 123456789.125, 5e-324, 1.7976931348623157e308]
# Spellings JSON forbids or that sit at an edge: the raw text is written as is.
RAW_NUMBERS = ["00", "-01", "1.", "0.", "1.e5", "01.5", "+1", ".5", "1e", "-", "0x10", "1e400", "-1e400",
               "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1E2", "-0", "0e0",
               "1e-400", "NaN", "Infinity", "-Infinity", "123456789012345678901234567890"]
INVALID_UTF8 = [b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xff", b"\x80", b"\xe2\x82", b"\xf0\x9f",
                b"\xc3", b"\xed\xbf\xbf", b"\xf8\x88\x80\x80\x80"]


class Raw:
    """Text written verbatim by `encode` (a number spelling `json` would refuse)."""
    def __init__(self, text):
        self.text = text


class Pairs:
    """An object written with its pairs in order, duplicates kept."""
    def __init__(self, pairs):
        self.pairs = pairs


def encode(value):
    """Writes `value` as JSON text; `Raw` and `Pairs` as they are, everything else as `json.dumps` would."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs):
        return "{" + ",".join(json.dumps(k) + ":" + encode(v) for k, v in value.pairs) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + encode(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    if isinstance(value, str):
        # Raw UTF-8 where it can be; a lone surrogate can only travel as an escape (\udXXX).
        try:
            value.encode("utf-8")
            return json.dumps(value, ensure_ascii=False)
        except UnicodeEncodeError:
            return json.dumps(value)
    return json.dumps(value)


class Grammar:
    """Draws valid protocol messages; node ids come from small pools so that edits often apply."""

    def __init__(self, rng):
        self.rng = rng
        self.serial = 0
        # Ids a tree may hold: a small pool (so inserts, moves and removes meet existing nodes) plus odd ones.
        self.pool = [f"n{i}" for i in range(24)] + ["ü", "n\u0301", "🌲x", "a b", "x" * 200, "\u202eevil"]
        self.extra = {t: [] for t in FUZZ_TREES}  # ids of big inserted subtrees, so removes can find them
        # Ids this generator inserted into each fuzz tree (whether the daemon accepted them or not), so that edits
        # often name nodes that exist without the cases depending on the daemon's answers.
        self.known = {t: ["root", "n0"] for t in FUZZ_TREES}

    def new_epoch(self):
        """The fuzzed trees were created afresh: forget the nodes inserted into them."""
        self.extra = {t: [] for t in FUZZ_TREES}
        self.known = {t: ["root", "n0"] for t in FUZZ_TREES}

    # -- values ------------------------------------------------------------------------------------------------
    def string(self, short=False):
        r = self.rng.random()
        if r < 0.5:
            return "s" + str(self.rng.randrange(1000))
        if r < 0.98 or short:
            return "".join(self.rng.choice(ODD_UNICODE) for _ in range(self.rng.randrange(1, 6)))
        # Rare: big values stay in the trees, and every subscribe then encodes them again (docs/security.md).
        return self.rng.choice(["x", "é", "🌲"]) * self.rng.choice([1000, 30000])

    def number(self):
        return self.rng.choice(EDGE_NUMBERS) if self.rng.random() < 0.5 else self.rng.randrange(-100, 100)

    def value(self, depth=0):
        r = self.rng.random()
        if depth > 3 or r < 0.3:
            return self.number()
        if r < 0.5:
            return self.string()
        if r < 0.6:
            return self.rng.choice([True, False, None])
        if r < 0.8:
            return [self.value(depth + 1) for _ in range(self.rng.randrange(4))]
        return {self.string(short=True): self.value(depth + 1) for _ in range(self.rng.randrange(4))}

    def value_for(self, key):
        """A value of the kind `key`'s reducer takes, and now and then one it does not (type_mismatch)."""
        kind = KEY_KIND.get(key, "any")
        if self.rng.random() < 0.1 or kind == "any":
            return self.value()
        return {"num": self.number, "bool": lambda: self.rng.random() < 0.5,
                "arr": lambda: [self.value(2) for _ in range(self.rng.randrange(3))],
                "obj": lambda: {self.string(True): self.number() for _ in range(self.rng.randrange(3))},
                "str": lambda: self.string(short=True),
                "pri": lambda: self.rng.choice([None, {"priority": self.number(), "content": self.string(True)}]),
                }[kind]()

    def key(self):
        return self.rng.choice([k for k, _, _, _ in KEYS] + ["Undeclared", "K" + str(self.rng.randrange(4))])

    def node_id(self, tree=None):
        extra = self.extra.get(tree) or []
        if extra and self.rng.random() < 0.2:
            return self.rng.choice(extra)
        if tree in self.known and self.rng.random() < 0.85:
            return self.rng.choice(self.known[tree][-40:])
        return self.rng.choice(self.pool) if self.rng.random() < 0.95 else self.string(short=True)

    def fresh_id(self):
        self.serial += 1
        return f"g{self.serial}"

    # -- nodes and modifiers -----------------------------------------------------------------------------------
    def modifier(self, depth):
        k = self.rng.random()
        key = self.key()
        if k < 0.35:
            return {"kind": "preference", "key": key, "value": self.value_for(key)}
        if k < 0.5:
            t = self.rng.choice(["add", "multiply", "append", "merge", "set", "reduce", "bogus"])
            arg = {"add": self.number, "multiply": self.number, "append": lambda: [self.number()],
                   "merge": lambda: {"m": self.number()}, "set": lambda: self.value_for(key),
                   "reduce": lambda: self.value_for(key), "bogus": self.value}[t]()
            return {"kind": "transformPreference", "key": key, "transform": {t: arg}}
        if k < 0.7:
            return {"kind": "onPreferenceChange", "key": key}
        if k < 0.8 and depth < 4:
            return {"kind": self.rng.choice(["background", "overlay"]), "node": self.node(depth + 1)}
        return {"kind": self.rng.choice(["padding", "frame", "x"]), "args": {"v": self.value(2)}}

    def node(self, depth=0, node_id=None):
        n = {"id": node_id or (self.node_id() if self.rng.random() < 0.7 else self.fresh_id()),
             "type": self.rng.choice(["VStack", "Text", "Group", "Root", ""])}
        if self.rng.random() < 0.5:
            n["props"] = {self.rng.choice(["title", "spacing", "é", "x"]): self.value(2)}
        if self.rng.random() < 0.6:
            n["modifiers"] = [self.modifier(depth) for _ in range(self.rng.randrange(1, 4))]
        if depth < 3 and self.rng.random() < 0.3:
            n["children"] = [self.node(depth + 1) for _ in range(self.rng.randrange(1, 3))]
        return n

    def chain(self, depth, tree):
        """A subtree `depth` levels deep (for max_tree_depth), its root's id remembered for later removes."""
        ids = [self.fresh_id() for _ in range(depth)]
        node = {"id": ids[-1], "type": "Text", "modifiers": [{"kind": "preference", "key": "Sum", "value": 1}]}
        for i in reversed(ids[:-1]):
            node = {"id": i, "type": "VStack", "children": [node]}
        if tree in self.extra:
            self.extra[tree].append(ids[0])
        return node

    def keys_decl(self):
        return [{"key": k, "reducer": r, "default": d} for k, r, d, _ in KEYS]

    # -- ops and messages --------------------------------------------------------------------------------------
    def position(self, tree):
        r = self.rng.random()
        if r < 0.3:
            return {}
        if r < 0.6:
            return {"index": self.rng.choice([0, 1, 2, -1, 99, 2**63 - 1])}
        return {self.rng.choice(["after", "before"]): self.node_id(tree)}

    def op(self, tree):
        kind = self.rng.choice(["insert"] * 4 + ["remove"] * 2 + ["move", "setProps", "setModifiers",
                                "setPreference", "setPreference", "removePreference", "declareKey"])
        # Keep the trees from growing without end: every subscribe encodes the whole tree on the service thread,
        # so a tree grown over 10,000 cases made storms, not the cases, what the canary measured (docs/fuzzing.md).
        if len(self.known.get(tree, ())) > 40 and self.rng.random() < 0.5:
            victim = self.rng.choice(self.known[tree][2:])
            self.known[tree].remove(victim)
            if victim in self.extra[tree]:
                self.extra[tree].remove(victim)
            return {"op": "remove", "node": victim}
        if kind == "insert":
            parent = "root" if self.rng.random() < 0.6 else self.node_id(tree)
            node = self.node() if self.rng.random() < 0.97 else self.chain(self.rng.choice([20, 120, 254]), tree)
            if tree in self.known and node["id"] not in self.known[tree]:
                self.known[tree].append(node["id"])
            return {"op": "insert", "parent": parent, "node": node, **self.position(tree)}
        if kind == "remove":
            victim = self.node_id(tree) if self.rng.random() < 0.95 else "root"
            if victim != "root" and victim in self.known.get(tree, []):
                self.known[tree].remove(victim)
            if victim in self.extra.get(tree, []):
                self.extra[tree].remove(victim)
            return {"op": "remove", "node": victim}
        if kind == "move":
            return {"op": "move", "node": self.node_id(tree), "parent": self.node_id(tree), **self.position(tree)}
        if kind == "setProps":
            return {"op": "setProps", "node": self.node_id(tree),
                    "props": {self.rng.choice(["title", "x", "é"]): self.rng.choice([None, self.value()])}}
        if kind == "setModifiers":
            return {"op": "setModifiers", "node": self.node_id(tree),
                    "modifiers": [self.modifier(1) for _ in range(self.rng.randrange(0, 3))]}
        if kind == "setPreference":
            key = self.key()
            return {"op": "setPreference", "node": self.node_id(tree), "key": key, "value": self.value_for(key)}
        if kind == "removePreference":
            return {"op": "removePreference", "node": self.node_id(tree), "key": self.key()}
        k, r, d, _ = self.rng.choice(KEYS)
        if self.rng.random() < 0.5:  # a new key, so declared keys never change meaning under old writers
            return {"op": "declareKey", "key": "K" + str(self.rng.randrange(4)), "reducer": self.rng.choice(REDUCERS),
                    "default": self.value()}
        return {"op": "declareKey", "key": k, "reducer": r, "default": d}

    def tree(self, scratch=False):
        r = self.rng.random()
        if scratch or r < 0.1:
            return self.rng.choice(SCRATCH_TREES)
        if r < 0.95:
            return self.rng.choice(FUZZ_TREES)
        return self.rng.choice(["nosuch", "", "a" * 129, "a/b", "é", "x" * 128])

    def rid(self):
        return self.rng.choice(["r1", 7, -1, 2**63 - 1, 1.5, "", "é🌲", None, True, [], {}, {"a": 1}, [1], "x" * 300])

    def message(self):
        """One valid-looking message (most are valid; some carry values the daemon must refuse)."""
        t = self.rng.choice(["edit"] * 10 + ["subscribe"] * 2 + ["probe", "history", "listTrees", "unsubscribe",
                            "hello", "createTree", "deleteTree", "unknown", "layout"])
        if t == "layout":
            return self.layout_message()
        m = {"type": t}
        if t == "edit":
            tree = self.tree()
            m.update(tree=tree, seq=self.rng.choice([self.rng.randrange(1, 10**6), 0, -1, 2**63 - 1]),
                     ops=[self.op(tree) for _ in range(self.rng.choice([1, 1, 1, 2, 3, 4]))])
        elif t == "subscribe":
            m["tree"] = self.tree()
            if self.rng.random() < 0.5:
                m["since"] = self.rng.choice([0, 1, 5, 50, -1, 2**63 - 1, 3.0, 2.5, 1e300])
            if self.rng.random() < 0.3:
                m["trace"] = self.rng.random() < 0.7
        elif t in ("probe",):
            m.update(tree=self.tree(), node=self.node_id(), key=self.key())
        elif t == "history":
            m.update(tree=self.tree(), **{f: self.rng.choice([0, 1, 10, -5, 2**63 - 1]) for f in ("from", "to")
                                          if self.rng.random() < 0.6})
        elif t == "unsubscribe":
            m["tree"] = self.tree()
        elif t == "hello":
            m["client"] = self.rng.choice(["fuzzer", "é🌲", "", "x" * 5000, "\u202e", "c" + str(self.rng.randrange(5))])
        elif t == "createTree":
            m.update(tree=self.tree(scratch=True), keys=self.keys_decl()[: self.rng.randrange(len(KEYS) + 1)])
            if self.rng.random() < 0.7:
                m["root"] = self.node(node_id="root")
            if self.rng.random() < 0.3:
                m["title"] = self.string()
        elif t == "deleteTree":
            m["tree"] = self.tree(scratch=True)
        else:
            m["type"] = self.rng.choice(["", "Hello", "edits", "é", "x" * 1000, "snapshot", "diff"])
        if self.rng.random() < 0.3:
            m["rid"] = self.rid()
        return m

    def canvas(self):
        """A canvas for a program tree (LAYOUT.md §2): valid sizes and devices, and every kind of bad value."""
        bad_number = self.rng.choice([-1, -0.5, 1e300, 100001, "393", None, True, [], {}, float("nan"), float("inf")])
        r = self.rng.random()
        if r < 0.3:
            return {"width": self.rng.choice([0, 1, 200, 393, 100000]), "height": self.rng.choice([0, 200, 852])}
        if r < 0.45:
            return {"device": self.rng.choice(["iPhone 15", "iPhone SE", "iPad", "Mac window", "Nokia", "", 3, None])}
        if r < 0.6:
            return {"width": 200, "height": 200, "scale": self.rng.choice([1, 2, 3, 0, 5, 2.5, -1, "3"]),
                    "safeArea": self.rng.choice([{"top": 10}, {"top": 300}, {"left": 1}, {"top": -1}, [], None])}
        if r < 0.8:
            return {"width": bad_number, "height": 200}
        return self.rng.choice([None, [], "393x852", 7, {}, {"width": 1}, {"height": 2, "extra": 1}])

    # A program tree whose ScrollView's content reports its global minY: a scroll runs geometry to a fixed point.
    PROGRAM = ("import SwiftUI\n"
               "struct Y: PreferenceKey {\n    static var defaultValue: CGFloat = 0\n"
               "    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) { value = nextValue() }\n}\n"
               "struct ContentView: View {\n    @State var y: CGFloat = 0\n    var body: some View {\n"
               "        ScrollView {\n            Color.red.frame(height: 900).background(GeometryReader { p in\n"
               "                Color.clear.preference(key: Y.self, value: p.frame(in: .global).minY)\n            })\n"
               "        }\n        .onPreferenceChange(Y.self) { y = $0 }\n    }\n}\n")
    SCROLL_VIEW = "ContentView/0:ScrollView"

    def layout_message(self):
        """A program tree made with a canvas, or a resize or scroll event on one, with good and bad values."""
        tree = self.rng.choice(SCRATCH_TREES)
        r = self.rng.random()
        if r < 0.3:
            m = {"type": "createTree", "tree": tree, "source": self.PROGRAM}
            if self.rng.random() < 0.8:
                m["canvas"] = self.canvas()
            return m
        seq = self.rng.randrange(1, 10**6)
        if r < 0.6:
            return {"type": "event", "tree": tree, "seq": seq, "event": "resize", "value": self.canvas()}
        node = self.rng.choice([self.SCROLL_VIEW] * 4 + ["ContentView", "nosuch", None, 5])
        value = self.rng.choice([{"x": 0, "y": self.rng.choice([0, 120, 5000, -50, 1e300, -1e300])}, {"y": "far"},
                                 {"x": float("nan")}, None, [], 3, {}])
        return {"type": "event", "tree": tree, "seq": seq, "node": node, "event": "scroll", "value": value}

    def storm(self, tree):
        """A burst of subscribe/unsubscribe/re-hello on one tree (presence and subscription bookkeeping)."""
        out = []
        # At most 15: each subscribe encodes a snapshot, and longer storms re-measured the read amplification
        # already reported (docs/security.md) instead of exploring.
        for i in range(self.rng.randrange(5, 16)):
            r = self.rng.random()
            if r < 0.45:
                out.append({"type": "subscribe", "tree": tree, "rid": i})
            elif r < 0.9:
                out.append({"type": "unsubscribe", "tree": tree, "rid": i})
            else:
                out.append({"type": "hello", "client": "storm" + str(self.rng.randrange(3)), "rid": i})
        return out

    def limit_case(self, tree):
        """Messages at the size and depth limits."""
        r = self.rng.random()
        if r < 0.35:  # a message of the maximum size, one byte under or over it
            # The batch clears the value again: a tree holding 1 MiB makes every later subscribe (storms) cost a
            # 1 MiB snapshot, which measures snapshot encoding rather than the daemon's robustness (docs/fuzzing.md).
            # Three in four name a node that does not exist, so the batch is parsed in full and then rejected: an
            # accepted one stays in the tree's diff log, and every later `history` re-encodes it (docs/security.md).
            target = MAX_MESSAGE + self.rng.choice([-1, 0, 1, -100])
            node = "root" if self.rng.random() < 0.25 else "no-such-node"
            head = {"type": "edit", "tree": tree, "seq": self.rng.randrange(10**6),
                    "ops": [{"op": "setProps", "node": node, "props": {"big": ""}},
                            {"op": "setProps", "node": node, "props": {"big": None}}]}
            pad = target - len(encode(head).encode())
            head["ops"][0]["props"]["big"] = "y" * max(0, pad)
            return head
        if r < 0.7:  # JSON nesting around max_json_depth (the message's own levels count: 5 here)
            depth = MAX_JSON_DEPTH + self.rng.choice([-6, -5, -4, 0, 1, 100])
            return Raw('{"type":"edit","tree":"%s","seq":1,"ops":[{"op":"setProps","node":"root","props":{"d":%s%s}}]}'
                       % (tree, "[" * depth, "]" * depth))
        depth = MAX_TREE_DEPTH + self.rng.choice([-2, -1, 0, 1, 5])
        return {"type": "edit", "tree": tree, "seq": self.rng.randrange(10**6),
                "ops": [{"op": "insert", "parent": "root", "node": self.chain(depth, tree)}]}


class Mutator:
    """Damages a message: structurally (type swaps, duplicate keys, odd numbers, huge or deep values) or as bytes
    (flips, truncation, invalid UTF-8). Returns str or bytes."""

    def __init__(self, rng, grammar):
        self.rng = rng
        self.g = grammar

    def _paths(self, v, path=()):
        yield path
        if isinstance(v, dict):
            for k, x in v.items():
                yield from self._paths(x, path + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                yield from self._paths(x, path + (i,))

    def _replace(self, v, path, new):
        if not path:
            return new
        v[path[0]] = self._replace(v[path[0]], path[1:], new)
        return v

    def structural(self, msg):
        paths = list(self._paths(msg))[1:]
        if not paths:
            return msg
        path = self.rng.choice(paths)
        r = self.rng.random()
        if r < 0.4:  # type swap
            new = self.rng.choice([None, True, 0, -1, 2**63, "", "x", [], {}, [[]], {"a": {}}, 1.5, Raw("1e400")])
        elif r < 0.6:
            new = Raw(self.rng.choice(RAW_NUMBERS))
        elif r < 0.7:
            new = self.rng.choice(["z" * self.rng.choice([10**4, 10**5, 500_000]), "\ud800", "a\udfffb",
                                   "\u0000id", "e\u0301"])
        elif r < 0.8:
            d = self.rng.choice([50, 300, 799, 801, 2000])
            new = Raw("[" * d + "]" * d if self.rng.random() < 0.5 else '{"a":' * d + "1" + "}" * d)
        elif r < 0.9 and isinstance(msg, dict):  # duplicate keys, at the top or one level down
            pairs = list(msg.items())
            k, v = self.rng.choice(pairs)
            dup = self.rng.choice([v, "other", 1, None])
            return Pairs(pairs + [(k, dup)] if self.rng.random() < 0.5 else [(k, dup)] + pairs)
        else:  # drop a field
            parent, last = path[:-1], path[-1]
            obj = msg
            for p in parent:
                obj = obj[p]
            if isinstance(obj, dict):
                del obj[last]
            else:
                obj.pop(last)
            return msg
        return self._replace(msg, path, new)

    def bytewise(self, data):
        data = bytearray(data)
        r = self.rng.random()
        if r < 0.35 and data:
            for _ in range(self.rng.randrange(1, 4)):
                i = self.rng.randrange(len(data))
                data[i] ^= 1 << self.rng.randrange(8)
        elif r < 0.55 and data:
            data = data[: self.rng.randrange(len(data))]
        elif r < 0.8:
            i = self.rng.randrange(len(data) + 1)
            data[i:i] = self.rng.choice(INVALID_UTF8)
        elif r < 0.9 and data:
            i, j = sorted(self.rng.randrange(len(data) + 1) for _ in range(2))
            data[j:j] = data[i:j]  # a duplicated run
        else:
            i = self.rng.randrange(len(data) + 1)
            data[i:i] = self.rng.choice([b" " * 1000, b"\x00", b"\\u0000", b",", b"}", b"]]]", b"\xef\xbb\xbf"])
        return bytes(data)

    def mutate(self, msg):
        """Returns (payload, binary): a str, or bytes (possibly invalid UTF-8); `binary` picks the frame's opcode."""
        if self.rng.random() < 0.55:
            for _ in range(self.rng.randrange(1, 3)):
                msg = self.structural(msg) if not isinstance(msg, (Raw, Pairs)) else msg
            return encode(msg), False
        data = self.bytewise(encode(msg).encode("utf-8", "surrogatepass"))
        return data, self.rng.random() < 0.3  # bytes in a text frame (invalid UTF-8 included) or a binary one
