#!/usr/bin/env bash
# Makes every picture the docs show again, from docs/pictures/pictures.txt,
# into docs/pictures/. Run from the top of the tree with a display (make
# pictures runs it under xvfb-run).
# usage: docs/pictures/pictures.sh ./dinghy [NAME.png ...]   (names: only the rows that make them)
set -euo pipefail
bin=$(realpath "${1:-./dinghy}")
shift || true
only=" $* "
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wanted() { # any of the row's pictures asked for (all when none named)
    [[ $only == "  " ]] && return 0
    local p
    for p in "$@"; do [[ $only == *" ${p%@*} "* ]] && return 0; done
    return 1
}

start=$SECONDS
while IFS='|' read -r head flags; do
    [[ $head =~ ^[[:space:]]*(#|$) ]] && continue
    read -r kind pictures <<<"$head"
    read -ra pics <<<"$pictures"
    read -ra args <<<"$flags"
    wanted "${pics[@]}" || continue
    t0=$SECONDS
    run=("$bin" --config dinghy.ini "${args[@]}")
    case $kind in
    shot)
        "${run[@]}" --screenshot "docs/pictures/${pics[0]}" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; } ;;
    record)
        rm -rf "$tmp/frames"
        "${run[@]}" --record "$tmp/frames" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
        for p in "${pics[@]}"; do
            cp "$(printf '%s/frame_%05d.png' "$tmp/frames" "${p#*@}")" "docs/pictures/${p%@*}"
        done ;;
    window) # P writes dinghy-DATE-TIME.png where it runs, and says so on stdout
        "${run[@]}" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
        saved=$(sed -n 's/^dinghy: saved \(.*\.png\)$/\1/p' "$tmp/log" | tail -n 1)
        [[ -n $saved ]] || { cat "$tmp/log"; echo "pictures: the demo saved no picture" >&2; exit 1; }
        mv "$saved" "docs/pictures/${pics[0]}" ;;
    *) echo "pictures: unknown kind '$kind' in docs/pictures/pictures.txt" >&2; exit 2 ;;
    esac
    echo "pictures: ${pics[*]%@*} ($((SECONDS - t0)) s)"
done <docs/pictures/pictures.txt
echo "pictures: done in $((SECONDS - start)) s"
