#!/usr/bin/env bash
# The committed table of config keys, docs/guide/config-keys.md, is what
# `make docs` writes now (scripts/config_keys.sh over the program's own
# --help and --print-config): a key added, renamed or re-documented in
# config/params_table.c without `make docs` fails here, saying so.
# Before the real check a self-test compares a table with one changed row:
# it must fail, naming the file and `make docs`.
#
# usage: bash tests/test_config_keys.sh [./dinghy]   (run from anywhere)
# Prints "N passed, M failed" as its last line; exits 1 on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=$(realpath "${1:-$root/dinghy}")
doc=docs/guide/config-keys.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same COMMITTED FRESH: prints the verdict; returns 1 when they differ.
same() {
    if cmp -s "$1" "$2"; then
        echo "ok      $doc is what make docs writes now"
        return 0
    fi
    echo "FAIL    $doc differs from what make docs writes now (the parameter table changed, or the file was edited by hand):"
    diff -u --label "$doc (committed)" --label "$doc (make docs now)" "$1" "$2" | head -n 40
    echo "        run 'make docs' and commit $doc"
    return 1
}

# ---- self-test: a table with one row changed must fail, saying what to do ----
printf '| %s | 1 | 0 to 2 | one |\n| %s | 2 | 0 to 2 | two |\n' 'a.b' 'a.c' >"$tmp/fresh.md"
sed 's/two/three/' "$tmp/fresh.md" >"$tmp/stale.md"
self=$(same "$tmp/stale.md" "$tmp/fresh.md") && self_rc=0 || self_rc=1
if [ "$self_rc" = 0 ] || ! grep -q "run 'make docs'" <<<"$self" \
   || ! same "$tmp/fresh.md" "$tmp/fresh.md" >/dev/null; then
    echo "self-test: a stale table was not caught:"
    echo "$self"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "self-test: a table that differs from make docs fails, naming make docs (ok)"

# ---- the repository ----
if ! (cd "$root" && bash scripts/config_keys.sh "$bin") >"$tmp/now.md" 2>"$tmp/err"; then
    echo "FAIL    scripts/config_keys.sh $bin failed:"
    cat "$tmp/err"
    echo "0 passed, 1 failed"
    exit 1
fi
if [ ! -f "$root/$doc" ]; then
    echo "FAIL    $doc is missing: run 'make docs' and commit it"
    echo "0 passed, 1 failed"
    exit 1
fi
if same "$root/$doc" "$tmp/now.md"; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
    exit 1
fi
