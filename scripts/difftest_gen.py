#!/usr/bin/env python3
"""Random programs for the differential test of CanopyScript (docs/differential.md).

    python3 scripts/difftest_gen.py --seed 1 --count 250 --out Tests/Differential/corpus/generated

Each program is a complete Swift file in the corpus convention: declarations only at the top level and a `func main()`
that prints. Programs are well typed by construction (every expression is generated for a type, from variables,
functions, struct members and enum cases whose types are tracked), and Int arithmetic cannot overflow unless the program
is one of the few that trap on purpose: every Int expression carries a bound on its magnitude, stored values stay within
fixed bounds, and a `+=` spends from a per-variable budget. The output is a function of --seed and the program's
index only, so adding programs (a larger --count) does not change the earlier ones.
"""

import argparse
import os
import random
import re
import sys

STORE = 10_000          # stored Int values (fields, elements, parameters) stay within ±STORE
BUDGET = 100_000        # what `+=` statements may add to one mutable Int variable over its life
EXPR_MAX = 10 ** 15     # no Int expression may exceed this magnitude (Int.max is 9.2e18)
MAX_LEN = 200           # arrays never exceed this many elements

WORDS = ["apple", "kiwi", "Swift", "canopy", "tree", "zed", "a b c", "", "café", "naïve", "Straße", "🌲", "x",
         "hello world", "Mixed Case", "  padded  ", "say \\\"hi\\\"", "tab\\tend", "42", "-7", "3.5", "line\\nbreak"]
SIMPLE_WORDS = ["apple", "kiwi", "Swift", "canopy", "tree", "zed", "x", "hello", "Mixed", "oak", "fig", "plum"]
QUARTERS = [i * 0.25 for i in range(-40, 41)]
ODD_DOUBLES = ["0.1", "0.2", "0.3", "1.1", "2.5", "3.14159", "0.7", "1e-3", "12.345", "100.01", "1e10", "2.0e-5",
               "123456.789", "0.5", "9.75", "1.0", "1000000.0", "0.125"]


def swift_double(x: float) -> str:
    s = repr(float(x))
    return s if ("." in s or "e" in s) else s + ".0"


class E:
    """A generated expression: its code, its type and, for numbers, a bound on its magnitude; for arrays the bounds
    on its length and on its elements."""

    def __init__(self, code, ty, b=0, minlen=0, maxlen=0, elemb=0, atom=False):
        self.code, self.ty, self.b = code, ty, b
        self.minlen, self.maxlen, self.elemb = minlen, maxlen, elemb
        self.atom = atom

    def p(self):
        """The code, parenthesized unless it is an atom."""
        return self.code if self.atom else f"({self.code})"


class Var:
    def __init__(self, name, ty, mutable, b=0, minlen=0, maxlen=0, elemb=0):
        self.name, self.ty, self.mutable = name, ty, mutable
        self.b, self.minlen, self.maxlen, self.elemb = b, minlen, maxlen, elemb
        self.budget = BUDGET if mutable else 0
        self.captured = False


class Struct:
    def __init__(self, name):
        self.name = name
        self.fields = []      # (name, type, bound)
        self.computed = []    # (name, E-like type, bound)
        self.methods = []     # (name, param label, param type, return type, bound)
        self.mutating = []    # (name, label)
        self.described = False


class Enum:
    def __init__(self, name):
        self.name = name
        self.cases = []       # (name, [(label or None, type)])
        self.raw = None       # "Int" / "String" / None
        self.raw_values = {}  # case -> literal
        self.equatable = False
        self.methods = []     # (name, return type, bound)


class Func:
    def __init__(self, name, params, ret, b=0):
        self.name = name
        self.params = params  # (label, name, type, default code or None)
        self.ret = ret
        self.b = b


class Program:
    def __init__(self, rng: random.Random, index: int, seed: int):
        self.rng = rng
        self.index = index
        self.seed = seed
        self.decls = []       # lines
        self.structs = []
        self.enums = []
        self.funcs = []
        self.scopes = [[]]
        self.counter = 0
        self.loop_mult = 1
        self.in_closure = 0
        self.used_names = set()
        self.recursive = []

    # ---- names and scopes ----------------------------------------------------------------------------------------

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def push(self):
        self.scopes.append([])

    def pop(self):
        self.scopes.pop()

    def declare(self, v: Var):
        self.scopes[-1].append(v)
        return v

    def vars(self, pred=lambda v: True):
        return [v for scope in self.scopes for v in scope if pred(v)]

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    # ---- Int expressions -----------------------------------------------------------------------------------------

    def int_lit(self, lo=-20, hi=50):
        n = self.rng.randint(lo, hi)
        return E(str(n) if n >= 0 else f"({n})", "Int", abs(n), atom=True)

    def int_expr(self, d, maxb=EXPR_MAX):
        for _ in range(40):
            e = self._int_expr(d, maxb)
            if e is not None and e.b <= maxb:
                return e
        return self.int_lit(0, min(maxb, 9))

    def _int_expr(self, d, maxb):
        r = self.rng
        choice = r.randint(0, 24 if d > 0 else 4)
        if choice <= 1:
            return self.int_lit()
        if choice <= 3:
            vs = self.vars(lambda v: v.ty == "Int" and v.b <= maxb)
            if vs:
                v = self.pick(vs)
                return E(v.name, "Int", v.b, atom=True)
            return self.int_lit()
        if choice == 4:
            vs = self.vars(lambda v: v.ty in ("[Int]", "[String]", "[Double]", "String", "[String: Int]"))
            if vs:
                v = self.pick(vs)
                return E(f"{v.name}.count", "Int", MAX_LEN if v.ty != "String" else 10_000, atom=True)
            return self.int_lit()
        if choice <= 8:
            a, b = self.int_expr(d - 1, maxb), self.int_expr(d - 1, maxb)
            op = self.pick(["+", "-", "*", "+", "-"])
            bound = a.b * b.b if op == "*" else a.b + b.b
            if bound > maxb:
                return None
            return E(f"{a.p()} {op} {b.p()}", "Int", bound)
        if choice == 9:
            a = self.int_expr(d - 1, maxb)
            k = r.randint(2, 13)
            op = self.pick(["%", "/"])
            return E(f"{a.p()} {op} {k}", "Int", min(a.b, k - 1) if op == "%" else a.b // k + 1)
        if choice == 10:
            a, b = self.int_expr(d - 1, maxb), self.int_expr(d - 1, maxb)
            op = self.pick(["%", "/"])
            return E(f"{a.p()} {op} (abs({b.code}) + 1)", "Int", a.b if op == "/" else min(a.b, b.b))
        if choice == 11:
            a = self.int_expr(d - 1, maxb)
            f = self.pick(["abs", "max", "min"])
            if f == "abs":
                return E(f"abs({a.code})", "Int", a.b, atom=True)
            b = self.int_expr(d - 1, maxb)
            return E(f"{f}({a.code}, {b.code})", "Int", max(a.b, b.b), atom=True)
        if choice == 12:
            c = self.bool_expr(d - 1)
            a, b = self.int_expr(d - 1, maxb), self.int_expr(d - 1, maxb)
            return E(f"{c.p()} ? {a.p()} : {b.p()}", "Int", max(a.b, b.b))
        if choice == 13:
            o = self.opt_expr("Int?", d - 1)
            if o is None:
                return None
            k = self.int_lit(-5, 9)
            return E(f"{o.p()} ?? {k.code}", "Int", max(o.b, k.b))
        if choice == 14:
            a = self.array_expr("[Int]", d - 1)
            if a is None:
                return None
            form = r.randint(0, 5)
            if form == 0:
                return E(f"{a.p()}.reduce(0, +)", "Int", a.elemb * a.maxlen)
            if form == 1:
                return E(f"{a.p()}.filter {{ $0 % 2 == 0 }}.count", "Int", a.maxlen)
            if form == 2:
                return E(f"({a.p()}.max() ?? 0)", "Int", a.elemb, atom=True)
            if form == 3:
                return E(f"({a.p()}.first ?? -1)", "Int", max(1, a.elemb), atom=True)
            if form == 4:
                return E(f"{a.p()}.reduce(0) {{ $0 + abs($1) }}", "Int", a.elemb * a.maxlen)
            if a.minlen > 0:
                i = r.randint(0, a.minlen - 1)
                return E(f"{a.p()}[{i}]", "Int", a.elemb)
            return E(f"{a.p()}.count", "Int", a.maxlen)
        if choice == 15:
            f = self.call_func("Int", d - 1)
            return f
        if choice == 16:
            s = self.struct_expr_any(d - 1)
            if s is None:
                return None
            st, e = s
            opts = [(n, b) for n, t, b in st.fields if t == "Int"] + [(n, b) for n, t, b in st.computed if t == "Int"]
            ms = [m for m in st.methods if m[3] == "Int"]
            if ms and self.chance(0.4):
                name, label, pty, ret, b = self.pick(ms)
                arg = self.arg_for(pty, d - 1)
                return E(f"{e.p()}.{name}({label + ': ' if label else ''}{arg})", "Int", b)
            if not opts:
                return None
            n, b = self.pick(opts)
            return E(f"{e.p()}.{n}", "Int", b)
        if choice == 17:
            s = self.string_expr(d - 1)
            return E(f"{s.p()}.count", "Int", 10_000)
        if choice == 18:
            x = self.double_expr(d - 1, 1e9)
            f = self.pick(["Int", "Int", "Int(({}).rounded())"])
            if f == "Int":
                return E(f"Int({x.code})", "Int", int(x.b) + 1, atom=True)
            return E(f"Int({x.p()}.rounded())", "Int", int(x.b) + 1, atom=True)
        if choice == 19:
            en = [e for e in self.enums if e.raw == "Int"]
            if not en:
                return None
            e = self.pick(en)
            c = self.pick(e.cases)[0]
            return E(f"{e.name}.{c}.rawValue", "Int", 1000)
        if choice == 20:
            dv = self.vars(lambda v: v.ty == "[String: Int]")
            if not dv:
                return None
            v = self.pick(dv)
            k = self.string_key()
            return E(f"{v.name}[{k}, default: 0]", "Int", v.elemb)
        if choice == 21:
            en = [e for e in self.enums if any(m[1] == "Int" for m in e.methods)]
            if not en:
                return None
            e = self.pick(en)
            m = self.pick([m for m in e.methods if m[1] == "Int"])
            val = self.enum_value(e, d - 1)
            return E(f"{val.p()}.{m[0]}()", "Int", m[2])
        if choice == 22:
            n = r.randint(1, 12)
            return E(f"(1...{n}).reduce(0, +)", "Int", n * n)
        if choice == 23:
            cl = self.vars(lambda v: v.ty == "(Int) -> Int")
            if not cl:
                return None
            v = self.pick(cl)
            a = self.int_expr(d - 1, STORE)
            return E(f"{v.name}({a.code})", "Int", v.b)
        if choice == 24:
            a = self.int_expr(d - 1, maxb)
            if a.code.isidentifier():
                return E(f"-{a.code}", "Int", a.b)
            return E(f"0 - {a.p()}", "Int", a.b)  # `-(literal expression)` is ambiguous to swiftc
        return None

    def store_int(self, e: E, limit=STORE):
        """`e` made to fit a stored Int of bound `limit`."""
        if e.b <= limit:
            return e
        return E(f"{e.p()} % {limit}", "Int", limit - 1)

    # ---- Double expressions --------------------------------------------------------------------------------------

    def double_lit(self):
        if self.chance(0.6):
            x = self.pick(QUARTERS)
            s = swift_double(x)
            return E(s if x >= 0 else f"({s})", "Double", abs(x), atom=True)
        s = self.pick(ODD_DOUBLES)
        return E(s, "Double", float(s), atom=True)

    def double_expr(self, d, maxb=1e12):
        for _ in range(40):
            e = self._double_expr(d, maxb)
            if e is not None and e.b <= maxb:
                return e
        return self.double_lit()

    def _double_expr(self, d, maxb):
        r = self.rng
        choice = r.randint(0, 14 if d > 0 else 3)
        if choice <= 1:
            return self.double_lit()
        if choice <= 3:
            vs = self.vars(lambda v: v.ty == "Double" and v.b <= maxb)
            if vs:
                v = self.pick(vs)
                return E(v.name, "Double", v.b, atom=True)
            return self.double_lit()
        if choice <= 6:
            a, b = self.double_expr(d - 1, maxb), self.double_expr(d - 1, maxb)
            op = self.pick(["+", "-", "*"])
            bound = a.b * b.b if op == "*" else a.b + b.b
            return E(f"{a.p()} {op} {b.p()}", "Double", bound)
        if choice == 7:
            a = self.double_expr(d - 1, maxb)
            k = self.pick(["2.0", "4.0", "3.0", "8.0", "10.0", "7.0", "0.5"])
            return E(f"{a.p()} / {k}", "Double", a.b / float(k))
        if choice == 8:
            a = self.int_expr(d - 1, 10 ** 9)
            return E(f"Double({a.code})", "Double", float(a.b), atom=True)
        if choice == 9:
            a = self.double_expr(d - 1, maxb)
            f = self.pick(["rounded()", "squareRoot()", "magnitude", "rounded(.down)", "rounded(.up)"])
            if f == "squareRoot()":
                return E(f"abs({a.code}).squareRoot()", "Double", max(1.0, a.b))
            return E(f"{a.p()}.{f}", "Double", a.b + 1)
        if choice == 10:
            a, b = self.double_expr(d - 1, maxb), self.double_expr(d - 1, maxb)
            f = self.pick(["max", "min"])
            return E(f"{f}({a.code}, {b.code})", "Double", max(a.b, b.b), atom=True)
        if choice == 11:
            vs = self.vars(lambda v: v.ty == "[Double]")
            if not vs:
                return None
            v = self.pick(vs)
            form = r.randint(0, 2)
            if form == 0:
                return E(f"{v.name}.reduce(0, +)", "Double", v.elemb * v.maxlen)
            if form == 1:
                return E(f"({v.name}.max() ?? 0.0)", "Double", v.elemb, atom=True)
            return E(f"({v.name}.last ?? -1.0)", "Double", max(1.0, v.elemb), atom=True)
        if choice == 12:
            a, b = self.double_expr(d - 1, maxb), self.double_expr(d - 1, maxb)
            return E(f"{a.p()} / (abs({b.code}) + 1.0)", "Double", a.b)
        if choice == 13:
            s = self.struct_expr_any(d - 1)
            if s is None:
                return None
            st, e = s
            opts = [(n, b) for n, t, b in st.fields if t == "Double"] + \
                   [(n, b) for n, t, b in st.computed if t == "Double"]
            if not opts:
                return None
            n, b = self.pick(opts)
            return E(f"{e.p()}.{n}", "Double", b)
        if choice == 14:
            return self.call_func("Double", d - 1)
        return None

    # ---- Strings and Bools ---------------------------------------------------------------------------------------

    def string_lit(self, simple=False):
        w = self.pick(SIMPLE_WORDS if simple else WORDS)
        return E(f'"{w}"', "String", atom=True)

    def string_key(self):
        return f'"{self.pick(SIMPLE_WORDS[:6])}"'

    def string_expr(self, d):
        for _ in range(40):
            e = self._string_expr(d)
            if e is not None:
                return e
        return self.string_lit()

    def _string_expr(self, d):
        r = self.rng
        choice = r.randint(0, 17 if d > 0 else 2)
        if choice <= 1:
            return self.string_lit()
        if choice == 2:
            vs = self.vars(lambda v: v.ty == "String")
            if vs:
                return E(self.pick(vs).name, "String", atom=True)
            return self.string_lit()
        if choice == 3:
            a, b = self.string_expr(d - 1), self.string_expr(d - 1)
            return E(f"{a.p()} + {b.p()}", "String")
        if choice == 4:
            parts = []
            for _ in range(r.randint(1, 3)):
                ty = self.pick(["Int", "String", "Double", "Bool", "Int?", "[Int]"])
                e = self.expr_of(ty, d - 1)
                if e is None:
                    continue
                parts.append(self.pick(["", "n=", " ", ": ", "<", "] ["]) + "\\(" + e.code + ")")
            return E('"' + "".join(parts) + self.pick(["", ".", "!", " end"]) + '"', "String", atom=True)
        if choice == 5:
            a = self.string_expr(d - 1)
            return E(f"{a.p()}.{self.pick(['uppercased()', 'lowercased()'])}", "String")
        if choice == 6:
            a = self.int_expr(d - 1)
            return E(f"String({a.code})", "String", atom=True)
        if choice == 7:
            a = self.string_expr(d - 1)
            return E(f"String({a.p()}.reversed())", "String", atom=True)
        if choice == 8:
            a = self.string_expr(d - 1)
            n = r.randint(0, 4)
            return E(f"String({a.p()}.{self.pick(['prefix', 'suffix', 'dropFirst', 'dropLast'])}({n}))", "String",
                     atom=True)
        if choice == 9:
            a = self.array_expr("[String]", d - 1)
            if a is None:
                return None
            return E(f"{a.p()}.joined(separator: \"{self.pick([', ', '-', '', ' '])}\")", "String")
        if choice == 10:
            o = self.opt_expr("String?", d - 1)
            if o is None:
                return None
            return E(f"{o.p()} ?? \"none\"", "String")
        if choice == 11:
            a = self.string_lit(simple=True)
            return E(f"String(repeating: {a.code}, count: {r.randint(0, 3)})", "String", atom=True)
        if choice == 12:
            s = self.struct_expr_any(d - 1)
            if s is None:
                return None
            st, e = s
            opts = [n for n, t, _ in st.fields if t == "String"] + [n for n, t, _ in st.computed if t == "String"]
            if opts and self.chance(0.7):
                return E(f"{e.p()}.{self.pick(opts)}", "String")
            return E(f"String(describing: {e.code})", "String", atom=True)
        if choice == 13:
            c = self.bool_expr(d - 1)
            a, b = self.string_expr(d - 1), self.string_expr(d - 1)
            return E(f"{c.p()} ? {a.p()} : {b.p()}", "String")
        if choice == 14:
            return self.call_func("String", d - 1)
        if choice == 15:
            if not self.enums:
                return None
            e = self.pick(self.enums)
            if e.raw == "String" and self.chance(0.6):
                return E(f"{e.name}.{self.pick(e.cases)[0]}.rawValue", "String")
            ms = [m for m in e.methods if m[1] == "String"]
            val = self.enum_value(e, d - 1)
            if ms and self.chance(0.6):
                return E(f"{val.p()}.{self.pick(ms)[0]}()", "String")
            return E(f"\"\\({val.code})\"", "String", atom=True)
        if choice == 16:
            a = self.double_expr(d - 1)
            return E(f"String({a.code})", "String", atom=True)
        if choice == 17:
            a = self.string_expr(d - 1)
            return E(f"{a.p()}.isEmpty ? \"(empty)\" : {a.p()}", "String")
        return None

    def bool_expr(self, d):
        for _ in range(40):
            e = self._bool_expr(d)
            if e is not None:
                return e
        return E(self.pick(["true", "false"]), "Bool", atom=True)

    def _bool_expr(self, d):
        r = self.rng
        choice = r.randint(0, 14 if d > 0 else 1)
        if choice == 0:
            return E(self.pick(["true", "false"]), "Bool", atom=True)
        if choice == 1:
            vs = self.vars(lambda v: v.ty == "Bool")
            if vs:
                return E(self.pick(vs).name, "Bool", atom=True)
            return None if d > 0 else E("true", "Bool", atom=True)
        if choice <= 4:
            a, b = self.int_expr(d - 1), self.int_expr(d - 1)
            return E(f"{a.p()} {self.pick(['<', '<=', '==', '!=', '>', '>='])} {b.p()}", "Bool")
        if choice == 5:
            a, b = self.double_expr(d - 1), self.double_expr(d - 1)
            return E(f"{a.p()} {self.pick(['<', '>=', '==', '!='])} {b.p()}", "Bool")
        if choice == 6:
            a = self.string_expr(d - 1)
            f = self.pick(["hasPrefix", "hasSuffix", "contains"])
            lit = self.pick(['"a"', '"e"', '"Sw"', '"ee"', '"x"', '""', '"tree"'])
            return E(f"{a.p()}.{f}({lit})", "Bool")
        if choice == 7:
            a, b = self.string_expr(d - 1), self.string_expr(d - 1)
            return E(f"{a.p()} {self.pick(['==', '<', '!='])} {b.p()}", "Bool")
        if choice == 8:
            a, b = self.bool_expr(d - 1), self.bool_expr(d - 1)
            return E(f"{a.p()} {self.pick(['&&', '||'])} {b.p()}", "Bool")
        if choice == 9:
            a = self.bool_expr(d - 1)
            return E(f"!{a.p()}", "Bool")
        if choice == 10:
            a = self.array_expr("[Int]", d - 1)
            if a is None:
                return None
            form = r.randint(0, 3)
            if form == 0:
                return E(f"{a.p()}.contains({self.int_lit(-3, 12).code})", "Bool")
            if form == 1:
                return E(f"{a.p()}.isEmpty", "Bool")
            if form == 2:
                return E(f"{a.p()}.allSatisfy {{ $0 > {r.randint(-5, 5)} }}", "Bool")
            return E(f"{a.p()}.contains {{ $0 % {r.randint(2, 5)} == 0 }}", "Bool")
        if choice == 11:
            o = self.opt_expr(self.pick(["Int?", "String?"]), d - 1)
            if o is None:
                return None
            return E(f"{o.p()} {self.pick(['==', '!='])} nil", "Bool")
        if choice == 12:
            a = self.int_expr(d - 1)
            return E(f"{a.p()} % {r.randint(2, 5)} == 0", "Bool")
        if choice == 13:
            en = [e for e in self.enums if e.equatable]
            if not en:
                return None
            e = self.pick(en)
            a = self.enum_value(e, d - 1)
            b = self.enum_value(e, d - 1)
            return E(f"{a.p()} == {b.p()}", "Bool")
        if choice == 14:
            return self.call_func("Bool", d - 1)
        return None

    # ---- optionals -----------------------------------------------------------------------------------------------

    def opt_expr(self, ty, d):
        for _ in range(30):
            e = self._opt_expr(ty, d)
            if e is not None:
                return e
        return None

    def _opt_expr(self, ty, d):
        r = self.rng
        choice = r.randint(0, 7 if d > 0 else 3)
        if choice <= 1:
            vs = self.vars(lambda v: v.ty == ty)
            if vs:
                v = self.pick(vs)
                return E(v.name, ty, v.b, atom=True)
            return None
        if ty == "Int?":
            if choice == 2:
                a = self.array_expr("[Int]", d - 1)
                if a is None:
                    return None
                f = self.pick(["first", "last", "max()", "min()"])
                return E(f"{a.p()}.{f}", ty, a.elemb)
            if choice == 3:
                s = self.pick(['"42"', '"-7"', '"x"', '""', '"3.5"', '"007"', '"+5"', '" 1"'])
                return E(f"Int({s})", ty, 42, atom=True)
            if choice == 4:
                dv = self.vars(lambda v: v.ty == "[String: Int]")
                if not dv:
                    return None
                v = self.pick(dv)
                return E(f"{v.name}[{self.string_key()}]", ty, v.elemb)
            if choice == 5:
                a = self.array_expr("[Int]", d - 1)
                if a is None:
                    return None
                if self.chance(0.5):
                    return E(f"{a.p()}.firstIndex(of: {self.int_lit(0, 9).code})", ty, MAX_LEN)
                return E(f"{a.p()}.first(where: {{ $0 > {r.randint(0, 20)} }})", ty, a.elemb)
            if choice == 6:
                o = self.opt_expr("Int?", d - 1)
                if o is None:
                    return None
                k = r.randint(1, 9)
                return E(f"{o.p()}.map {{ $0 * {k} }}", ty, o.b * k)
            if choice == 7:
                return self.call_func("Int?", d - 1)
        else:  # String?
            if choice == 2:
                a = self.array_expr("[String]", d - 1)
                if a is None:
                    return None
                return E(f"{a.p()}.{self.pick(['first', 'last', 'max()'])}", ty)
            if choice == 3:
                a = self.array_expr("[String]", d - 1)
                if a is None:
                    return None
                return E(f"{a.p()}.first(where: {{ $0.count > {r.randint(1, 5)} }})", ty)
            if choice == 4:
                o = self.opt_expr("String?", d - 1)
                if o is None:
                    return None
                return E(f"{o.p()}.map {{ $0.uppercased() }}", ty)
            if choice == 5:
                return self.call_func("String?", d - 1)
            if choice == 6:
                o = self.opt_expr("Int?", d - 1)
                if o is None:
                    return None
                return E(f"{o.p()}.map {{ \"#\\($0)\" }}", ty)
        return None

    # ---- arrays and dictionaries ---------------------------------------------------------------------------------

    def array_lit(self, ty, typed_context=False):
        """An array literal of 0 to 6 elements; an empty one is `[T]()` unless the context gives the type."""
        n = self.rng.randint(0, 6)
        if n == 0:
            return E("[]" if typed_context else f"{ty}()", ty, atom=True)
        if ty == "[Int]":
            items = [self.int_lit(-9, 30) for _ in range(n)]
            b = max([i.b for i in items] + [0])
            return E("[" + ", ".join(i.code for i in items) + "]", ty, minlen=n, maxlen=n, elemb=b, atom=True)
        if ty == "[Double]":
            items = [self.double_lit() for _ in range(n)]
            b = max([i.b for i in items] + [0])
            return E("[" + ", ".join(i.code for i in items) + "]", ty, minlen=n, maxlen=n, elemb=b, atom=True)
        items = [self.string_lit(simple=self.chance(0.7)) for _ in range(n)]
        return E("[" + ", ".join(i.code for i in items) + "]", ty, minlen=n, maxlen=n, atom=True)

    def array_expr(self, ty, d):
        for _ in range(30):
            e = self._array_expr(ty, d)
            if e is not None and e.maxlen <= MAX_LEN and e.elemb <= 10 ** 9:
                return e
        return None

    def _array_expr(self, ty, d):
        r = self.rng
        choice = r.randint(0, 10 if d > 0 else 2)
        if choice == 0:
            e = self.array_lit(ty)
            return e if e.maxlen > 0 else None  # an empty literal needs a type context
        if choice <= 2:
            vs = self.vars(lambda v: v.ty == ty)
            if vs:
                v = self.pick(vs)
                return E(v.name, ty, minlen=v.minlen, maxlen=v.maxlen, elemb=v.elemb, atom=True)
            e = self.array_lit(ty)
            return e if e.maxlen > 0 else None
        a = self.array_expr(ty, d - 1)
        if ty == "[Int]":
            if choice == 3:
                if a is None:
                    return None
                k = r.randint(-3, 5)
                op = self.pick(["*", "+", "-"])
                b = a.elemb * abs(k) if op == "*" else a.elemb + abs(k)
                return E(f"{a.p()}.map {{ $0 {op} {k if k >= 0 else f'({k})'} }}", ty, minlen=a.minlen, maxlen=a.maxlen,
                         elemb=b)
            if choice == 4:
                if a is None:
                    return None
                k = r.randint(2, 4)
                return E(f"{a.p()}.filter {{ $0 % {k} {self.pick(['==', '!='])} 0 }}", ty, maxlen=a.maxlen,
                         elemb=a.elemb)
            if choice == 5:
                if a is None:
                    return None
                f = self.pick(["sorted()", "sorted(by: >)", "reversed()", "sorted { $0 > $1 }"])
                code = f"Array({a.p()}.reversed())" if f == "reversed()" else f"{a.p()}.{f}"
                return E(code, ty, minlen=a.minlen, maxlen=a.maxlen, elemb=a.elemb)
            if choice == 6:
                n = r.randint(0, 8)
                lo = r.randint(-3, 3)
                bounds = f"{lo}..<{lo + n}" if lo >= 0 else f"({lo})..<{lo + n}" if lo + n >= 0 else f"({lo})..<({lo + n})"
                return E(f"Array({bounds})", ty, minlen=n, maxlen=n, elemb=max(abs(lo), abs(lo + n)),
                         atom=True)
            if choice == 7:
                b = self.array_expr(ty, d - 1)
                if a is None or b is None:
                    return None
                return E(f"{a.p()} + {b.p()}", ty, minlen=a.minlen + b.minlen, maxlen=a.maxlen + b.maxlen,
                         elemb=max(a.elemb, b.elemb))
            if choice == 8:
                s = self.array_expr("[String]", d - 1)
                if s is None:
                    return None
                return E(f"{s.p()}.map {{ $0.count }}", ty, minlen=s.minlen, maxlen=s.maxlen, elemb=10_000)
            if choice == 9:
                n = r.randint(1, 6)
                return E(f"(1...{n}).map {{ $0 * $0 }}", ty, minlen=n, maxlen=n, elemb=n * n)
            if choice == 10:
                if a is None:
                    return None
                n = r.randint(0, 4)
                return E(f"Array({a.p()}.{self.pick(['prefix', 'dropFirst', 'suffix'])}({n}))", ty,
                         maxlen=a.maxlen, elemb=a.elemb, atom=True)
        elif ty == "[String]":
            if choice == 3:
                if a is None:
                    return None
                f = self.pick(["{ $0.uppercased() }", "{ $0 + \"!\" }", "{ String($0.reversed()) }",
                               "{ \"<\\($0)>\" }"])
                return E(f"{a.p()}.map {f}", ty, minlen=a.minlen, maxlen=a.maxlen)
            if choice == 4:
                if a is None:
                    return None
                return E(f"{a.p()}.filter {{ $0.count {self.pick(['>', '<=', '=='])} {r.randint(1, 5)} }}", ty,
                         maxlen=a.maxlen)
            if choice == 5:
                if a is None:
                    return None
                f = self.pick(["sorted()", "sorted(by: >)", "sorted { $0.count < $1.count }"])
                return E(f"{a.p()}.{f}", ty, minlen=a.minlen, maxlen=a.maxlen)
            if choice == 6:
                i = self.array_expr("[Int]", d - 1)
                if i is None:
                    return None
                f = self.pick(["{ String($0) }", "{ \"n\\($0)\" }", "{ $0 % 2 == 0 ? \"even\" : \"odd\" }"])
                return E(f"{i.p()}.map {f}", ty, minlen=i.minlen, maxlen=i.maxlen)
            if choice == 7:
                dv = self.vars(lambda v: v.ty == "[String: Int]")
                if not dv:
                    return None
                return E(f"{self.pick(dv).name}.keys.sorted()", ty, maxlen=MAX_LEN)
            if choice == 8:
                s = self.string_lit()
                sep = self.pick(['" "', '","', '"a"'])
                return E(f"{s.code}.split(separator: {sep}).map {{ String($0) }}", ty, maxlen=MAX_LEN)
            if choice in (9, 10):
                b = self.array_expr(ty, d - 1)
                if a is None or b is None:
                    return None
                return E(f"{a.p()} + {b.p()}", ty, minlen=a.minlen + b.minlen, maxlen=a.maxlen + b.maxlen)
        else:  # [Double]
            if choice in (3, 4, 5):
                i = self.array_expr("[Int]", d - 1)
                if i is None:
                    return None
                k = self.pick(["4", "2", "10", "3"])
                return E(f"{i.p()}.map {{ Double($0) / {k} }}", ty, minlen=i.minlen, maxlen=i.maxlen, elemb=i.elemb)
            if choice in (6, 7):
                if a is None:
                    return None
                return E(f"{a.p()}.sorted()", ty, minlen=a.minlen, maxlen=a.maxlen, elemb=a.elemb)
            if choice == 8:
                if a is None:
                    return None
                return E(f"{a.p()}.map {{ $0 * 1.5 }}", ty, minlen=a.minlen, maxlen=a.maxlen, elemb=a.elemb * 1.5)
        return None

    # ---- structs, enums, functions -------------------------------------------------------------------------------

    def struct_expr_any(self, d):
        if not self.structs:
            return None
        st = self.pick(self.structs)
        e = self.struct_expr(st, d)
        return None if e is None else (st, e)

    def struct_expr(self, st: Struct, d):
        vs = self.vars(lambda v: v.ty == st.name)
        if vs and self.chance(0.75):
            return E(self.pick(vs).name, st.name, atom=True)
        return self.struct_init(st, max(0, d - 1))

    def struct_init(self, st: Struct, d):
        args = []
        for name, ty, b in st.fields:
            args.append(f"{name}: {self.arg_for(ty, d, b)}")
        return E(f"{st.name}({', '.join(args)})", st.name, atom=True)

    def arg_for(self, ty, d, b=STORE):
        if ty == "Int":
            return self.store_int(self.int_expr(d, EXPR_MAX), b).code
        if ty == "Double":
            return self.double_expr(d, b).code
        if ty == "String":
            return self.string_expr(d).code
        if ty == "Bool":
            return self.bool_expr(d).code
        if ty == "[Int]":
            a = self.array_expr("[Int]", d)
            if a is None or a.maxlen > 20 or a.elemb > STORE:
                return self.array_lit("[Int]", typed_context=True).code
            return a.code
        if ty == "[String]":
            a = self.array_expr("[String]", d)
            return a.code if a is not None and a.maxlen <= 20 else self.array_lit("[String]", typed_context=True).code
        if ty == "Int?":
            if self.chance(0.3):
                return "nil"
            o = self.opt_expr("Int?", d)
            if o is None or o.b > STORE:
                return self.store_int(self.int_expr(d), STORE).code
            return o.code
        for e in self.enums:
            if e.name == ty:
                return self.enum_value(e, d).code
        raise ValueError(ty)

    def enum_value(self, e: Enum, d):
        vs = self.vars(lambda v: v.ty == e.name)
        if vs and self.chance(0.5):
            return E(self.pick(vs).name, e.name, atom=True)
        name, assoc = self.pick(e.cases)
        if not assoc:
            return E(f"{e.name}.{name}", e.name, atom=True)
        args = []
        for label, ty in assoc:
            a = self.arg_for(ty, max(0, d - 1), 1000)
            args.append(f"{label}: {a}" if label else a)
        return E(f"{e.name}.{name}({', '.join(args)})", e.name, atom=True)

    def call_func(self, ret, d):
        fs = [f for f in self.funcs if f.ret == ret]
        if not fs:
            return None
        f = self.pick(fs)
        args = []
        for label, name, ty, default in f.params:
            if default is not None and self.chance(0.5):
                continue
            a = self.arg_for(ty, max(0, d - 1))
            args.append(f"{label}: {a}" if label != "_" else a)
        return E(f"{f.name}({', '.join(args)})", ret, f.b, atom=True)

    def expr_of(self, ty, d):
        if ty == "Int":
            return self.int_expr(d)
        if ty == "Double":
            return self.double_expr(d)
        if ty == "String":
            return self.string_expr(d)
        if ty == "Bool":
            return self.bool_expr(d)
        if ty in ("Int?", "String?"):
            return self.opt_expr(ty, d)
        if ty.startswith("["):
            return self.array_expr(ty, d)
        return None

    # ---- declarations --------------------------------------------------------------------------------------------

    def gen_struct(self):
        r = self.rng
        st = Struct(self.pick(["Point", "Item", "Counter", "Box", "Pair", "Record", "Cell", "Stats"]) +
                    (str(len(self.structs) + 1) if self.structs else ""))
        n = r.randint(1, 3)
        types = ["Int", "Int", "String", "Double", "[Int]", "Bool"]
        names = {"Int": ["x", "y", "count", "size"], "String": ["name", "label", "title"],
                 "Double": ["weight", "value", "ratio"], "[Int]": ["items", "scores", "marks"],
                 "Bool": ["flag", "done", "active"]}
        for ty in names:
            r.shuffle(names[ty])
        for i in range(n):
            ty = self.pick(types)
            st.fields.append((names[ty].pop(), ty, STORE if ty in ("Int", "Double") else 0))
        lines = [f"struct {st.name} {{"]
        for name, ty, _ in st.fields:
            lines.append(f"    var {name}: {ty}")
        ints = [f for f in st.fields if f[1] == "Int"]
        strs = [f for f in st.fields if f[1] == "String"]
        dbls = [f for f in st.fields if f[1] == "Double"]
        arrs = [f for f in st.fields if f[1] == "[Int]"]
        if ints:
            f = self.pick(ints)[0]
            k = r.randint(2, 5)
            lines += ["", f"    var scaled: Int {{ {f} * {k} }}"]
            st.computed.append(("scaled", "Int", STORE * k))
            lines += ["", f"    func plus(_ n: Int) -> Int {{", f"        return {f} + n", "    }"]
            st.methods.append(("plus", "", "Int", "Int", 2 * STORE))
            lines += ["", f"    mutating func bump(by step: Int = 1) {{", f"        {f} = ({f} + step) % {STORE}", "    }"]
            st.mutating.append(("bump", "by"))
        if strs:
            f = self.pick(strs)[0]
            lines += ["", f"    var shout: String {{ {f}.uppercased() + \"!\" }}"]
            st.computed.append(("shout", "String", 0))
            lines += ["", f"    mutating func rename(to newName: String) {{", f"        {f} = newName", "    }"]
            st.mutating.append(("rename", "to"))
        if dbls:
            f = self.pick(dbls)[0]
            lines += ["", f"    var half: Double {{ {f} / 2 }}"]
            st.computed.append(("half", "Double", STORE))
        if arrs:
            f = self.pick(arrs)[0]
            lines += ["", f"    var total: Int {{ {f}.reduce(0, +) }}"]
            st.computed.append(("total", "Int", STORE * 20))
            lines += ["", f"    mutating func add(_ v: Int) {{", f"        if {f}.count < 20 {{ {f}.append(v % 1000) }}",
                      "    }"]
            st.mutating.append(("add", "_"))
        if self.chance(0.25):
            parts = " ".join(f"\\({n})" for n, _, _ in st.fields)
            lines += ["", "    var description: String {", f"        \"<{st.name} {parts}>\"", "    }"]
            st.described = True
        lines.append("}")
        if st.described:
            lines += ["", f"extension {st.name}: CustomStringConvertible {{}}"]
        self.decls += lines + [""]
        self.structs.append(st)

    def gen_enum(self):
        r = self.rng
        kind = r.randint(0, 2)
        e = Enum(self.pick(["Shape", "Token", "Command", "Level", "Color", "Move", "Event"]) +
                 (str(len(self.enums) + 1) if self.enums else ""))
        lines = []
        if kind == 0:  # raw values
            e.raw = self.pick(["Int", "String"])
            names = ["low", "medium", "high", "north", "south", "red", "green", "blue", "up", "down"]
            r.shuffle(names)
            names = names[:r.randint(2, 4)]
            e.equatable = True
            lines.append(f"enum {e.name}: {e.raw}, CaseIterable {{")
            for i, n in enumerate(names):
                if e.raw == "Int" and (i == 0 or self.chance(0.3)):
                    lines.append(f"    case {n} = {r.randint(0, 5) + 10 * i}")
                elif e.raw == "String" and self.chance(0.4):
                    lines.append(f"    case {n} = \"{n.upper()}\"")
                else:
                    lines.append(f"    case {n}")
                e.cases.append((n, []))
            lines += ["", "    func describe() -> String {", "        switch self {"]
            raw = self.pick(["rawValue", "self.rawValue"])
            for n, _ in e.cases:
                lines.append(f"        case .{n}: return \"{n} is \\({raw})\"")
            lines += ["        }", "    }", "}"]
            e.methods.append(("describe", "String", 0))
        elif kind == 1:  # associated values
            lines.append(f"enum {e.name} {{")
            opts = [("circle", [("radius", "Double")]), ("rect", [(None, "Int"), (None, "Int")]),
                    ("label", [(None, "String")]), ("empty", []), ("point", [("x", "Int"), ("y", "Int")]),
                    ("many", [(None, "[Int]")])]
            r.shuffle(opts)
            e.cases = opts[:r.randint(2, 4)]
            for n, assoc in e.cases:
                if assoc:
                    inner = ", ".join(f"{l}: {t}" if l else t for l, t in assoc)
                    lines.append(f"    case {n}({inner})")
                else:
                    lines.append(f"    case {n}")
            lines += ["", "    func weight() -> Int {", "        switch self {"]
            for n, assoc in e.cases:
                binds = []
                expr = []
                for i, (l, t) in enumerate(assoc):
                    v = f"v{i}"
                    binds.append(f"let {v}")
                    if t == "Int":
                        expr.append(v)
                    elif t == "Double":
                        expr.append(f"Int({v})")
                    elif t == "String":
                        expr.append(f"{v}.count")
                    else:
                        expr.append(f"{v}.count")
                pat = f".{n}" + (f"({', '.join(binds)})" if binds else "")
                lines.append(f"        case {pat}: return {' + '.join(expr) if expr else str(r.randint(0, 9))}")
            lines += ["        }", "    }", "}"]
            e.methods.append(("weight", "Int", 4000))
        else:  # plain cases
            names = ["start", "stop", "pause", "left", "right", "idle"]
            r.shuffle(names)
            e.equatable = True
            lines.append(f"enum {e.name} {{")
            lines.append("    case " + ", ".join(names[:r.randint(2, 4)]))
            e.cases = [(n, []) for n in names[:len(lines[-1].split(","))]]
            lines += ["", "    var next: " + e.name + " {", "        switch self {"]
            for i, (n, _) in enumerate(e.cases):
                lines.append(f"        case .{n}: return .{e.cases[(i + 1) % len(e.cases)][0]}")
            lines += ["        }", "    }", "}"]
        self.decls += lines + [""]
        self.enums.append(e)

    def gen_func(self):
        r = self.rng
        form = r.randint(0, 5)
        saved = self.scopes
        self.scopes = [[]]
        lines = []
        if form <= 1:  # Int result with labels and a default
            name = self.fresh(self.pick(["combine", "score", "mix", "weigh", "fold"]))
            label2 = self.pick(["with", "by", "and", "plus"])
            default = r.randint(0, 9)
            self.declare(Var("a", "Int", False, STORE))
            self.declare(Var("b", "Int", False, STORE))
            body = self.int_expr(2, 10 ** 12)
            lines = [f"func {name}(_ a: Int, {label2} b: Int = {default}) -> Int {{"]
            if self.chance(0.5):
                c = self.bool_expr(1)
                alt = self.int_expr(1, 10 ** 12)
                lines += [f"    if {c.code} {{", f"        return {alt.code}", "    }"]
                b = max(body.b, alt.b)
            else:
                b = body.b
            lines += [f"    return {body.code}", "}"]
            self.funcs.append(Func(name, [("_", "a", "Int", None), (label2, "b", "Int", str(default))], "Int", b))
        elif form == 2:  # String result
            name = self.fresh(self.pick(["greet", "tag", "render", "format"]))
            self.declare(Var("name", "String", False))
            self.declare(Var("times", "Int", False, STORE))
            body = self.string_expr(2)
            lines = [f"func {name}(_ name: String, times: Int = 1) -> String {{",
                     "    var out = \"\"", "    for i in 0..<min(max(times, 0), 3) {",
                     f"        out += i == 0 ? {body.p()} : \"|\"", "    }", "    return out", "}"]
            self.funcs.append(Func(name, [("_", "name", "String", None), ("times", "times", "Int", "1")], "String"))
        elif form == 3:  # optional result with guard
            name = self.fresh(self.pick(["find", "lookup", "pick"]))
            self.declare(Var("xs", "[Int]", False, minlen=0, maxlen=20, elemb=STORE))
            self.declare(Var("limit", "Int", False, STORE))
            k = r.randint(0, 5)
            lines = [f"func {name}(in xs: [Int], above limit: Int) -> Int? {{",
                     "    guard !xs.isEmpty else { return nil }",
                     "    for x in xs where x > limit {",
                     f"        return x + {k}", "    }", "    return nil", "}"]
            self.funcs.append(Func(name, [("in", "xs", "[Int]", None), ("above", "limit", "Int", None)], "Int?",
                                   STORE + k))
        elif form == 4:  # recursion
            name = self.fresh(self.pick(["fib", "steps", "depth"]))
            lines = [f"func {name}(_ n: Int) -> Int {{",
                     "    if n <= 1 { return max(n, 0) }",
                     f"    return {name}(n - 1) + {name}(n - 2)", "}"]
            self.decls += lines + [""]
            self.scopes = saved
            self.recursive.append(name)
            return
        else:  # Bool result
            name = self.fresh(self.pick(["isSmall", "accepts", "matches"]))
            self.declare(Var("value", "Int", False, STORE))
            self.declare(Var("text", "String", False))
            body = self.bool_expr(2)
            lines = [f"func {name}(_ value: Int, text: String = \"{self.pick(SIMPLE_WORDS)}\") -> Bool {{",
                     f"    return {body.code}", "}"]
            self.funcs.append(Func(name, [("_", "value", "Int", None), ("text", "text", "String", '""')], "Bool"))
        self.scopes = saved
        self.decls += lines + [""]

    # ---- statements ------------------------------------------------------------------------------------------------

    def ind(self, level):
        return "    " * level

    def stmt(self, level, depth, out):
        r = self.rng
        i = self.ind(level)
        choice = r.randint(0, 27)
        if choice <= 4:
            self.stmt_decl(level, out)
        elif choice <= 8:
            self.stmt_print(level, out)
        elif choice <= 11:
            self.stmt_mutate(level, out)
        elif choice == 12 and depth > 0:
            c = self.bool_expr(2)
            out.append(f"{i}if {c.p()} {{")
            self.block(level + 1, depth - 1, out, r.randint(1, 3))
            if self.chance(0.6):
                if self.chance(0.3):
                    c2 = self.bool_expr(1)
                    out.append(f"{i}}} else if {c2.p()} {{")
                    self.block(level + 1, depth - 1, out, r.randint(1, 2))
                out.append(f"{i}}} else {{")
                self.block(level + 1, depth - 1, out, r.randint(1, 2))
            out.append(f"{i}}}")
        elif choice in (13, 14) and depth > 0:
            self.stmt_for(level, depth, out)
        elif choice == 15 and depth > 0:
            n = r.randint(0, 6)
            k = self.fresh("k")
            out.append(f"{i}var {k} = 0")
            out.append(f"{i}while {k} < {n} {{")
            self.loop_body(level + 1, depth - 1, out, n, extra=lambda: out.append(f"{i}    {k} += 1"),
                           avoid_continue=True)
            out.append(f"{i}}}")
        elif choice == 16:
            self.stmt_if_let(level, depth, out)
        elif choice == 17 and depth > 0:
            self.stmt_switch_int(level, depth, out)
        elif choice == 18 and self.enums:
            self.stmt_switch_enum(level, out)
        elif choice == 19 and self.structs:
            self.stmt_struct(level, out)
        elif choice == 20:
            self.stmt_closure(level, out)
        elif choice == 21:
            self.stmt_dict(level, out)
        elif choice == 22 and self.recursive:
            f = self.pick(self.recursive)
            out.append(f"{i}print(\"{f}\", {f}({r.randint(0, 15)}))")
        elif choice == 23:
            self.stmt_tuple(level, out)
        elif choice == 24 and depth > 0:
            n = r.randint(1, 4)
            k = self.fresh("t")
            out.append(f"{i}var {k} = 0")
            out.append(f"{i}repeat {{")
            self.loop_body(level + 1, depth - 1, out, n, extra=lambda: out.append(f"{i}    {k} += 1"),
                           avoid_continue=True)
            out.append(f"{i}}} while {k} < {n}")
        elif choice == 25:
            self.stmt_optional_chain(level, out)
        elif choice == 26:
            self.stmt_string_loop(level, out)
        else:
            self.stmt_print(level, out)

    def block(self, level, depth, out, n):
        self.push()
        for _ in range(n):
            self.stmt(level, depth, out)
        self.pop()

    def loop_body(self, level, depth, out, iterations, extra=None, avoid_continue=False):
        saved = self.loop_mult
        self.loop_mult *= max(iterations, 1)
        self.push()
        for _ in range(self.rng.randint(1, 3)):
            self.stmt(level, depth, out)
        if not avoid_continue and self.chance(0.2):
            c = self.bool_expr(1)
            out.append(f"{self.ind(level)}if {c.p()} {{ {self.pick(['break', 'continue'])} }}")
        if extra:
            extra()
        self.pop()
        self.loop_mult = saved

    def stmt_decl(self, level, out):
        r = self.rng
        i = self.ind(level)
        ty = self.pick(["Int", "Int", "Double", "String", "Bool", "Int?", "String?", "[Int]", "[String]", "[Double]",
                        "[Int]"])
        mutable = self.chance(0.5)
        kw = "var" if mutable else "let"
        prefix = {"Int": "n", "Double": "d", "String": "s", "Bool": "flag", "Int?": "maybe", "String?": "text",
                  "[Int]": "nums", "[String]": "words", "[Double]": "values"}[ty]
        name = self.fresh(prefix)
        if ty == "Int":
            e = self.store_int(self.int_expr(2), STORE if mutable else EXPR_MAX)
            if mutable:
                e = self.store_int(e, STORE)
            annot = ": Int" if self.chance(0.3) else ""
            out.append(f"{i}{kw} {name}{annot} = {e.code}")
            v = self.declare(Var(name, ty, mutable, (max(e.b, STORE) + BUDGET) if mutable else e.b))
            if mutable:
                v.base = max(e.b, STORE)
        elif ty == "Double":
            e = self.double_expr(2, 1e9)
            annot = ": Double" if self.chance(0.3) else ""
            out.append(f"{i}{kw} {name}{annot} = {e.code}")
            v = self.declare(Var(name, ty, mutable, (max(e.b, STORE) + BUDGET) if mutable else e.b))
            v.base = max(e.b, STORE)
        elif ty in ("String", "Bool"):
            e = self.expr_of(ty, 2)
            out.append(f"{i}{kw} {name} = {e.code}")
            self.declare(Var(name, ty, mutable))
        elif ty in ("Int?", "String?"):
            e = self.opt_expr(ty, 2)
            if e is None or self.chance(0.2):
                code, b = ("nil", 0) if self.chance(0.5) else (
                    (self.int_lit().code, 50) if ty == "Int?" else (self.string_lit().code, 0))
            else:
                code, b = e.code, e.b
            if ty == "Int?" and b > STORE and mutable:
                code, b = "nil", 0
            out.append(f"{i}{kw} {name}: {ty} = {code}")
            self.declare(Var(name, ty, mutable, b))
        else:
            e = self.array_expr(ty, 2)
            if e is None or self.chance(0.15):
                e = self.array_lit(ty, typed_context=True)
            if mutable and (e.elemb > STORE or e.maxlen > 50):
                e = self.array_lit(ty)
            annot = f": {ty}" if e.code == "[]" or self.chance(0.3) else ""
            out.append(f"{i}{kw} {name}{annot} = {e.code}")
            v = self.declare(Var(name, ty, mutable, minlen=e.minlen, maxlen=e.maxlen + (50 if mutable else 0),
                                 elemb=max(e.elemb, STORE if mutable else 0)))
            v.appends = 50 if mutable else 0
        if self.chance(0.5):
            out.append(f"{i}print(\"{name}:\", {name})")

    def stmt_print(self, level, out):
        r = self.rng
        i = self.ind(level)
        ty = self.pick(["Int", "Int", "Double", "String", "Bool", "Int?", "String?", "[Int]", "[String]", "[Double]",
                        "struct", "enum", "tuple", "Double"])
        if ty == "struct":
            s = self.struct_expr_any(2)
            if s is None:
                ty = "Int"
            else:
                out.append(f"{i}print({s[1].code})")
                return
        if ty == "enum":
            if not self.enums:
                ty = "String"
            else:
                e = self.pick(self.enums)
                if self.chance(0.3):  # inside a collection Swift prints a case with its type: [Color.red]
                    out.append(f"{i}print([{self.enum_value(e, 2).code}, {self.enum_value(e, 2).code}])")
                else:
                    out.append(f"{i}print({self.enum_value(e, 2).code})")
                return
        if ty == "tuple":
            a, b = self.int_expr(1), self.string_expr(1)
            out.append(f"{i}print(({a.code}, {b.code}))")
            return
        e = self.expr_of(ty, 2)
        if e is None:
            e = self.int_expr(2)
        form = r.randint(0, 9)
        if form == 0:
            e2 = self.expr_of(self.pick(["Int", "String", "Double", "Bool"]), 1)
            out.append(f"{i}print({e.code}, {e2.code})")
        elif form == 1:
            e2 = self.expr_of(self.pick(["Int", "String"]), 1)
            out.append(f"{i}print({e.code}, {e2.code}, separator: \"{self.pick([', ', '', ' | ', '-'])}\")")
        elif form == 2:
            out.append(f"{i}print({e.code}, terminator: \"{self.pick(['', ' ', ';'])}\")")
            out.append(f"{i}print(\"<\")")
        elif form == 3:
            out.append(f"{i}print(\"value: \\({e.code})\")")
        else:
            out.append(f"{i}print({e.code})")

    def stmt_mutate(self, level, out):
        r = self.rng
        i = self.ind(level)
        vs = self.vars(lambda v: v.mutable and v.ty in ("Int", "Double", "String", "Bool", "[Int]", "[String]",
                                                         "[Double]", "Int?"))
        if not vs:
            self.stmt_decl(level, out)
            return
        v = self.pick(vs)
        if v.ty == "Int":
            e = self.int_expr(1, 1000)
            cost = e.b * self.loop_mult
            if self.chance(0.6) and cost <= v.budget and not self.in_closure:
                v.budget -= cost
                out.append(f"{i}{v.name} {self.pick(['+=', '-='])} {e.code}")
            elif self.chance(0.5):
                e = self.store_int(self.int_expr(2), STORE)
                out.append(f"{i}{v.name} = {e.code}")
            else:
                e = self.int_expr(1, 1000)
                out.append(f"{i}{v.name} = ({v.name} {self.pick(['+', '*', '-'])} {e.p()}) % {STORE}")
        elif v.ty == "Double":
            e = self.double_expr(1, 1000)
            cost = e.b * self.loop_mult
            if cost <= v.budget and self.chance(0.6):
                v.budget -= cost
                out.append(f"{i}{v.name} {self.pick(['+=', '-=', '+='])} {e.code}")
            else:
                e = self.double_expr(2, STORE)
                out.append(f"{i}{v.name} = {e.code}")
        elif v.ty == "String":
            if self.loop_mult <= 50 and self.chance(0.6):
                e = self.string_lit(simple=True) if self.loop_mult > 1 else self.string_expr(1)
                out.append(f"{i}{v.name} += {e.code}")
            else:
                out.append(f"{i}{v.name} = {self.string_expr(2).code}")
        elif v.ty == "Bool":
            if self.chance(0.5):
                out.append(f"{i}{v.name}.toggle()")
            else:
                out.append(f"{i}{v.name} = {self.bool_expr(2).code}")
        elif v.ty == "Int?":
            if self.chance(0.4):
                out.append(f"{i}{v.name} = nil")
            else:
                e = self.store_int(self.int_expr(1), STORE)
                out.append(f"{i}{v.name} = {e.code}")
                v.b = max(v.b, e.b)
        else:  # arrays
            elem = {"[Int]": "Int", "[String]": "String", "[Double]": "Double"}[v.ty]
            form = r.randint(0, 4)
            if form <= 1 and self.loop_mult <= getattr(v, "appends", 0):
                v.appends -= self.loop_mult
                if elem == "Int":
                    e = self.store_int(self.int_expr(1), STORE)
                elif elem == "Double":
                    e = self.double_expr(1, STORE)
                else:
                    e = self.string_expr(1)
                out.append(f"{i}{v.name}.append({e.code})")
            elif form == 2 and v.minlen > 0 and self.loop_mult == 1 and level == 1:
                op = self.pick(["removeLast()", "removeFirst()", "remove(at: 0)"])
                out.append(f"{i}{v.name}.{op}")
                v.minlen -= 1
            elif form == 3 and v.minlen > 0:
                idx = r.randint(0, v.minlen - 1)
                if elem == "Int":
                    e = self.store_int(self.int_expr(1), STORE)
                elif elem == "Double":
                    e = self.double_expr(1, STORE)
                else:
                    e = self.string_expr(1)
                out.append(f"{i}{v.name}[{idx}] = {e.code}")
            elif form == 4 and elem != "Double":
                out.append(f"{i}{v.name}.sort()" if self.chance(0.6) else f"{i}{v.name}.sort(by: >)")
            elif self.loop_mult == 1 and getattr(v, "appends", 0) >= 5 and elem != "Double":
                v.appends -= 5
                other = self.array_lit(v.ty)
                if other.maxlen == 0:
                    other = E("[]", v.ty, atom=True)
                out.append(f"{i}{v.name} += {other.code}")
            else:
                out.append(f"{i}print({v.name}.count, {v.name}.isEmpty)")

    def stmt_for(self, level, depth, out):
        r = self.rng
        i = self.ind(level)
        form = r.randint(0, 5)
        name = self.fresh(self.pick(["i", "j", "x", "idx"]))
        if form <= 1:
            lo = r.randint(0, 3)
            n = r.randint(0, 7)
            rng_code = f"{lo}..<{lo + n}" if self.chance(0.6) else f"{lo}...{lo + n}"
            iters = n + 1
            out.append(f"{i}for {name} in {rng_code} {{")
            self.push()
            self.declare(Var(name, "Int", False, lo + n + 1))
        elif form == 2:
            a = self.array_expr("[Int]", 1)
            if a is None or a.maxlen > 30:
                a = self.array_lit("[Int]")
            iters = a.maxlen
            out.append(f"{i}for {name} in {a.p()} {{")
            self.push()
            self.declare(Var(name, "Int", False, a.elemb))
        elif form == 3:
            a = self.array_expr("[String]", 1)
            if a is None or a.maxlen > 30:
                a = self.array_lit("[String]")
            iters = a.maxlen
            if self.chance(0.5):
                idx = self.fresh("n")
                out.append(f"{i}for ({idx}, {name}) in {a.p()}.enumerated() {{")
                self.push()
                self.declare(Var(idx, "Int", False, a.maxlen))
            else:
                out.append(f"{i}for {name} in {a.p()} {{")
                self.push()
            self.declare(Var(name, "String", False))
        elif form == 4:
            hi = r.randint(0, 20)
            step = r.randint(1, 5)
            iters = hi // step + 1
            out.append(f"{i}for {name} in stride(from: {hi}, {self.pick(['to', 'through'])}: 0, by: -{step}) {{")
            self.push()
            self.declare(Var(name, "Int", False, hi))
        else:
            a = self.array_expr("[Int]", 1)
            if a is None or a.maxlen > 30:
                a = self.array_lit("[Int]")
            iters = a.maxlen
            out.append(f"{i}for {name} in {a.p()}.indices {{")
            self.push()
            self.declare(Var(name, "Int", False, a.maxlen))
            out.append(f"{i}    print({name}, {a.p()}[{name}])")
        self.loop_body(level + 1, depth - 1, out, iters)
        self.pop()
        out.append(f"{i}}}")

    def stmt_if_let(self, level, depth, out):
        i = self.ind(level)
        ty = self.pick(["Int?", "String?"])
        o = self.opt_expr(ty, 2)
        if o is None:
            self.stmt_print(level, out)
            return
        name = self.fresh("u")
        out.append(f"{i}if let {name} = {o.p()} {{")
        self.push()
        self.declare(Var(name, ty[:-1], False, o.b))
        for _ in range(self.rng.randint(1, 2)):
            self.stmt(level + 1, max(0, depth - 1), out)
        if self.chance(0.5):
            out.append(f"{i}    print(\"got\", {name})")
        self.pop()
        out.append(f"{i}}} else {{")
        out.append(f"{i}    print(\"no {ty[:-1].lower()}\")")
        out.append(f"{i}}}")

    def stmt_switch_int(self, level, depth, out):
        r = self.rng
        i = self.ind(level)
        e = self.int_expr(1, 10 ** 6)
        out.append(f"{i}switch {e.p()} {{")
        lo = r.randint(-2, 2)
        out.append(f"{i}case {lo}:")
        out.append(f"{i}    print(\"exactly {lo}\")")
        out.append(f"{i}case {lo + 1}...{lo + 5}:")
        self.block(level + 1, 0, out, 1)
        if self.chance(0.5):
            name = self.fresh("w")
            out.append(f"{i}case let {name} where {name} % 2 == 0:")
            out.append(f"{i}    print(\"even\", {name})")
        out.append(f"{i}default:")
        out.append(f"{i}    print(\"other\")")
        out.append(f"{i}}}")

    def stmt_switch_enum(self, level, out):
        i = self.ind(level)
        e = self.pick(self.enums)
        val = self.enum_value(e, 1)
        out.append(f"{i}switch {val.code} {{")
        covered = self.rng.randint(1, len(e.cases))
        for n, assoc in e.cases[:covered]:
            if assoc:
                names = [self.fresh("p") for _ in assoc]
                out.append(f"{i}case .{n}({', '.join('let ' + x for x in names)}):")
                out.append(f"{i}    print(\"{n}\", {', '.join(names)})")
            else:
                out.append(f"{i}case .{n}:")
                out.append(f"{i}    print(\"{n}\")")
        if covered < len(e.cases):
            out.append(f"{i}default:")
            out.append(f"{i}    print(\"another {e.name}\")")
        out.append(f"{i}}}")
        if e.raw and self.chance(0.6):
            if e.raw == "Int":
                out.append(f"{i}print({e.name}(rawValue: {self.rng.randint(0, 12)}) as Any, "
                           f"{e.name}.allCases.map {{ $0.rawValue }})")
            else:
                out.append(f"{i}print({e.name}(rawValue: \"{self.pick(e.cases)[0]}\") as Any, "
                           f"{e.name}.allCases.count)")
        elif not e.raw and any(m[0] == "weight" for m in e.methods) and self.chance(0.5):
            out.append(f"{i}print({self.enum_value(e, 1).p()}.weight())")
        elif e.equatable and not e.raw and self.chance(0.5):
            out.append(f"{i}print({self.enum_value(e, 1).p()}.next)")

    def stmt_struct(self, level, out):
        i = self.ind(level)
        st = self.pick(self.structs)
        vs = self.vars(lambda v: v.ty == st.name and v.mutable)
        if not vs or self.chance(0.3):
            name = self.fresh(st.name.lower()[:4])
            init = self.struct_init(st, 1)
            out.append(f"{i}var {name} = {init.code}")
            v = self.declare(Var(name, st.name, True))
        else:
            v = self.pick(vs)
        for _ in range(self.rng.randint(1, 3)):
            if st.mutating and self.chance(0.6):
                m, label = self.pick(st.mutating)
                if m == "bump":
                    arg = self.store_int(self.int_expr(1), STORE)
                    out.append(f"{i}{v.name}.bump()" if self.chance(0.3) else f"{i}{v.name}.bump(by: {arg.code})")
                elif m == "rename":
                    out.append(f"{i}{v.name}.rename(to: {self.string_expr(1).code})")
                else:
                    out.append(f"{i}{v.name}.add({self.store_int(self.int_expr(1), STORE).code})")
            else:
                fname, fty, b = self.pick(st.fields)
                out.append(f"{i}{v.name}.{fname} = {self.arg_for(fty, 1, b if b else STORE)}")
        what = [f"{v.name}"] + [f"{v.name}.{n}" for n, _, _ in st.computed]
        out.append(f"{i}print({', '.join(what)})")

    def stmt_closure(self, level, out):
        r = self.rng
        i = self.ind(level)
        form = r.randint(0, 3)
        if form == 0:  # a closure capturing a variable
            c = self.fresh("counter")
            f = self.fresh("bump")
            k = r.randint(1, 9)
            out.append(f"{i}var {c} = {r.randint(0, 5)}")
            out.append(f"{i}let {f} = {{ (step: Int) -> Int in")
            out.append(f"{i}    {c} = ({c} + step * {k}) % 1000")
            out.append(f"{i}    return {c}")
            out.append(f"{i}}}")
            for _ in range(r.randint(1, 3)):
                out.append(f"{i}print({f}({r.randint(0, 20)}), {c})")
            self.declare(Var(c, "Int", False, 1000))
        elif form == 1:  # a stored function value
            name = self.fresh("transform")
            k = r.randint(1, 6)
            body = self.pick([f"x * {k}", f"x + {k}", f"x % {k + 1}", f"max(x, {k})", f"-x"])
            out.append(f"{i}let {name}: (Int) -> Int = {{ x in {body} }}")
            v = self.declare(Var(name, "(Int) -> Int", False, STORE * k))
            a = self.array_expr("[Int]", 1)
            if a is not None and a.elemb <= STORE:
                out.append(f"{i}print({a.p()}.map({name}))")
            else:
                out.append(f"{i}print({name}({r.randint(-5, 20)}))")
        elif form == 2:  # a function returning a closure
            name = self.fresh("makeAdder")
            if name not in self.used_names:
                self.used_names.add(name)
                k = r.randint(1, 5)
                self.decls += [f"func {name}(_ base: Int) -> (Int) -> Int {{",
                               f"    var calls = 0",
                               "    return { x in",
                               "        calls += 1",
                               f"        return (base + x * calls * {k}) % {STORE}",
                               "    }", "}", ""]
            add = self.fresh("adder")
            out.append(f"{i}let {add} = {name}({r.randint(0, 50)})")
            out.append(f"{i}print({add}(1), {add}(2), {add}({r.randint(0, 9)}))")
        else:  # sorted with a closure over a struct-free tuple list
            names = [self.pick(SIMPLE_WORDS) for _ in range(r.randint(2, 5))]
            scores = [r.randint(0, 9) for _ in names]
            v = self.fresh("pairs")
            items = ", ".join(f"(\"{n}\", {s})" for n, s in zip(names, scores))
            out.append(f"{i}let {v}: [(String, Int)] = [{items}]")
            out.append(f"{i}let {v}Sorted = {v}.sorted {{ $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }}")
            out.append(f"{i}print({v}Sorted.map {{ $0.0 }}, {v}.map {{ $0.1 }}.reduce(0, +))")

    def stmt_dict(self, level, out):
        r = self.rng
        i = self.ind(level)
        dv = self.vars(lambda v: v.ty == "[String: Int]" and v.mutable)
        if not dv or self.chance(0.3):
            name = self.fresh("table")
            keys = list(dict.fromkeys(self.pick(SIMPLE_WORDS[:6]) for _ in range(r.randint(0, 4))))
            items = ", ".join(f"\"{k}\": {r.randint(0, 20)}" for k in keys)
            out.append(f"{i}var {name}: [String: Int] = [{items if items else ':'}]")
            v = self.declare(Var(name, "[String: Int]", True, elemb=1000))
        else:
            v = self.pick(dv)
        form = r.randint(0, 3)
        if form == 0:
            a = self.array_expr("[String]", 1)
            if a is None or a.maxlen > 30:
                a = self.array_lit("[String]")
            w = self.fresh("w")
            out.append(f"{i}for {w} in {a.p()} {{")
            out.append(f"{i}    {v.name}[{w}, default: 0] += 1")
            out.append(f"{i}}}")
            v.elemb += 30
        elif form == 1:
            out.append(f"{i}{v.name}[{self.string_key()}] = {r.randint(0, 99)}")
            if self.chance(0.5):
                out.append(f"{i}{v.name}[{self.string_key()}] = nil")
            v.elemb = max(v.elemb, 99)
        elif form == 2:
            out.append(f"{i}if let old = {v.name}.removeValue(forKey: {self.string_key()}) {{")
            out.append(f"{i}    print(\"removed\", old)")
            out.append(f"{i}}}")
        else:
            out.append(f"{i}{v.name}[{self.string_key()}, default: 0] += {r.randint(1, 9)}")
            v.elemb += 9
        show = r.randint(0, 3)
        if show == 0:
            k = self.fresh("key")
            out.append(f"{i}for {k} in {v.name}.keys.sorted() {{")
            out.append(f"{i}    print({k}, {v.name}[{k}]!)")
            out.append(f"{i}}}")
        elif show == 1:
            out.append(f"{i}print({v.name}.count, {v.name}.values.sorted(), {v.name}.keys.sorted())")
        elif show == 2:
            out.append(f"{i}print({v.name}.sorted {{ $0.key < $1.key }}.map {{ \"\\($0.key)=\\($0.value)\" }})")
        else:
            out.append(f"{i}print({v.name}[{self.string_key()}] as Any, {v.name}.values.reduce(0, +))")

    def stmt_tuple(self, level, out):
        i = self.ind(level)
        a, b = self.fresh("q"), self.fresh("r")
        x = self.int_expr(1, STORE)
        k = self.rng.randint(2, 9)
        out.append(f"{i}let ({a}, {b}) = ({x.p()} / {k}, {x.p()} % {k})")
        out.append(f"{i}print({a}, {b})")
        self.declare(Var(a, "Int", False, x.b))
        self.declare(Var(b, "Int", False, k))

    def stmt_optional_chain(self, level, out):
        i = self.ind(level)
        if self.structs and self.chance(0.6):
            st = self.pick(self.structs)
            name = self.fresh("opt")
            init = self.struct_init(st, 1).code if self.chance(0.6) else "nil"
            out.append(f"{i}let {name}: {st.name}? = {init}")
            field = self.pick(st.fields)[0]
            extra = ""
            if st.computed:
                extra = f", {name}?.{self.pick(st.computed)[0]} as Any"
            out.append(f"{i}print({name}?.{field} as Any{extra})")
            out.append(f"{i}print({name}.map {{ \"\\($0.{field})\" }} ?? \"no {st.name}\")")
        else:
            o = self.opt_expr("String?", 1)
            code = o.code if o is not None else f"[{self.string_lit(simple=True).code}].first"
            out.append(f"{i}print(({code})?.count as Any, ({code})?.uppercased() ?? \"-\")")

    def stmt_string_loop(self, level, out):
        i = self.ind(level)
        s = self.fresh("acc")
        src = self.string_lit(simple=True)
        out.append(f"{i}var {s} = \"\"")
        ch = self.fresh("c")
        form = self.rng.randint(0, 2)
        if form == 0:
            out.append(f"{i}for {ch} in {src.code} {{")
            out.append(f"{i}    {s} = String({ch}) + {s}")
            out.append(f"{i}}}")
        elif form == 1:
            words = self.array_lit("[String]")
            out.append(f"{i}for {ch} in {words.p()} where !{ch}.isEmpty {{")
            out.append(f"{i}    {s} += {s}.isEmpty ? {ch} : \"+\" + {ch}")
            out.append(f"{i}}}")
        else:
            out.append(f"{i}for {ch} in {src.code}.uppercased() {{")
            out.append(f"{i}    if {ch} != \"A\" {{ {s}.append({ch}) }}")
            out.append(f"{i}}}")
        out.append(f"{i}print({s}, {s}.count)")
        self.declare(Var(s, "String", True))

    # ---- feature snippets: a declaration or two and the statements of main that use them ---------------------------

    def snippet_protocol(self, out):
        r = self.rng
        p = self.fresh("Describable")
        a, b = self.fresh("Square"), self.fresh("Label")
        k = r.randint(2, 5)
        me = self.pick(["", "self."])  # members of self in a protocol extension: implicit or explicit
        self.decls += [f"protocol {p} {{", "    var title: String { get }", "    func area() -> Double", "}", "",
                       f"extension {p} {{", "    func summary() -> String {", f"        \"\\({me}title): \\({me}area())\"",
                       "    }", "}", "",
                       f"struct {a}: {p} {{", "    var side: Double", f"    var title: String {{ \"square \\(side)\" }}",
                       "    func area() -> Double { side * side }", "}", "",
                       f"struct {b}: {p} {{", "    var text: String", "    var title: String { text }",
                       f"    func area() -> Double {{ Double(text.count * {k}) }}",
                       "    func summary() -> String { \"label \\(text)\" }", "}", ""]
        items = [f"{a}(side: {self.double_lit().code})" if self.chance(0.5) else f"{b}(text: {self.string_lit().code})"
                 for _ in range(r.randint(1, 4))]
        name = self.fresh("shapes")
        any_kw = self.pick(["any ", ""])
        x = self.fresh("shape")
        out += [f"    let {name}: [{any_kw}{p}] = [{', '.join(items)}]",
                f"    for {x} in {name} {{", f"        print({x}.title, {x}.area(), {x}.summary())", "    }",
                f"    print({name}.map {{ $0.area() }}.reduce(0, +))"]

    def snippet_generic(self, out):
        r = self.rng
        f = self.fresh("largest")
        g = self.fresh("pair")
        self.decls += [f"func {f}<T: Comparable>(_ xs: [T]) -> T? {{", "    var best: T? = nil",
                       "    for x in xs {", "        if let b = best, b >= x { continue }", "        best = x", "    }",
                       "    return best", "}", "",
                       f"func {g}<A, B>(_ a: A, _ b: B) -> (A, B) {{", "    return (a, b)", "}", ""]
        ints = self.array_lit("[Int]", typed_context=True)
        strs = self.array_lit("[String]", typed_context=True)
        out += [f"    let {f}Ints: [Int] = {ints.code}", f"    let {f}Words: [String] = {strs.code}",
                f"    print({f}({f}Ints) as Any, {f}({f}Words) ?? \"-\")",
                f"    print({g}({self.int_lit().code}, {self.string_lit().code}), {g}({f}Ints.count, {self.double_lit().code}))"]

    def snippet_inout(self, out):
        f = self.fresh("twice")
        s = self.fresh("swapEnds")
        self.decls += [f"func {f}(_ x: inout Int) {{", f"    x = (x * 2) % {STORE}", "}", "",
                       f"func {s}(_ xs: inout [Int]) {{", "    guard xs.count > 1 else { return }",
                       "    xs.swapAt(0, xs.count - 1)", "}", ""]
        v, w = self.fresh("z"), self.fresh("list")
        out += [f"    var {v} = {self.int_lit(0, 99).code}", f"    {f}(&{v})", f"    {f}(&{v})",
                f"    var {w}: [Int] = {self.array_lit('[Int]', typed_context=True).code}", f"    {s}(&{w})",
                f"    print({v}, {w})"]

    def snippet_static(self, out):
        r = self.rng
        t = self.fresh("Settings")
        self.decls += [f"struct {t} {{", f"    static let limit = {r.randint(2, 9)}",
                       f"    static let names = [{', '.join(self.string_lit(simple=True).code for _ in range(3))}]",
                       "    static func clamp(_ v: Int) -> Int {", "        return min(max(v, 0), limit)", "    }",
                       "}", ""]
        out += [f"    print({t}.limit, {t}.names.count, {t}.clamp({r.randint(-5, 15)}), {t}.clamp({r.randint(-5, 15)}))"]

    def snippet_labeled(self, out):
        r = self.rng
        a, b = self.fresh("i"), self.fresh("j")
        n = r.randint(2, 5)
        out += [f"    outer: for {a} in 0..<{n} {{", f"        for {b} in 0..<{n} {{",
                f"            if {b} > {a} {{ continue outer }}",
                f"            if {a} * {b} > {r.randint(2, 8)} {{ break outer }}",
                f"            print({a}, {b}, terminator: \"; \")", "        }", "    }", "    print()"]

    def snippet_switch_tuple(self, out):
        r = self.rng
        x = self.fresh("code")
        w = self.pick(SIMPLE_WORDS)
        out += [f"    for {x} in 0..<{r.randint(3, 7)} {{", f"        switch ({x} % 3, {x} % 2) {{",
                "        case (0, 0): print(\"fizz-even\")", "        case (0, _): print(\"fizz\")",
                "        case (let a, 1) where a > 1: print(\"odd\", a)", "        default: print(\"plain\")",
                "        }", "    }",
                f"    switch \"{w}\" {{", "    case \"apple\", \"kiwi\": print(\"fruit\")",
                "    case let s where s.count > 4: print(\"long\", s)", "    default: print(\"short\")", "    }"]

    def snippet_set(self, out):
        s = self.fresh("seen")
        a = self.array_lit("[Int]", typed_context=True)
        b = self.array_lit("[Int]", typed_context=True)
        # an array literal where a Set is expected, or Set(_:) of an array
        first = f"    var {s}: Set<Int> = {a.code}" if self.chance(0.5) else f"    var {s} = Set<Int>({a.code})"
        other = f"    let {s}Other: Set<Int> = {b.code}" if self.chance(0.5) else f"    let {s}Other = Set({b.code} + [0])"
        out += [first, f"    {s}.insert({self.int_lit(0, 9).code})", other,
                f"    print({s}.count, {s}.sorted(), {s}.contains(3), {s}.union({s}Other).sorted(), "
                f"{s}.intersection({s}Other).sorted())",
                f"    print({s}.isSubset(of: {s}Other), {s}.subtracting({s}Other).sorted())"]

    def snippet_int_api(self, out):
        r = self.rng
        n = self.fresh("m")
        out += [f"    let {n} = {r.randint(-300, 300)}",
                f"    print({n}.isMultiple(of: {r.randint(1, 7)}), {n}.signum(), {n}.magnitude, String({n}, radix: "
                f"{self.pick([2, 8, 16])}))",
                f"    print({n}.quotientAndRemainder(dividingBy: {r.randint(1, 9)}), Int.max, Int.min, "
                f"{n} / {r.randint(1, 9)} * {r.randint(1, 9)})",
                f"    print(({n}...{n} + {r.randint(0, 6)}).map {{ $0 & 7 }}, {n} << 2, {n} >> 1, ~{n}, {n} ^ 5)"]

    def snippet_double_api(self, out):
        d = self.fresh("y")
        out += [f"    let {d} = {self.pick(ODD_DOUBLES + ['-2.5', '2.5', '-0.5', '7.125'])}",
                f"    print({d}.rounded(), {d}.rounded(.towardZero), {d}.rounded(.down), "
                f"{d}.truncatingRemainder(dividingBy: 0.75))",
                f"    print(Int({d}), Double.pi * {d}, {d} / 3, {d} * 1e6, -{d}, {d}.isNaN, Double(Int({d})) == {d})",
                f"    print(0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 1e-7, 123456789.0 * 1000, 5e-324, 1.0 / 0.0)"]

    def snippet_guard(self, out):
        r = self.rng
        f = self.fresh("parse")
        self.decls += [f"func {f}(_ text: String) -> String {{",
                       "    guard let n = Int(text) else {", "        return \"not a number: \\(text)\"", "    }",
                       "    guard n >= 0 else { return \"negative\" }",
                       f"    return n % 2 == 0 ? \"even \\(n)\" : \"odd \\(n * {r.randint(2, 5)})\"", "}", ""]
        args = [self.pick(['"42"', '"-7"', '"x"', '""', '"13"', '"+8"', '"007"', '"1_000"']) for _ in range(3)]
        out += [f"    print({', '.join(f'{f}({a})' for a in args)})"]

    def snippet_nested_func(self, out):
        r = self.rng
        f = self.fresh("accumulate")
        out += [f"    func {f}(_ xs: [Int], start: Int = {r.randint(0, 9)}) -> [Int] {{",
                "        var running = start", "        var result: [Int] = []",
                "        for x in xs {", "            running += x", "            result.append(running)", "        }",
                "        return result", "    }",
                f"    print({f}({self.array_lit('[Int]', typed_context=True).code}), "
                f"{f}([1, 2, 3], start: {r.randint(-5, 5)}))"]

    def snippet_string_api(self, out):
        s = self.fresh("phrase")
        text = self.pick(['"Hello, World"', '"a-b-c"', '"  spaced out  "', '"Straße café"', '"one two  three"'])
        out += [f"    let {s} = {text}",
                f"    print({s}.count, {s}.uppercased(), {s}.lowercased(), {s}.isEmpty, {s}.first as Any, "
                f"{s}.last as Any)",
                f"    print({s}.split(separator: \" \"), {s}.hasPrefix(\"He\"), {s}.contains(\"o\"), "
                f"Array({s}.reversed()).count, {s}.dropFirst(2), {s}.prefix(3))",
                f"    print({s}.filter {{ $0 != \" \" }}, {s}.map {{ String($0) }}.joined(separator: \".\"))"]

    # ---- traps on purpose ----------------------------------------------------------------------------------------

    def trap(self, out):
        r = self.rng
        i = "    "
        kind = r.randint(0, 7)
        if kind == 0:
            n = self.fresh("items")
            items = ", ".join(str(r.randint(0, 9)) for _ in range(r.randint(0, 4)))
            out += [f"{i}let {n}: [Int] = [{items}]", f"{i}print(\"reading past the end of\", {n})",
                    f"{i}print({n}[{n}.count + {r.randint(0, 2)}])"]
        elif kind == 1:
            n = self.fresh("missing")
            out += [f"{i}let {n}: Int? = Int(\"{self.pick(['x', '', '1.5', 'ten'])}\")",
                    f"{i}print(\"unwrapping\", {n} == nil)", f"{i}print({n}!)"]
        elif kind == 2:
            n = self.fresh("big")
            out += [f"{i}var {n} = Int.max - {r.randint(0, 5)}",
                    f"{i}for step in 0..<10 {{", f"{i}    {n} += step", f"{i}    print({n})", f"{i}}}"]
        elif kind == 3:
            n = self.fresh("divisor")
            out += [f"{i}let {n} = [{r.randint(1, 5)}, 0].last!", f"{i}print(\"dividing\")",
                    f"{i}print({r.randint(1, 100)} {self.pick(['/', '%'])} {n})"]
        elif kind == 4:
            self.decls += ["func check(_ n: Int) -> Int {",
                           "    if n > 3 {", f"        fatalError(\"n is too big: \\(n)\")", "    }",
                           "    return n * 2", "}", ""]
            out += [f"{i}for n in 0..<6 {{", f"{i}    print(check(n))", f"{i}}}"]
        elif kind == 5:
            n = self.fresh("level")
            out += [f"{i}let {n} = {r.randint(0, 9)}", f"{i}print(\"checking\", {n})",
                    f"{i}precondition({n} < 0, \"level must be negative, got \\({n})\")", f"{i}print(\"unreachable\")"]
        elif kind == 6:
            n = self.fresh("stack")
            out += [f"{i}var {n} = [1, 2]", f"{i}print({n}.removeLast(), {n}.removeLast())",
                    f"{i}print({n}.removeLast())"]
        else:
            n = self.fresh("table")
            out += [f"{i}let {n} = [\"a\": 1]", f"{i}print({n}[\"a\"]!)", f"{i}print({n}[\"b\"]!)"]

    # ---- whole program -------------------------------------------------------------------------------------------

    def generate(self):
        r = self.rng
        snippets = [self.snippet_protocol, self.snippet_generic, self.snippet_inout, self.snippet_static,
                    self.snippet_labeled, self.snippet_switch_tuple, self.snippet_set, self.snippet_int_api,
                    self.snippet_double_api, self.snippet_guard, self.snippet_nested_func, self.snippet_string_api]
        chosen = r.sample(snippets, r.choice([0, 1, 1, 2]))
        # the protocol and generic snippets declare 12 to 25 lines: fewer other declarations keep within 60 lines
        if self.snippet_protocol in chosen:
            structs, enums, funcs = 0, 0, r.choice([0, 1])
        elif self.snippet_generic in chosen:
            structs, enums, funcs = r.choice([(0, 0), (1, 0), (0, 1)]) + (r.choice([0, 1, 2]),)
        else:
            structs, enums, funcs = r.choice([0, 1, 1, 2]), r.choice([0, 1, 1, 2]), r.choice([0, 1, 2, 2, 3])
        for _ in range(structs):
            self.gen_struct()
        for _ in range(enums):
            self.gen_enum()
        for _ in range(funcs):
            self.gen_func()
        body = []
        self.push()
        n = max(1, r.randint(6, 14) - 3 * len(chosen))
        at = sorted(r.randint(0, n - 1) for _ in chosen)
        for k in range(n):
            while at and at[0] == k:
                at.pop(0)
                chosen.pop(0)(body)
            self.stmt(1, 2, body)
        if r.random() < 0.08:
            self.trap(body)
        self.pop()
        # `x = x` is an error to swiftc: print it instead
        body = [re.sub(r"^(\s*)([\w.]+) = \2$", r"\1print(\2)", line) for line in body]
        header = [f"// Generated by scripts/difftest_gen.py --seed {self.seed} (program {self.index}); "
                  "regenerate rather than edit.", ""]
        return "\n".join(header + self.decls + ["func main() {"] + body + ["}", ""])


def program(seed: int, index: int) -> str:
    """Program `index` of `seed`: the first of its attempts that has 20 to 60 lines."""
    for attempt in range(100):
        rng = random.Random(f"{seed}/{index}/{attempt}")
        text = Program(rng, index, seed).generate()
        if 20 <= text.count("\n") <= 60:
            return text
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=250)
    ap.add_argument("--out", default="Tests/Differential/corpus/generated")
    ap.add_argument("--clean", action="store_true", help="remove this seed's older programs from --out first")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    prefix = f"s{args.seed}_"
    if args.clean:
        for n in os.listdir(args.out):
            if n.startswith(prefix) and n.endswith(".swift"):
                os.remove(os.path.join(args.out, n))
    for index in range(args.count):
        with open(os.path.join(args.out, f"{prefix}{index:03d}.swift"), "w") as f:
            f.write(program(args.seed, index))
    print(f"difftest_gen: wrote {args.count} programs to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
