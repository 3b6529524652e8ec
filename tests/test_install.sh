#!/usr/bin/env bash
# make install and make uninstall into a staging directory (DESTDIR): the
# program, its man page (rendered by man) and the example config go where
# the GNU variables say, and uninstall takes away exactly those files.
# usage: tests/test_install.sh [MAKE]   (run from the top of the tree)
set -u
make=${1:-make}
bin=./dinghy
source "$(dirname "$0")/cli_lib.sh"

files_in() { (cd "$1" && find . \( -type f -o -type l \) | sort); }
left_in() { (cd "$1" && find . -mindepth 1 | sort); }

# PREFIX=/usr: the layout a distribution package wants
dest=$tmp/stage
$make -s install DESTDIR="$dest" PREFIX=/usr >"$tmp/install.log" 2>&1 \
    && ok "make install DESTDIR PREFIX=/usr" || bad "make install failed: $(tail -n 5 "$tmp/install.log")"
want=$'./usr/bin/dinghy\n./usr/share/dinghy/dinghy.ini\n./usr/share/man/man1/dinghy.1'
got=$(files_in "$dest")
[[ $got == "$want" ]] && ok "installs exactly bin/dinghy, man1/dinghy.1, share/dinghy/dinghy.ini" \
    || bad "installed files: $got"
[[ -x $dest/usr/bin/dinghy ]] && "$dest/usr/bin/dinghy" --version | grep -q '^dinghy ' \
    && ok "the installed program runs" || bad "the installed program does not run"
cmp -s dinghy.ini "$dest/usr/share/dinghy/dinghy.ini" && ok "the example config is dinghy.ini" \
    || bad "the installed dinghy.ini differs from the tree's"
page=$(MANWIDTH=80 man -l "$dest/usr/share/man/man1/dinghy.1" 2>&1)
grep -q '^NAME' <<<"$page" && grep -q -- '--headless' <<<"$page" && grep -q 'usage: dinghy' <<<"$page" \
    && ok "man -l renders the man page (NAME, usage, --headless)" \
    || bad "man page: ${page:0:300}"
$make -s uninstall DESTDIR="$dest" PREFIX=/usr >"$tmp/uninstall.log" 2>&1 \
    && ok "make uninstall" || bad "make uninstall failed: $(tail -n 5 "$tmp/uninstall.log")"
got=$(left_in "$dest")
[[ -z $got ]] && ok "uninstall leaves nothing in DESTDIR (no file, no directory)" \
    || bad "left after uninstall: $got"

# the directory variables move each part on its own (default PREFIX /usr/local)
dest=$tmp/stage2
$make -s install DESTDIR="$dest" bindir=/opt/b mandir=/opt/m datadir=/opt/d >/dev/null 2>&1
want=$'./opt/b/dinghy\n./opt/d/dinghy/dinghy.ini\n./opt/m/man1/dinghy.1'
got=$(files_in "$dest")
[[ $got == "$want" ]] && ok "bindir, mandir, datadir are honoured" || bad "with bindir etc: $got"
$make -s uninstall DESTDIR="$dest" bindir=/opt/b mandir=/opt/m datadir=/opt/d >/dev/null 2>&1
[[ -z $(left_in "$dest") ]] && ok "uninstall with the same variables leaves nothing" \
    || bad "left after uninstall: $(left_in "$dest")"

echo "test_install: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
