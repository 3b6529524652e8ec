#!/usr/bin/env python3
"""The house rules of the code's structure (README, Architecture), checked
from the sources as text:

1. No source files call each other in a circle, directly or through
   others, inside a folder or across folders. A file "calls" another when
   it names (followed by '(') a non-static function the other defines;
   function definitions come from Universal Ctags.
2. No header includes another in a circle.
3. Layer includes: the river includes nothing of the core; the core
   includes no private header of river/ or spray/; render/ and audio/
   include only public headers (include/dinghy/) and their own folder's.
4. Every name a public header (include/dinghy/) declares carries its
   module's prefix (sim_, river_, spray_, scene_, ref_, fnv1a, dinghy_, in
   either case).

Prints one line per broken rule and a closing 'N passed, N failed' line;
exits 1 when a rule is broken. Run from anywhere: it reads the files git
tracks (plus untracked, not ignored ones) in the repository it lives in.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Folders whose sources make the program (tests are left out: a test
# calls what it tests and is called by nothing).
PUBLIC_PREFIX = re.compile(r"(sim|river|spray|scene|ref|fnv1a|dinghy)(_|$)", re.I)
CODE_DIRS = ("physics", "river", "spray", "scenes", "reference", "config",
             "audio", "render", "app", "include")


def sources():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = [f for f in out.split("\n") if f.endswith((".c", ".h"))
             and (f.split("/")[0] in CODE_DIRS or f == "dinghy.c")
             and os.path.exists(os.path.join(ROOT, f))]
    return sorted(files)


def read(f):
    with open(os.path.join(ROOT, f), encoding="utf-8", errors="replace") as fh:
        return fh.read()


def strip_comments_and_strings(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def defined_functions(files):
    """Non-static function definitions: name -> defining .c file."""
    cfiles = [f for f in files if f.endswith(".c")]
    out = subprocess.run(["ctags", "-x", "--c-kinds=f", "--fields=+S", "--extras=-F"]
                         + cfiles, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    defs = {}
    for line in out.splitlines():
        parts = line.split(None, 4)
        if len(parts) < 5:
            continue
        name, _, lineno, path, src = parts
        if re.match(r"\s*static\b", src):
            continue
        defs.setdefault(name, set()).add(path)
    return {n: next(iter(p)) for n, p in defs.items() if len(p) == 1}


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def resolve_include(f, inc):
    for base in ("", os.path.dirname(f), "include"):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(os.path.join(ROOT, p)):
            return p
    return None


def main():
    files = sources()
    failures, checks = [], 0

    # 1. calls between files
    defs = defined_functions(files)
    calls = {}
    for f in files:
        if not f.endswith(".c"):
            continue
        text = strip_comments_and_strings(read(f))
        for name in set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text)):
            target = defs.get(name)
            if target and target != f:
                calls.setdefault(f, set()).add(target)
    for comp in cycles(calls):
        failures.append("files call each other in a circle: " + " -> ".join(comp))
    checks += 1

    # 2. includes: the graph, its circles, and the layer rules
    includes = {}
    for f in files:
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', read(f), flags=re.M):
            p = resolve_include(f, inc)
            if p:
                includes.setdefault(f, set()).add(p)
    for comp in cycles(includes):
        failures.append("headers include each other in a circle: " + " -> ".join(comp))
    checks += 1

    def top(p):
        return p.split("/")[0] if "/" in p else ""

    for f, incs in sorted(includes.items()):
        for p in sorted(incs):
            checks += 1
            layer, other = top(f), top(p)
            if layer == "river" and (other == "physics" or p in (
                    "include/dinghy/sim.h", "include/dinghy/defs.h")):
                failures.append(f"{f}: the river includes the core ({p})")
            elif layer == "physics" and other in ("river", "spray"):
                failures.append(f"{f}: the core includes a private header of {other}/ ({p})")
            elif layer in ("render", "audio") and other not in ("include", layer):
                failures.append(f"{f}: {layer}/ includes a private header ({p})")

    # 4. public names prefixed
    headers = [f for f in files if f.startswith("include/dinghy/")]
    out = subprocess.run(["ctags", "-x", "--c-kinds=+p-m", "--extras=-F"] + headers,
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split(None, 4)
        if len(parts) < 4 or parts[0].startswith("__anon") or parts[0].startswith("DINGHY_"):
            continue
        checks += 1
        if not PUBLIC_PREFIX.match(parts[0]):
            failures.append(f"{parts[3]}:{parts[2]}: public name {parts[0]} has no module prefix")

    for line in failures:
        print("FAIL " + line)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
