#!/usr/bin/env python3
"""Prints values read from a JSON file (a --dump), one line each, for the
docs' checked figures (tests/doc_examples.py).

    python3 tests/json_value.py FILE EXPR...

Each EXPR is a Python expression over d, the file's JSON, with norm(v) (the
length of a vector) and the math module's functions at hand, e.g.
'norm(d["dinghies"][0]["velocity"])'. Numbers print with 4 significant
digits.
"""
import json
import math
import sys


def norm(v):
    return math.sqrt(sum(x * x for x in v))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    names = {"d": d, "norm": norm, **{k: getattr(math, k) for k in dir(math) if not k.startswith("_")}}
    for expr in sys.argv[2:]:
        v = eval(expr, dict(names))  # the docs' own expressions
        print(f"{v:.4g}" if isinstance(v, float) else v)


if __name__ == "__main__":
    main()
