#!/usr/bin/env python3
"""The swiftc side of the differential test of CanopyScript (docs/differential.md).

Every program of Tests/Differential/corpus/**/*.swift is compiled by swiftc and run; what it printed and whether
(and how) it trapped is recorded in Tests/Differential/expected.json under the sha256 of its source. canopy-difftest
then runs the same programs through CanopyScript and compares.

    python3 scripts/difftest.py                 # run swiftc on the programs without an expectation (new or changed)
    python3 scripts/difftest.py --regenerate    # run swiftc on every program again
    python3 scripts/difftest.py --check         # write nothing; fail if expected.json is not up to date

Programs are batched: up to --batch programs become one executable (each file's top-level declarations made
fileprivate, a per-file `__run_N()` calling its `main()`, and a main.swift dispatching on argv[1]), compiled once with
`swiftc -Onone` and run once per program, so a trap ends only that program. A program swiftc rejects is an error: a
corpus program must be valid Swift.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "Differential", "corpus")
EXPECTED = os.path.join(ROOT, "Tests", "Differential", "expected.json")

DECL_KEYWORDS = {"struct", "enum", "class", "protocol", "func", "let", "var", "typealias", "extension", "actor"}
MODIFIERS = {"final", "indirect", "nonisolated", "static", "mutating", "lazy", "dynamic"}
ACCESS = {"private", "fileprivate", "internal", "public", "open", "package"}


IMPORTS = re.compile(r"^import ", re.M)


def sha256(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def corpus_files():
    """Corpus paths relative to CORPUS, sorted."""
    out = []
    for dirpath, _, names in os.walk(CORPUS):
        for n in names:
            if n.endswith(".swift"):
                out.append(os.path.relpath(os.path.join(dirpath, n), CORPUS).replace(os.sep, "/"))
    return sorted(out)


# ---- rewriting one program for a batch -------------------------------------------------------------------------

ATTRIBUTE = re.compile(r"@[A-Za-z_][A-Za-z0-9_]*(\([^()]*\))?\s*")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def extension_declares_conformance(rest: str) -> bool:
    """`rest` follows `extension `: is the extended type followed by `:` (a conformance) before `{` or `where`?"""
    depth = 0
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            if c == ":":
                return True
            if c == "{":
                return False
            if rest.startswith("where", i) and (i == 0 or not (rest[i - 1].isalnum() or rest[i - 1] == "_")):
                return False
        i += 1
    return False


def make_fileprivate(line: str) -> str:
    """One line starting at column 0: its declaration made fileprivate (a conformance extension is left alone)."""
    i = 0
    while True:  # attributes on the same line
        m = ATTRIBUTE.match(line, i)
        if not m:
            break
        i = m.end()
    start = i
    j = i
    while True:
        m = WORD.match(line, j)
        if not m:
            return line
        w = m.group(0)
        if w in ACCESS:
            if w in ("private", "fileprivate"):
                return line  # private at the top level already means fileprivate
            # internal/public/open/package: replaced, so two programs' declarations cannot clash
            return line[:j] + "fileprivate" + line[m.end():]
        if w in MODIFIERS:
            j = m.end()
            while j < len(line) and line[j] == " ":
                j += 1
            continue
        if w not in DECL_KEYWORDS:
            return line
        if w == "extension" and extension_declares_conformance(line[m.end():]):
            return line
        return line[:start] + "fileprivate " + line[start:]


def rewrite_program(source: str, n: int) -> str:
    lines = []
    in_block_comment = False
    in_multiline_string = False
    for line in source.split("\n"):
        if not in_block_comment and not in_multiline_string and line[:1] not in ("", " ", "\t"):
            line = make_fileprivate(line)
        lines.append(line)
        if line.count('"""') % 2 == 1:
            in_multiline_string = not in_multiline_string
        if not in_multiline_string:
            opened = line.rfind("/*")
            closed = line.rfind("*/")
            if opened > closed:
                in_block_comment = True
            elif closed > opened:
                in_block_comment = False
    lines.append("")
    lines.append(f"func __run_{n}() {{ main() }}")
    lines.append("")
    return "\n".join(lines)


MAIN_PRELUDE = """\
// The dispatcher of one batch of the differential test (scripts/difftest.py): runs program argv[1].
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Unbuffered, so what a program printed before it trapped is not lost with the buffer.
setvbuf(stdout, nil, _IONBF, 0)
"""


def main_swift(count: int) -> str:
    cases = "\n".join(f'case "{n}": __run_{n}()' for n in range(count))
    return MAIN_PRELUDE + f"switch CommandLine.arguments[1] {{\n{cases}\ndefault: fatalError(\"no program\")\n}}\n"


# ---- traps ---------------------------------------------------------------------------------------------------------

REPORT = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+): (?P<what>Fatal error|Precondition failed|Assertion failed)"
                    r"(?:: (?P<message>.*))?$", re.M)


def trap_category(message: str) -> str:
    """The kind of a standard library fault message; canopy-difftest classifies CanopyScript's messages alike."""
    if "out of range" in message or "out of bounds" in message:
        return "index"
    if message.startswith("Unexpectedly found nil"):
        return "nil"
    if message.startswith("Division by zero"):
        return "division by zero"
    if "overflow" in message:
        return "overflow"
    return message


def classify_trap(returncode: int, stderr: str):
    """(kind, message) of a run that did not exit 0."""
    m = REPORT.search(stderr)
    if m:
        what = m.group("what")
        message = m.group("message") or ""
        text = what + (": " + message if message else "")
        if what == "Precondition failed":
            return "precondition", text
        if what == "Assertion failed":
            return "assertion", text
        if m.group("file").startswith("Swift/"):
            return trap_category(message), message  # the standard library's own check
        if message.startswith("Unexpectedly found nil"):
            return "nil", message
        return "fatalError", text
    sig = -returncode if returncode < 0 else returncode - 128
    if sig in (signal.SIGILL, signal.SIGTRAP):
        # -Onone checks without a message (cond_fail): arithmetic overflow is the one a program here can reach
        return "overflow", "trap without a message (arithmetic overflow)"
    if sig in (signal.SIGSEGV, signal.SIGBUS):
        return "crash", "segmentation fault (stack overflow?)"
    return "crash", f"exit status {returncode}"


# A type made fileprivate by the batch is qualified in debug descriptions (`Optional(S(x: 1))` prints as
# `Optional(main.(unknown context at $55d0c0a1c504).S(x: 1))`, the address changing from build to build): written
# as the one file of module `main` prints it (`Optional(main.S(x: 1))`), which is what CanopyScript prints.
PRIVATE_QUALIFIER = re.compile(r"main\.\(unknown context at \$[0-9a-f]+\)\.")


def expectation(path: str, stdout: str, returncode: int, stderr: str) -> dict:
    e = {"path": path}
    stdout = PRIVATE_QUALIFIER.sub("main.", stdout)
    body = stdout[:-1] if stdout.endswith("\n") else stdout
    e["stdout"] = body.split("\n") if stdout else []
    if stdout and not stdout.endswith("\n"):
        e["newline_at_end"] = False
    if returncode != 0:
        kind, message = classify_trap(returncode, stderr)
        e["trap"] = True
        e["trap_kind"] = kind
        e["trap_message"] = message
    return e


# ---- compiling and running batches -------------------------------------------------------------------------------

class Failure(Exception):
    pass


def swiftc_version(swiftc: str) -> str:
    r = subprocess.run([swiftc, "--version"], capture_output=True, text=True)
    return (r.stdout or r.stderr).strip().splitlines()[0]


def compile_batch(swiftc: str, workdir: str, programs, jobs: int):
    """Writes and compiles one executable of `programs` [(path, source)]; returns (executable, None) or (None, stderr)."""
    os.makedirs(workdir, exist_ok=True)
    files = []
    for n, (path, source) in enumerate(programs):
        name = os.path.join(workdir, f"p{n}.swift")
        with open(name, "w") as f:
            f.write(rewrite_program(source, n))
        files.append(name)
    with open(os.path.join(workdir, "main.swift"), "w") as f:
        f.write(main_swift(len(programs)))
    exe = os.path.join(workdir, "batch")
    # -wmo: one frontend job for the whole batch, half the time of one per file; still -Onone (overflow traps).
    cmd = [swiftc, "-Onone", "-wmo", "-num-threads", str(jobs), "-suppress-warnings", "-module-name", "main", "-o", exe,
           os.path.join(workdir, "main.swift")] + files
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr + r.stdout
    return exe, None


def files_with_errors(workdir: str, stderr: str, count: int):
    bad = set()
    for m in re.finditer(r"(?:^|/)p(\d+)\.swift:\d+:\d+: error:", stderr, re.M):
        n = int(m.group(1))
        if n < count:
            bad.add(n)
    return bad


def run_program(exe: str, n: int, timeout: float):
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    try:
        r = subprocess.run([exe, str(n)], capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def build_and_run(swiftc, workdir, programs, jobs, timeout, errors, results):
    """Compiles `programs` as one batch and runs each; programs swiftc rejects go to `errors`. A batch that fails only
    because of a clash between programs is split: the programs with errors are compiled alone."""
    exe, stderr = compile_batch(swiftc, workdir, programs, jobs)
    if exe is None:
        if len(programs) == 1:
            errors.append((programs[0][0], "swiftc rejects it (a corpus program must be valid Swift; the lines shown "
                           "are as batched, with fileprivate added):\n" + rewrite_errors(stderr, workdir, programs)))
            return
        # the programs with errors go alone (an error outside them: every program alone), the others together
        bad = files_with_errors(workdir, stderr, len(programs)) or set(range(len(programs)))
        good = [p for n, p in enumerate(programs) if n not in bad]
        if good:
            build_and_run(swiftc, workdir + "-rest", good, jobs, timeout, errors, results)
        for n in sorted(bad):
            build_and_run(swiftc, f"{workdir}-alone{n}", [programs[n]], jobs, timeout, errors, results)
        return
    # Each program runs twice: Swift seeds its hashing per process, so a program that prints a Dictionary or a Set
    # without sorting it prints differently from run to run (and could never match CanopyScript's order).
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = list(pool.map(lambda n: run_program(exe, n % len(programs), timeout), range(2 * len(programs))))
    for (path, source), run, again in zip(programs, runs, runs[len(programs):]):
        if run is None or again is None:
            errors.append((path, f"did not finish within {timeout:g} s (a corpus program must terminate)"))
            continue
        if (run[0], PRIVATE_QUALIFIER.sub("main.", run[1])) != (again[0], PRIVATE_QUALIFIER.sub("main.", again[1])):
            errors.append((path, "printed differently in two runs: it must not print a Dictionary or a Set (or "
                                 "iterate one) without sorting it first"))
            continue
        returncode, stdout, stderr = run
        results[sha256(source.encode())] = expectation(path, stdout, returncode, stderr)


def rewrite_errors(stderr: str, workdir: str, programs) -> str:
    """swiftc's messages with the batch's file names replaced by the corpus paths."""
    def repl(m):
        n = int(m.group(1))
        return programs[n][0] + ":" if n < len(programs) else m.group(0)
    text = re.sub(re.escape(workdir) + r"/p(\d+)\.swift:", repl, stderr)
    lines = [ln for ln in text.splitlines() if ": error:" in ln or ": warning:" not in ln]
    return "\n".join(lines[:20])


# ---- main ------------------------------------------------------------------------------------------------------------

def load_expected():
    if not os.path.exists(EXPECTED):
        return {"swiftc": "", "programs": {}}
    with open(EXPECTED) as f:
        return json.load(f)


def write_expected(data):
    programs = data["programs"]
    ordered = dict(sorted(programs.items(), key=lambda kv: (kv[1]["path"], kv[0])))
    # One program per block, its stdout one line per line: diffs of this file read like diffs of the outputs.
    parts = []
    for h, e in ordered.items():
        fields = [f'   "path": {json.dumps(e["path"])}']
        if e["stdout"]:
            lines = ",\n".join("    " + json.dumps(s, ensure_ascii=False) for s in e["stdout"])
            fields.append(f'   "stdout": [\n{lines}\n   ]')
        else:
            fields.append('   "stdout": []')
        for k in ("newline_at_end", "trap", "trap_kind", "trap_message"):
            if k in e:
                fields.append(f"   {json.dumps(k)}: {json.dumps(e[k], ensure_ascii=False)}")
        parts.append(f'  {json.dumps(h)}: {{\n' + ",\n".join(fields) + "\n  }")
    text = ('{\n "comment": "swiftc\'s output for each program of Tests/Differential/corpus, keyed by the sha256 of its '
            'source; written by scripts/difftest.py",\n'
            f' "swiftc": {json.dumps(data["swiftc"])},\n'
            ' "programs": {\n' + ",\n".join(parts) + "\n }\n}\n")
    tmp = EXPECTED + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, EXPECTED)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--regenerate", action="store_true", help="run swiftc on every program, not only changed ones")
    ap.add_argument("--check", action="store_true", help="write nothing; fail if any program lacks an expectation")
    ap.add_argument("--only", default=None, help="with --regenerate: only the corpus paths containing this")
    ap.add_argument("--batch", type=int, default=60, help="programs per executable (default 60)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel swiftc frontend jobs and runs")
    ap.add_argument("--timeout", type=float, default=10, help="seconds one program may run (default 10)")
    ap.add_argument("--swiftc", default=shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc")
    ap.add_argument("--keep", default=None, help="build the batches in this folder and keep them")
    args = ap.parse_args()

    started = time.monotonic()
    data = load_expected()
    known = data.get("programs", {})
    paths = corpus_files()
    sources = {}
    for p in paths:
        with open(os.path.join(CORPUS, p), "rb") as f:
            sources[p] = f.read().decode("utf-8")
    hashes = {p: sha256(sources[p].encode()) for p in paths}

    if args.regenerate:
        todo = [p for p in paths if args.only is None or args.only in p]
    else:
        todo = [p for p in paths if hashes[p] not in known]
    # one run per distinct source
    seen = set()
    todo = [p for p in todo if not (hashes[p] in seen or seen.add(hashes[p]))]
    stale = set(known) - set(hashes.values())
    first_path = {}
    for p in paths:
        first_path.setdefault(hashes[p], p)
    moved = [h for h, p in first_path.items() if h in known and known[h]["path"] != p]

    if args.check:
        if todo or stale or moved:
            for p in todo:
                print(f"difftest: {p}: no expectation (run python3 scripts/difftest.py)")
            print(f"difftest: expected.json is out of date: {len(todo)} programs without an expectation, "
                  f"{len(stale)} stale entries, {len(moved)} moved")
            return 1
        print(f"difftest: expected.json is up to date ({len(paths)} programs)")
        return 0

    errors = []
    results = {}
    if todo:
        version = swiftc_version(args.swiftc)
        # An import's members are visible in every file of a module (Swift without MemberImportVisibility): a
        # program importing Foundation would change what `"abc".contains("")` means in its neighbours, so programs
        # that import a module are batched apart from those that do not.
        batches = []
        for group in (p for p in todo if not IMPORTS.search(sources[p])), (p for p in todo if IMPORTS.search(sources[p])):
            group = list(group)
            batches += [group[i:i + args.batch] for i in range(0, len(group), args.batch)]
        print(f"difftest: {len(todo)} of {len(paths)} programs to run with swiftc ({version}), "
              f"{len(batches)} batches", flush=True)
        base = args.keep or tempfile.mkdtemp(prefix="difftest-")
        try:
            for b, batch in enumerate(batches):
                t0 = time.monotonic()
                before = len(results)
                build_and_run(args.swiftc, os.path.join(base, f"batch{b}"), [(p, sources[p]) for p in batch],
                              args.jobs, args.timeout, errors, results)
                traps = sum(1 for e in results.values() if e.get("trap"))
                print(f"difftest: batch {b + 1}/{len(batches)}: {len(results) - before} programs ran, "
                      f"{traps} trapped so far, {len(errors)} errors so far ({time.monotonic() - t0:.1f} s)",
                      flush=True)
        finally:
            if not args.keep:
                shutil.rmtree(base, ignore_errors=True)
        data["swiftc"] = version

    programs = {h: e for h, e in known.items() if h not in stale}
    programs.update(results)
    for h, e in programs.items():  # the path shown for readability follows renames
        e["path"] = first_path[h]
    data["programs"] = programs
    if results or stale or moved or not os.path.exists(EXPECTED):
        write_expected(data)

    for path, message in errors:
        print(f"difftest: {path}: {message}\n")
    lines = sum(len(e["stdout"]) for e in programs.values())
    traps = sum(1 for e in programs.values() if e.get("trap"))
    print(f"difftest: {len(paths)} programs ({lines} output lines, {traps} trap), {len(results)} run with swiftc now, "
          f"{len(stale)} stale expectations dropped, {len(errors)} errors, {time.monotonic() - started:.1f} s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
