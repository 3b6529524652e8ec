#!/usr/bin/env bash
# Every relative link and image in README.md and docs/**/*.md resolves: the
# file or folder it names exists (relative to the page), and an anchor
# (#heading) names a heading of the page it points into, as GitHub makes
# anchors of headings: lower case, punctuation other than - and _ dropped,
# spaces to -, a repeated heading gets -1, -2 ... Links to the web
# (http:, https:, mailto:) are not followed. Links are [text](target) and
# ![alt](target), outside code (fenced blocks and `spans`), and reference
# definitions "[name]: target".
# Before the real check a self-test runs the checker on a made-up tree with
# a broken link, a broken image and a broken anchor: it must fail on each.
#
# Usage: bash tests/test_links.sh [-v] [ROOT]   (ROOT: the repository,
# default: the parent of this script's folder; -v: every link)
# Prints "N passed, M failed" as its last line; exits 1 on any failure.
set -u

verbose=0
if [ "${1:-}" = "-v" ]; then
    verbose=1
    shift
fi
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$(dirname "$here")}

# The pages under $1, relative to it: README.md and docs/**/*.md, tracked
# ones (plus untracked, not ignored) in a git checkout, else every such file.
pages() {
    if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$1" ls-files --cached --others --exclude-standard -- README.md 'docs/*.md' |
            sort -u | while read -r f; do [ -f "$1/$f" ] && echo "$f"; done
    else
        (cd "$1" && find README.md docs -name '*.md' -type f 2>/dev/null | sort)
    fi
}

# check ROOT: one line per link, "ok PAGE:LINE TARGET" or
# "FAIL PAGE:LINE TARGET: why".
check() {
    local dir=$1
    # shellcheck disable=SC2016 # the perl program is in single quotes on purpose
    pages "$dir" | (cd "$dir" && xargs -d '\n' -r perl -e '
    use strict; use warnings; use open qw(:std :encoding(UTF-8));
    use File::Basename qw(dirname);
    use File::Spec;
    my %anchors; # page -> { anchor => 1 }
    sub slug { my $h = lc shift; $h =~ s/`//g; $h =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;
               $h =~ s/[^\p{L}\p{N}\s_-]//g; $h =~ s/^\s+|\s+$//g; $h =~ s/ /-/g; return $h; }
    sub anchors_of {
        my $page = shift;
        return $anchors{$page} if $anchors{$page};
        my %a; my %count; my $fence = 0;
        if (open my $f, "<", $page) {
            while (<$f>) {
                if (/^\s*(```|~~~)/) { $fence = !$fence; next; }
                next if $fence;
                next unless /^#{1,6}\s+(.*?)\s*#*\s*$/;
                my $s = slug($1);
                my $n = $count{$s}++;
                $a{$n ? "$s-$n" : $s} = 1;
            }
            close $f;
        }
        return $anchors{$page} = \%a;
    }
    for my $page (@ARGV) {
        open my $f, "<", $page or next;
        my $fence = 0; my $n = 0;
        while (my $line = <$f>) {
            $n++;
            if ($line =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
            next if $fence;
            (my $text = $line) =~ s/(`+).*?\1//g;  # code spans hold no links
            my @targets;
            push @targets, $1 while $text =~ /!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
            push @targets, $1 if $text =~ /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;
            for my $t (@targets) {
                next if $t =~ m{^(?:[a-z][a-z0-9+.-]*:|//)}i;  # the web, mail
                my ($path, $anchor) = $t =~ /^([^#]*)(?:#(.*))?$/;
                my $where = "$page:$n";
                my $file = $path eq "" ? $page
                         : File::Spec->canonpath(dirname($page) . "/" . $path);
                1 while $file =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
                if ($path ne "" && ($file =~ m{^\.\./} || !-e $file)) {
                    print "FAIL $where $t: no such file ($file)\n";
                    next;
                }
                if (defined $anchor && $anchor ne "") {
                    if (-d $file || $file !~ /\.md$/i) {
                        print "FAIL $where $t: an anchor into $file, which has no headings\n";
                        next;
                    }
                    unless (anchors_of($file)->{lc $anchor}) {
                        print "FAIL $where $t: $file has no heading for #$anchor\n";
                        next;
                    }
                }
                print "ok $where $t\n";
            }
        }
        close $f;
    }
    ')
}

# report OUTPUT: prints the failures (and with -v every link) and the
# summary line; returns 1 on a failure or when no link was found.
report() {
    local out=$1 passed failed
    passed=$(grep -c '^ok ' <<<"$out")
    failed=$(grep -c '^FAIL ' <<<"$out")
    grep '^FAIL ' <<<"$out" | sed 's/^FAIL /FAIL    /'
    [ "$verbose" = 1 ] && grep '^ok ' <<<"$out" | sed 's/^ok /ok      /'
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

# ---- self-test: a made-up tree with one broken link, image and anchor ----
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs/guide" "$tmp/docs/pictures"
: >"$tmp/docs/pictures/a.png"
cat >"$tmp/README.md" <<'MD'
# Demo
![a picture](docs/pictures/a.png) and [the guide](docs/guide/play.md#the-keys-that-matter)
[a missing page](docs/guide/nope.md), `[in code](nowhere.md)`, [the web](https://example.org/x)
## Keys: F, C & Space
[here](#keys-f-c--space) and [not here](#no-such-heading)
MD
cat >"$tmp/docs/guide/play.md" <<'MD'
# Play
## The keys that matter
![missing](../pictures/b.png) [back](../../README.md#demo) [folder](../pictures/)
```
[fenced](nowhere.md)
```
MD
self=$(check "$tmp")
self_report=$(report "$self") && self_rc=0 || self_rc=1
if [ "$self_rc" = 0 ] || ! grep -qx '5 passed, 3 failed' <<<"$self_report" \
   || ! grep -q 'README.md:3 docs/guide/nope.md: no such file' <<<"$self_report" \
   || ! grep -q 'README.md:5 #no-such-heading: README.md has no heading' <<<"$self_report" \
   || ! grep -q 'docs/guide/play.md:3 ../pictures/b.png: no such file' <<<"$self_report"; then
    echo "self-test: the checker did not catch a broken link, image or anchor:"
    echo "$self_report"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "self-test: a broken link, image and anchor fail, with their page and line (ok)"

# ---- the repository ----
out=$(check "$root")
report "$out"
