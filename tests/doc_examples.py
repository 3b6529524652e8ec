#!/usr/bin/env python3
"""Runs the examples of the Markdown docs and compares what they print with
what the docs show, as doctests and cram tests do: a stale example fails.

    python3 tests/doc_examples.py [-v] [--root DIR] DINGHY [PAGE.md ...]
    python3 tests/doc_examples.py --self-test DINGHY

PAGES default to README.md and docs/**/*.md under the root (default: the
repository this script is in). DINGHY is the program under test.

What runs
  - In a ```sh block, a command followed by lines that start with "# " at
    the start of the line: those lines are its output as shown. Commands
    shown without output (make run, the pictures) are not run. A command
    may go on over lines ending in a backslash.
  - <!-- check: WHAT --> (an HTML comment, so not shown): WHAT says what
    is checked; the comment's next lines are in the same form, checked the
    same way, for figures quoted in prose. Every command in it runs,
    including those with no output shown (setting up files).
    When a ```text or ```json block follows the comment directly, that
    block's lines are shown output of the comment's last command too.
  - <!-- check: hashes WHAT --> right before a ```text block that records
    a run on a named machine (its times are that machine's): only the
    block's state hashes (16 hex digits) are compared, each once: each must
    be printed by the comment's last command. The hash stays in one place,
    the record.
  - <!-- check: skip WHY --> right before a ```sh block: not run (WHY says
    which test runs it instead); reported as skipped.
How a shown line compares
  - It must equal a line that the command printed, on stdout or stderr, in
    the order that stream printed them; printed lines not shown are
    ignored. "exit N" is the exit status (else it must be 0).
  - "..." matches any text; {A..B} matches a number from A to B (the
    tolerance of a figure quoted in prose).
  - Machine-dependent fields are masked on both sides (MASKS below): the
    docs may show any figure there, with the CPU that printed it named.
Where
  Each page's commands run in order in one temporary directory holding
  ./dinghy (the program under test), a copy of dinghy.ini (as in a
  checkout) and links to docs/ and tests/, with HOME there, DISPLAY unset
  and LC_ALL=C; each command under `bash -c`, at most TIMEOUT seconds.

Prints one line per failure with the expected and the closest printed
line, then "doc examples: N commands, M lines checked, K blocks skipped";
exits 1 on any failure. --self-test runs the check on a copy of README.md
with one shown hash altered: it must fail, naming the line.
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = 120
# Fields that depend on the machine: masked in both the shown and the
# printed line. (A regular expression, its replacement.)
MASKS = [
    (re.compile(r"\bwall \d+(\.\d+)? s\b"), "wall <machine> s"),
    (re.compile(r"\b\d+(\.\d+)? steps/s\b"), "<machine> steps/s"),
]
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


class Example:
    """A command and the output the docs show for it."""

    def __init__(self, page, line, command, hidden):
        self.page, self.line, self.command, self.hidden = page, line, command, hidden
        self.shown = []  # (line number, text)
        self.exit = 0

    def expect(self, line, text):
        m = re.fullmatch(r"exit (\d+)", text.strip())
        if m:
            self.exit = int(m.group(1))
        else:
            self.shown.append((line, text))


def parse_script(page, lines, first, hidden):
    """Commands and their "# " output lines; `first` is the number of lines[0]."""
    examples, pending = [], None
    for i, raw in enumerate(lines):
        n = first + i
        if pending is not None:
            pending[1] += "\n" + raw
            if not raw.endswith("\\"):
                examples.append(Example(page, pending[0], pending[1], hidden))
                pending = None
            continue
        if raw.startswith("# ") or raw == "#":
            if examples:
                examples[-1].expect(n, raw[2:])
        elif raw.strip() and not raw.lstrip().startswith("#"):
            if raw.endswith("\\"):
                pending = [n, raw]
            else:
                examples.append(Example(page, n, raw, hidden))
    return examples


def parse_page(page, text):
    """Returns (examples to run, skipped blocks)."""
    lines = text.split("\n")
    examples, skipped = [], []
    i, skip_next = 0, None
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*<!--\s*check:\s*(.*)$", line)
        if m:
            body, start = [m.group(1)], i
            while "-->" not in body[-1]:
                i += 1
                body.append(lines[i])
            body[-1] = body[-1][: body[-1].index("-->")].rstrip()
            indent = len(line) - len(line.lstrip())  # a comment inside a list item
            body = body[:1] + [b[indent:] if b[:indent].isspace() else b for b in body[1:]]
            i += 1
            if body[0].startswith("skip"):
                skip_next = (start + 1, " ".join(b.strip() for b in body)[4:].lstrip(" :"))
                continue
            # the rest of the first line says what is checked; the lines after it run
            found = parse_script(page, body[1:], start + 2, True)
            for e in found:
                e.run_always = True
            examples += found
            # a ```text or ```json block right after: more shown output
            fence = re.match(r"(\s*)```(text|json)\s*$", lines[i]) if i < len(lines) else None
            if fence and found:
                indent, j = len(fence.group(1)), i + 1
                hashes = body[0].startswith("hashes")
                while not lines[j].lstrip().startswith("```"):
                    if not hashes:
                        found[-1].shown.append((j + 1, lines[j][indent:]))
                    for h in re.findall(r"\b[0-9a-f]{16}\b", lines[j]) if hashes else []:
                        if all(h not in t for _, t in found[-1].shown):
                            found[-1].shown.append((j + 1, "..." + h + "..."))
                    j += 1
                i = j + 1
            continue
        if re.match(r"```(sh|bash|console)\s*$", line):
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            if skip_next:
                skipped.append((page, skip_next[0], skip_next[1]))
                skip_next = None
            else:
                for e in parse_script(page, lines[i + 1 : j], i + 2, False):
                    e.run_always = False
                    examples.append(e)
            i = j + 1
            continue
        i += 1
    return [e for e in examples if e.run_always or e.shown or e.exit], skipped


def masked(text):
    for rx, repl in MASKS:
        text = rx.sub(repl, text)
    return text.rstrip()


def line_matcher(shown):
    """A function telling whether a printed line matches the shown one."""
    pattern, ranges = "", []
    for part in re.split(r"(\.\.\.|\{" + NUMBER + r"\.\." + NUMBER + r"\})", masked(shown)):
        if part == "...":
            pattern += ".*"
        elif part.startswith("{") and ".." in part:
            lo, hi = part[1:-1].split("..")
            ranges.append((float(lo), float(hi)))
            pattern += "(" + NUMBER + ")"
        else:
            pattern += re.escape(part)
    rx = re.compile(pattern)

    def match(printed):
        m = rx.fullmatch(masked(printed))
        return bool(m) and all(lo <= float(v) <= hi for v, (lo, hi) in zip(m.groups(), ranges))

    return match


def compare(example, stdout, stderr, status):
    """Returns the failure messages (none when the output is as shown)."""
    streams = [stdout.split("\n"), stderr.split("\n")]
    at = [0, 0]
    fails = []
    for n, text in example.shown:
        match = line_matcher(text)
        hit = False
        for s in (0, 1):
            for k in range(at[s], len(streams[s])):
                if match(streams[s][k]):
                    at[s], hit = k + 1, True
                    break
            if hit:
                break
        if not hit:
            printed = [l for l in streams[0] + streams[1] if l.strip()]
            close = difflib.get_close_matches(text, printed, n=1, cutoff=0.0)
            fails.append(f"  {example.page}:{n}: expected: {text}\n"
                         f"  {' ' * len(f'{example.page}:{n}')}    printed: "
                         f"{close[0] if close else '(nothing)'}")
    if status != example.exit:
        tail = "\n".join("    | " + l for l in stderr.strip().split("\n")[-5:] if l)
        fails.append(f"  exit {status}, the docs show exit {example.exit}\n{tail}")
    return fails


def sandbox(root, dinghy):
    """A temporary directory to run a page's commands in."""
    tmp = tempfile.mkdtemp(prefix="doc-examples-")
    os.symlink(os.path.abspath(dinghy), os.path.join(tmp, "dinghy"))
    shutil.copy(os.path.join(root, "dinghy.ini"), tmp)
    for d in ("docs", "tests"):
        if os.path.isdir(os.path.join(root, d)):
            os.symlink(os.path.join(os.path.abspath(root), d), os.path.join(tmp, d))
    return tmp


def environment(home):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "XDG_CONFIG_HOME", "WAYLAND_DISPLAY")}
    env.update(HOME=home, LC_ALL="C", SDL_AUDIODRIVER="dummy")
    return env


def run_page(root, page, dinghy, verbose):
    """Returns (commands run, lines checked, skipped, failure texts)."""
    with open(os.path.join(root, page), encoding="utf-8") as f:
        examples, skipped = parse_page(page, f.read())
    if not examples:
        return 0, 0, skipped, []
    tmp = sandbox(root, dinghy)
    env = environment(tmp)
    fails, checked = [], 0
    try:
        for e in examples:
            t0 = time.monotonic()
            try:
                p = subprocess.run(["bash", "-c", e.command], cwd=tmp, env=env, text=True,
                                   stdin=subprocess.DEVNULL, capture_output=True,
                                   timeout=TIMEOUT, errors="replace")
                out, err, status = p.stdout, p.stderr, p.returncode
            except subprocess.TimeoutExpired:
                out, err, status = "", f"(timed out after {TIMEOUT} s)", -1
            f = compare(e, out, err, status)
            checked += len(e.shown) + 1
            what = " ".join(e.command.split())
            if f:
                fails.append(f"FAIL {e.page}:{e.line}: {what}\n" + "\n".join(f))
            elif verbose:
                print(f"ok   {e.page}:{e.line}: {what} ({time.monotonic() - t0:.1f} s)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return len(examples), checked, skipped, fails


def pages_of(root):
    found = [p for p in ["README.md"] if os.path.isfile(os.path.join(root, p))]
    found += sorted(os.path.relpath(p, root)
                    for p in glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return found


def check(root, dinghy, pages, verbose):
    total = [0, 0, []]
    fails = []
    for page in pages:
        n, c, s, f = run_page(root, page, dinghy, verbose)
        total[0] += n
        total[1] += c
        total[2] += s
        fails += f
    for page, line, why in total[2]:
        print(f"skip {page}:{line}: {why}")
    for f in fails:
        print(f)
    print(f"doc examples: {total[0]} commands, {total[1]} lines checked, "
          f"{len(total[2])} blocks skipped, {len(fails)} failed")
    return 1 if fails or total[0] == 0 else 0


def self_test(root, dinghy):
    """A shown hash altered in a copy of README.md must fail, naming its line."""
    tmp = tempfile.mkdtemp(prefix="doc-examples-self-")
    try:
        with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
            text = f.read()
        m = re.search(r"^# .*\bhash ([0-9a-f]{16})", text, re.M)
        if not m:
            print("self-test: README.md shows no hash to alter")
            return 1
        digit = m.group(1)[0]
        bad = text[: m.start(1)] + ("0" if digit != "0" else "1") + text[m.start(1) + 1 :]
        with open(os.path.join(tmp, "README.md"), "w", encoding="utf-8") as f:
            f.write(bad)
        shutil.copy(os.path.join(root, "dinghy.ini"), tmp)
        line = text.count("\n", 0, m.start()) + 1
        p = subprocess.run([sys.executable, __file__, "--root", tmp, dinghy, "README.md"],
                           capture_output=True, text=True)
        if p.returncode != 1 or f"README.md:{line}: expected:" not in p.stdout \
                or m.group(1) not in p.stdout:
            print("self-test: an altered hash in README.md did not fail as it should:")
            print(p.stdout + p.stderr)
            return 1
        print(f"self-test: a hash altered on README.md:{line} fails, printing the expected "
              "and the printed line (ok)")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true", help="a line for every command")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("dinghy")
    ap.add_argument("pages", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        return self_test(a.root, a.dinghy)
    return check(a.root, a.dinghy, a.pages or pages_of(a.root), a.verbose)


if __name__ == "__main__":
    sys.exit(main())
