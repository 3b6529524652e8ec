#!/usr/bin/env python3
"""Times every cmocka test of the given binaries, one binary after another.

    python3 tests/times.py [-n 10] [--env K=V ...] BINARY...

Each binary runs under a pseudo-terminal with CMOCKA_MESSAGE_OUTPUT=TAP (so
its lines arrive as they are printed); at each "ok N - name" line the test's
wall time is the time since the previous line of that kind and its CPU time
(user + system, all threads) the growth of the process's utime + stime in
/proc. Prints every test, then the N slowest by wall time; exits non-zero
if a test or a binary failed. Run it on an idle machine: wall times on a
busy one are inflated, CPU times much less.
"""
import argparse
import os
import pty
import re
import select
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
TAP = re.compile(rb"^(not ok|ok) \d+ - (\S+)")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    except (OSError, IndexError, ValueError):
        return None


def time_binary(path, env, echo):
    """Returns ([(binary, test, wall, cpu, ok)], exit code)."""
    master, slave = pty.openpty()
    start = time.monotonic()
    proc = subprocess.Popen([path], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                            env=env, close_fds=True)
    os.close(slave)
    rows, buf = [], b""
    last_t, last_cpu = start, 0.0
    name = os.path.relpath(path)
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            continue
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed its side
            data = b""
        if not data:
            break
        buf += data
        *lines, buf = buf.split(b"\n")
        for line in lines:
            line = line.rstrip(b"\r")
            if echo:
                sys.stdout.buffer.write(line + b"\n")
                sys.stdout.flush()
            m = TAP.match(line)
            if m:
                now, cpu = time.monotonic(), cpu_seconds(proc.pid)
                if cpu is None:
                    cpu = last_cpu
                rows.append((name, m.group(2).decode(), now - last_t, cpu - last_cpu,
                             m.group(1) == b"ok"))
                last_t, last_cpu = now, cpu
    os.close(master)
    rc = proc.wait()
    return rows, rc, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=10, help="how many of the slowest to list")
    ap.add_argument("--env", action="append", default=[], help="K=V for the binaries")
    ap.add_argument("--quiet", action="store_true", help="do not echo the tests' output")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
    for kv in args.env:
        k, _, v = kv.partition("=")
        env[k] = v
    allrows, failed = [], []
    for b in args.binaries:
        rows, rc, wall = time_binary(b, env, not args.quiet)
        allrows += rows
        cpu = sum(r[3] for r in rows)
        print(f"-- {os.path.relpath(b)}: {len(rows)} tests, {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU, exit {rc}", flush=True)
        if rc != 0 or not all(r[4] for r in rows):
            failed.append(b)
    width = max((len(r[0]) + len(r[1]) for r in allrows), default=20) + 1
    print(f"\n{'test':<{width}}  wall s   CPU s")
    for r in allrows:
        print(f"{r[0] + ':' + r[1]:<{width}} {r[2]:7.2f} {r[3]:7.2f}{'' if r[4] else '  FAILED'}")
    print(f"\nthe {args.n} slowest (wall):")
    for r in sorted(allrows, key=lambda r: -r[2])[: args.n]:
        print(f"{r[0] + ':' + r[1]:<{width}} {r[2]:7.2f} {r[3]:7.2f}")
    if failed:
        print("failed: " + " ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
