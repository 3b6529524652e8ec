#!/usr/bin/env python3
"""The house rules of the code's structure (docs/architecture.md), checked
from the sources as text:

1. No source files call each other in a circle, directly or through
   others, inside a folder or across folders. A file "calls" another when
   it names (followed by '(') a non-static function the other defines;
   function definitions come from Universal Ctags.
2. No header includes another in a circle.
3. Include paths are rooted at the repository (render/window.h,
   dinghy/sim.h from include/): no "../" anywhere (tests too), and every
   quoted include names a file from the root or from include/.
4. What each folder may include (MAY_INCLUDE): physics/ only physics/ and
   include/; the river nothing of the core (nor dinghy/sim.h or
   dinghy/defs.h); spray/, scenes/, reference/, render/ and audio/ only
   include/ and their own folder; config/ only include/, config/ and the
   parameter headers of render/ and audio/ it holds in its settings; app/
   and dinghy.c only include/, app/ and the headers each layer offers
   them (OFFERED); the rest of a layer's headers are private to it.
5. Every name a public header (include/dinghy/) declares carries its
   module's prefix (sim_, river_, waves_, spray_, scene_, ref_, fnv1a, dinghy_, in
   either case).

Before the real check a self-test runs rules 3 and 4 on a made-up tree,
once clean (no failure) and once with each rule broken (that rule must
fail, naming the file). Prints one line per broken rule and a closing
'N passed, N failed' line; exits 1 when a rule is broken. Run from
anywhere: it reads the files git tracks (plus untracked, not ignored
ones) in the repository it lives in.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Folders whose sources make the program (tests are left out: a test
# calls what it tests and is called by nothing).
PUBLIC_PREFIX = re.compile(r"(sim|river|waves|spray|scene|ref|fnv1a|dinghy)(_|$)", re.I)
CODE_DIRS = ("physics", "river", "spray", "scenes", "reference", "config",
             "audio", "render", "app", "include")

# The headers each layer offers app/ and dinghy.c; every other header of
# render/, audio/ and config/ is private to its folder.
OFFERED = {
    "render": ("render/render.h", "render/window.h", "render/input.h", "render/camera.h",
               "render/hud_text.h", "render/offscreen.h", "render/png.h",
               "render/resolution.h", "render/render_params.h"),
    "audio": ("audio/audio.h", "audio/scene_sound.h", "audio/audio_params.h"),
    "config": ("config/settings.h", "config/build.h", "config/config.h", "config/watch.h",
               "config/cli.h", "config/find.h", "config/diag.h", "config/save.h",
               "config/params_table.h", "config/tmp_file.h"),
}
# What each folder (or top-level file) may include: (folders, single headers).
_APP = (("include", "app"), tuple(h for hs in OFFERED.values() for h in hs))
MAY_INCLUDE = {
    "physics": (("include", "physics"), ()),
    "river": (("include", "river"), ()),
    "spray": (("include", "spray"), ()),
    "scenes": (("include", "scenes"), ()),
    "reference": (("include", "reference"), ()),
    "render": (("include", "render"), ()),
    "audio": (("include", "audio"), ()),
    "config": (("include", "config"), ("render/render_params.h", "audio/audio_params.h")),
    "include": (("include",), ()),
    "app": _APP,
    "dinghy.c": _APP,
}
# Public headers the river must not include either: the core's.
RIVER_NOT = ("include/dinghy/sim.h", "include/dinghy/defs.h")


def tracked():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted(f for f in out.split("\n") if f and os.path.exists(os.path.join(ROOT, f)))


def sources():
    return [f for f in tracked() if f.endswith((".c", ".h"))
            and (f.split("/")[0] in CODE_DIRS or f == "dinghy.c")]


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


def quoted_includes(text):
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, flags=re.M)


def resolve_include(f, inc, exists):
    """The repository path a quoted include names, or None. Rooted paths
    only (the build's -I. and -Iinclude), so a path relative to the
    including file's folder does not resolve."""
    for base in ("", "include"):
        p = os.path.normpath(os.path.join(base, inc))
        if exists(p):
            return p
    return None


def top(p):
    return p.split("/")[0] if "/" in p else p


def include_rules(texts, exists):
    """Rules 3 and 4 over {file: text}; exists(path) says whether a
    repository path is a file. Returns (failures, checks)."""
    failures, checks = [], 0
    for f in sorted(texts):
        for inc in quoted_includes(texts[f]):
            checks += 1
            if inc.startswith("../") or "/../" in inc:
                failures.append(f'{f}: includes "{inc}": a path with "../" (root it at the repository)')
                continue
            p = resolve_include(f, inc, exists)
            if p is None:
                failures.append(f'{f}: includes "{inc}", which names no file from the root or include/')
                continue
            layer = top(f)
            if layer not in MAY_INCLUDE or p == f:
                continue
            folders, headers = MAY_INCLUDE[layer]
            if top(p) in folders or p in headers:
                if layer == "river" and p in RIVER_NOT:
                    failures.append(f"{f}: the river includes the core ({p})")
                continue
            owner = top(p)
            if layer in ("app", "dinghy.c") and owner in OFFERED:
                failures.append(f"{f}: includes {p}, private to {owner}/ (offered to app/: "
                                + ", ".join(OFFERED[owner]) + ")")
            else:
                failures.append(f"{f}: {layer}{'/' if layer != 'dinghy.c' else ''} may not "
                                f"include {owner}{'/' if '/' in p else ''} ({p})")
    return failures, checks


def self_test():
    """Rules 3 and 4 on a made-up tree: clean, then each rule broken once.
    Returns (failures, checks)."""
    clean = {
        "include/dinghy/sim.h": "",
        "include/dinghy/river.h": "",
        "physics/world/tick.c": '#include "physics/world/tick.h"\n#include "dinghy/sim.h"\n',
        "physics/world/tick.h": "",
        "river/river_flow.c": '#include "river/river_internal.h"\n#include "dinghy/river.h"\n',
        "river/river_internal.h": "",
        "spray/spray.c": '#include "dinghy/sim.h"\n',
        "render/render.c": '#include "render/shader.h"\n#include "dinghy/sim.h"\n',
        "render/render.h": "", "render/shader.h": "", "render/render_params.h": "",
        "audio/audio.c": '#include "audio/synth.h"\n',
        "audio/audio.h": "", "audio/synth.h": "", "audio/audio_params.h": "",
        "config/settings.h": '#include "render/render_params.h"\n#include "audio/audio_params.h"\n',
        "app/demo.c": '#include "app/demo.h"\n#include "render/render.h"\n#include "audio/audio.h"\n'
                      '#include "config/settings.h"\n#include "dinghy/sim.h"\n',
        "app/demo.h": "",
        "dinghy.c": '#include "app/demo.h"\n#include "config/settings.h"\n',
        "tests/test_x.c": '#include "render/shader.h"\n#include "physics/world/tick.h"\n',
    }
    broken = [  # (rule, file, its text)
        ("no ../", "app/demo.c", '#include "../render/render.h"\n'),
        ("no ../ in tests", "tests/test_x.c", '#include "../physics/world/tick.h"\n'),
        ("rooted paths", "physics/world/tick.c", '#include "tick.h"\n'),
        ("physics/", "physics/world/tick.c", '#include "render/render.h"\n'),
        ("physics/", "physics/world/tick.c", '#include "river/river_internal.h"\n'),
        ("river/", "river/river_flow.c", '#include "physics/world/tick.h"\n'),
        ("river/", "river/river_flow.c", '#include "dinghy/sim.h"\n'),
        ("spray/", "spray/spray.c", '#include "river/river_internal.h"\n'),
        ("render/", "render/render.c", '#include "config/settings.h"\n'),
        ("audio/", "audio/audio.c", '#include "render/render.h"\n'),
        ("config/", "config/settings.h", '#include "render/render.h"\n'),
        ("app/", "app/demo.c", '#include "render/shader.h"\n'),
        ("app/", "app/demo.c", '#include "audio/synth.h"\n'),
        ("app/", "app/demo.c", '#include "physics/world/tick.h"\n'),
        ("dinghy.c", "dinghy.c", '#include "render/shader.h"\n'),
    ]
    failures, checks = [], 1

    def run(tree):
        return include_rules(tree, lambda p: p in tree)[0]

    got = run(clean)
    if got:
        failures.append("self-test: the clean tree fails: " + "; ".join(got))
    for rule, f, text in broken:
        checks += 1
        tree = dict(clean)
        tree[f] = text
        got = run(tree)
        if not any(g.startswith(f + ":") for g in got):
            failures.append(f"self-test: rule '{rule}' does not fail on {f}: {text.strip()}")
    for layer, headers in OFFERED.items():
        for h in headers:
            checks += 1
            if not os.path.exists(os.path.join(ROOT, h)):
                failures.append(f"OFFERED names {h}, which is not a file")
    return failures, checks


def main():
    files = sources()
    failures, checks = self_test()

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

    # 2. includes: the graph and its circles
    texts = {f: read(f) for f in files}

    def exists(p):
        return os.path.isfile(os.path.join(ROOT, p))

    includes = {}
    for f in files:
        for inc in quoted_includes(texts[f]):
            p = resolve_include(f, inc, exists)
            if p:
                includes.setdefault(f, set()).add(p)
    for comp in cycles(includes):
        failures.append("headers include each other in a circle: " + " -> ".join(comp))
    checks += 1

    # 3 and 4. rooted include paths and what each folder may include; the
    # tests' includes for rule 3 only (a test may include what it tests)
    f3, c3 = include_rules(texts, exists)
    failures += f3
    checks += c3
    tests = [f for f in tracked() if f.startswith("tests/") and f.endswith((".c", ".h"))]
    f3, c3 = include_rules({f: read(f) for f in tests}, exists)
    failures += f3
    checks += c3

    # 5. public names prefixed
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
