#!/usr/bin/env bash
# Every citation of the physics notes in the tracked sources (.c, .h, .sh,
# Makefile, *.md, *.ini) names a section that docs/physics.md has a heading
# for. A citation is the file name, bare or as docs/..., followed by what
# it names; the forms understood (N a section: a number, maybe with one
# letter, as 6b):
#   "section N", "N" (bare, as "6b"), "sections N, N", "sections N-N",
#   "sections N to N", "sections N-N and N"; a citation may wrap onto the
#   next comment line. A range N-M names every section from N to M. A
#   citation followed by no section (e.g. "as in the notes)") names the
#   file alone, which must exist.
# A heading is a Markdown heading whose first word is the section's name:
#   "## 6b. Puncture" names 6b.
# Before the real check a self-test runs the checker on a made-up tree with
# a citation of a section that does not exist: it must fail, naming it.
#
# Usage: bash tests/test_docs.sh [-v] [ROOT]    (ROOT: the repository,
# default: the parent of this script's folder; -v: every citation)
# Prints "N passed, M failed" as its last line; exits 1 on any failure.
set -u

verbose=0
if [ "${1:-}" = "-v" ]; then
    verbose=1
    shift
fi
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$(dirname "$here")}
self=tests/test_docs.sh

# The files to search under $1, one per line, relative to it: tracked ones
# in a git checkout, else every such file (the self-test's tree).
source_files() {
    if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$1" ls-files -- '*.c' '*.h' '*.sh' 'Makefile' '*/Makefile' '*.md' '*.ini'
    else
        (cd "$1" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' \
            -o -name Makefile -o -name '*.md' -o -name '*.ini' \) | sed 's|^\./||' | sort)
    fi
}

# check ROOT: one line per citation and section,
#   "ok FILE:LINE SECTION", "missing FILE:LINE SECTION", "file FILE:LINE"
#   (the file alone), "form FORM" (the citation's form, N for a section),
# then "headings LIST" of docs/physics.md.
check() {
    local dir=$1
    # shellcheck disable=SC2016 # the perl program is in single quotes on purpose
    source_files "$dir" | grep -v -x -e 'docs/physics.md' -e "$self" |
        (cd "$dir" && xargs -d '\n' -r perl -e '
    use strict; use warnings;
    my $doc = "docs/physics.md";
    my %have;
    if (open my $d, "<", $doc) {
        while (<$d>) {
            $have{$1} = 1 if /^#{1,6}\s+(?:[Ss]ections?\s+)?(\d+[a-z]?)[.):]?(?:\s|$)/;
        }
        close $d;
    }
    # A line without its comment decoration (for a citation that wraps).
    sub bare { my $s = shift // ""; $s =~ s{^\s*(?:/\*+|\*+|//+|#+)?\s*}{}; $s =~ s{\s*\*/\s*$}{}; return $s; }
    my $sec = qr/\d+[a-z]?(?![A-Za-z0-9])/;
    for my $file (@ARGV) {
        open my $f, "<", $file or next;
        my @lines = <$f>;
        close $f;
        chomp @lines;
        for my $i (0 .. $#lines) {
            while ($lines[$i] =~ /physics\.md/g) {
                my $tail = substr($lines[$i], pos($lines[$i])) . " " . bare($lines[$i + 1])
                         . " " . bare($lines[$i + 2]);
                my $where = "$file:" . ($i + 1);
                unless ($tail =~ /^`?\s*((?:sections?\s+)?$sec(?:\s*(?:,|and|to|-)\s*$sec)*)/) {
                    print "file $where\n";
                    print "form (the file alone)\n";
                    next;
                }
                my $cited = $1;
                (my $form = $cited) =~ s/$sec/N/g;
                print "form $form\n";
                (my $list = $cited) =~ s/^sections?\s+//;
                my @sections;
                my $range = 0;
                while ($list =~ /\G\s*(?:(,|and|to|-)\s*)?($sec)/g) {
                    my ($sep, $s) = ($1 // "", $2);
                    if (($sep eq "to" || $sep eq "-") && @sections
                        && $sections[-1] =~ /^\d+$/ && $s =~ /^\d+$/ && $s > $sections[-1]) {
                        push @sections, $_ for ($sections[-1] + 1) .. $s;
                    } else {
                        push @sections, $s;
                    }
                }
                for my $s (@sections) {
                    print(($have{$s} ? "ok" : "missing") . " $where $s\n");
                }
            }
        }
    }
    print "headings ", join(" ", sort { ($a =~ /(\d+)/)[0] <=> ($b =~ /(\d+)/)[0] or $a cmp $b } keys %have), "\n";
    ')
}

# Reads check's output: prints the failures (and with -v every citation),
# the forms, and the summary line; returns 1 on a failure.
report() {
    local out=$1 dir=$2 passed=0 failed=0
    if [ ! -f "$dir/docs/physics.md" ]; then
        echo "docs/physics.md: no such file in $dir"
        failed=$((failed + 1))
    fi
    while read -r kind where sec; do
        case $kind in
        ok)
            passed=$((passed + 1))
            [ "$verbose" = 1 ] && echo "ok      $where: section $sec"
            ;;
        file)
            if [ -f "$dir/docs/physics.md" ]; then
                passed=$((passed + 1))
                [ "$verbose" = 1 ] && echo "ok      $where: the notes (no section named)"
            else
                failed=$((failed + 1))
                echo "FAIL    $where: cites the physics notes, and docs/physics.md is missing"
            fi
            ;;
        missing)
            failed=$((failed + 1))
            echo "FAIL    $where: cites section $sec, and docs/physics.md has no heading for it"
            ;;
        esac
    done < <(grep -E '^(ok|file|missing) ' <<<"$out")
    echo "citation forms:"
    grep '^form ' <<<"$out" | sed 's/^form //' | sort | uniq -c | sed 's/^/  /'
    grep '^headings ' <<<"$out" | sed 's/^headings /sections with a heading: /'
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

# ---- self-test: a made-up tree where one citation names no heading ----
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/src"
printf '# Notes\n## 1. One\n## 3. Three\n## 4. Four\n## 5. Five\n## 6b. Six b\n' \
    > "$tmp/docs/physics.md"
cat > "$tmp/src/a.c" <<'EOF'
/* physics.md section 1 */
/* `physics.md` 6b: and docs/physics.md sections 3 to 5 */
/* the bound of physics.md
 * section 4, wrapped */
/* as in physics.md) */
/* physics.md section 42: no such section */
EOF
self_out=$(check "$tmp")
self_failed=0
self_report=$(report "$self_out" "$tmp") || self_failed=1
if [ "$self_failed" = 0 ] || ! grep -q 'src/a.c:6: cites section 42' <<<"$self_report" \
   || ! grep -qx '7 passed, 1 failed' <<<"$self_report"; then
    echo "self-test: the checker did not catch a citation of a missing section:"
    echo "$self_report"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "self-test: a citation of a missing section fails, with its file and line (ok)"

# ---- the repository ----
out=$(check "$root")
report "$out" "$root"
