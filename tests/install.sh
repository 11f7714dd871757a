#!/bin/sh
# Every file the README, the docs and the man page name is in the tarball, and installed where they say.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Collects the paths README.md, docs/*.md and docs/dcsim.1 name (scenarios/,
# plots/, docs/ files, relative links with ../ resolved), then in a scratch
# directory runs `make distdir` (what the tarball holds) and `make install
# DESTDIR=...` of the build tree ($DCSIM_BUILDDIR), and checks each path is
# in the distribution and, where it is an installed kind, installed:
# scenarios/X -> $(pkgdatadir)/scenarios/X, plots/X -> $(pkgdatadir)/plots/X,
# docs/*.md and README.md -> $(docdir), docs/figures/X -> $(docdir)/figures,
# docs/dcsim.1 -> man1; and that the installed dcsim runs.  (Finding the
# scenarios by name in the installed data directory is tested by test_cli
# through the build tree's dcsim, which uses the same lookup.)
set -u
: "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}" "${DCSIM_BUILDDIR:?set DCSIM_BUILDDIR to the build tree}"
unset MAKEFLAGS MFLAGS MAKELEVEL
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_install.XXXXXX") || exit 1
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

src=$DCSIM_SRCDIR
{
    for f in "$src/README.md" "$src"/docs/*.md; do
        dir=$(dirname "$f")
        rel=${dir#"$src"}
        rel=${rel#/}
        # links relative to the page: (../scenarios/x) from docs/ is scenarios/x
        grep -o '](\.\./[^)#]*\|](figures/[^)#]*\|](scenario\.md\|](errors\.md' "$f" | sed 's/^](//' |
            while read -r p; do
                case $p in
                ../*) echo "${p#../}" ;;
                *) echo "${rel:+$rel/}$p" ;;
                esac
            done
        grep -o '\(scenarios\|plots\|docs\)/[A-Za-z0-9_./-]*\.\(cfg\|sh\|gp\|md\|png\|1\)' "$f"
    done
    grep -o '\(scenarios\|plots\|docs\)/[A-Za-z0-9_./-]*\.\(cfg\|sh\|gp\|md\|png\|1\)' "$src/docs/dcsim.1"
    echo COPYING
} | sed 's|/\./|/|g; s|^\./||' | sort -u > "$work/named"
[ "$(wc -l < "$work/named")" -ge 30 ] || bad "found only $(wc -l < "$work/named") files named in the docs"

if ! make -s -C "$DCSIM_BUILDDIR" distdir distdir="$work/dist" > "$work/distdir.log" 2>&1; then
    bad "make distdir failed: $(tail -5 "$work/distdir.log")"
fi
if ! make -s -C "$DCSIM_BUILDDIR" install DESTDIR="$work/root" > "$work/install.log" 2>&1; then
    bad "make install failed: $(tail -5 "$work/install.log")"
fi
# Where things went: the prefix as configured, under DESTDIR.
data=$(find "$work/root" -type d -path '*/share/dcsim' | head -1)
doc=$(find "$work/root" -type d -path '*/share/doc/dcsim' | head -1)
man=$(find "$work/root" -type f -name dcsim.1 | head -1)
bin=$(find "$work/root" -type f -name dcsim -perm -u+x | head -1)
[ -n "$data" ] || bad "nothing installed under share/dcsim"
[ -n "$doc" ] || bad "no documentation installed (share/doc/dcsim)"
[ -n "$man" ] || bad "no man page installed"

n=0
while read -r p; do
    n=$((n + 1))
    [ -e "$src/$p" ] || { bad "the docs name $p, which is not in the source tree"; continue; }
    [ -e "$work/dist/$p" ] || bad "$p is named by the docs but not in the tarball"
    case $p in
    scenarios/*) [ -e "$data/$p" ] || bad "$p is not installed (in $data/$p)" ;;
    plots/*) [ -e "$data/$p" ] || bad "$p is not installed (in $data/$p)" ;;
    docs/figures/*) [ -e "$doc/figures/${p#docs/figures/}" ] || bad "$p is not installed in the docdir" ;;
    docs/*.md) [ -e "$doc/${p#docs/}" ] || bad "$p is not installed in the docdir" ;;
    README.md) [ -e "$doc/README.md" ] || bad "README.md is not installed in the docdir" ;;
    docs/dcsim.1) [ -n "$man" ] || bad "the man page is not installed" ;;
    esac
done < "$work/named"
tr "\n" " " < "$work/named"; echo
echo "checked $n files named by README.md, docs/*.md and the man page"

if [ -n "$bin" ]; then
    "$bin" --version > /dev/null || bad "the installed dcsim does not run"
fi
[ $fail -eq 0 ] && echo "every file the docs name is in the tarball and installed"
exit $fail
