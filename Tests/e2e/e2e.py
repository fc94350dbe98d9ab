"""What the end-to-end scripts share: counting checks, and starting and stopping a real canopyd."""
import os, re, signal, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Checks:
    """Counts checks; prints each failure (and, with `verbose`, each pass) as it happens."""

    def __init__(self, verbose=False):
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def __call__(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            if self.verbose:
                print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}")
        return condition

    def finish(self, title, extra=""):
        """Prints the summary line and exits non-zero if anything failed."""
        print(f"{title}: {self.passed} passed, {self.failed} failed{extra}")
        sys.exit(1 if self.failed else 0)


def start_daemon(binary, *args, port=0, stdout_lines=20):
    """Starts canopyd on loopback (`port` 0: a free one) with `args`; returns (process, the port it announced, or
    None if it announced none within its first `stdout_lines` lines of output)."""
    # Only stdout is read (its first lines); the log goes to stderr, which is left to the terminal.
    process = subprocess.Popen([binary, "--port", str(port), *args], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    for _ in range(stdout_lines):
        line = process.stdout.readline()
        if not line:
            break
        m = re.search(r"ws://127\.0\.0\.1:(\d+)/ws", line)
        if m:
            return process, int(m.group(1))
    return process, None


def stop_daemon(process, timeout=10):
    """SIGTERM, then its exit code (None if it had to be killed after `timeout` seconds)."""
    if process.poll() is not None:
        return process.returncode
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None
