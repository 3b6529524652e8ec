# Helpers of the end-to-end shell tests; source it after setting `bin`.
# Gives $tmp (a scratch directory removed on exit), ok, bad, expect and the
# counters pass and fail.
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { pass=$((pass + 1)); echo "ok   $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; }

# expect NAME CODE PATTERN -- ARGS: exit code CODE and stderr+stdout matching PATTERN
expect() {
    local name=$1 code=$2 pattern=$3; shift 4
    local out rc
    out=$("$bin" "$@" 2>&1); rc=$?
    if [[ $rc -eq $code ]] && grep -qE -- "$pattern" <<<"$out"; then ok "$name"
    else bad "$name (exit $rc, wanted $code; output: ${out:0:300})"; fi
}
