#!/bin/sh
# scenarios/mixed/fabric.sh and scenarios/compare/placement.sh make their points and their READMEs show what they print.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs scenarios/mixed/fabric.sh (the same job mix on six fabrics) and
# scenarios/compare/placement.sh (what packing buys) with the dcsim of the
# build tree ($DCSIM; sources in $DCSIM_SRCDIR) and checks
#  - its points, from its own table: on 1:1 the ranks' order changes the
#    communication lost by less than 0.1%; on 1:4 packed loses less than
#    1.2 x 1:1's and scattered more than 1.5 x packed's, with a longer mean
#    turnaround; rail-optimised 1:4 loses more than the fat-tree 1:4 packed;
#    every variant completes jobs; placement.sh: scattering lengthens every
#    time and loss it shows and does no more useful work;
#  - that the block after "<!-- output of ./SCRIPT.sh" in each README is
#    what it prints now (make mixed regenerates them; reread the prose).
# With --update, rewrites the block instead of comparing (make mixed).
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
export DCSIM
update=false
[ "${1:-}" = --update ] && update=true
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_mixed.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# run DIR SCRIPT: its output into $work/SCRIPT.out, checked for errors.
run() {
    if ! sh "$DCSIM_SRCDIR/scenarios/$1/$2.sh" > "$work/$2.out" 2> "$work/$2.err"; then
        bad "$1/$2.sh exited with an error: $(cat "$work/$2.err")"
    elif [ -s "$work/$2.err" ]; then
        bad "$1/$2.sh wrote to stderr: $(cat "$work/$2.err")"
    fi
    if grep -qi 'printf\|awk:\|null\|nan' "$work/$2.out"; then
        bad "$1/$2.sh printed an error or a number that is not one: $(grep -i 'printf\|awk:\|null\|nan' "$work/$2.out")"
    fi
    echo "ran $1/$2.sh"
}
run mixed fabric
run compare placement

# fabric(14) placement comm comm% useful done turnaround
awk 'NR > 1 { key = substr($0, 1, 14); sub(/ +$/, "", key); split(substr($0, 15), v, " ")
              key = key "/" v[1]; comm[key] = v[2]; done[key] = v[5]; tat[key] = v[6] + 0; n++
              if (!(v[5] > 0)) { print key " completed no job"; e = 1 } }
     END { if (n != 6) { print "expected 6 rows, got " n; exit 1 }
           a = comm["fat-tree 1:1/packed"]; b = comm["fat-tree 1:1/scattered"]
           if (!(a > 0) || (b - a) / a > 0.001 || (a - b) / a > 0.001) { print "1:1: packed " a ", scattered " b; e = 1 }
           p = comm["fat-tree 1:4/packed"]; s = comm["fat-tree 1:4/scattered"]
           if (!(p < 1.2 * a)) { print "1:4 packed " p " against 1:1 " a; e = 1 }
           if (!(s > 1.5 * p && tat["fat-tree 1:4/scattered"] > tat["fat-tree 1:4/packed"])) {
               print "1:4 scattered " s " against packed " p; e = 1 }
           r = comm["rail 1:4/packed"]
           if (!(r > p)) { print "rail 1:4 packed " r " against the fat-tree 1:4 " p; e = 1 }
           exit e }' "$work/fabric.out" > "$work/why" || bad "fabric.sh: $(cat "$work/why")"

# placement.sh: packing never loses: each "+scattered" of a time or a loss is > 0, useful work not above
awk '/^(step time|exposed|days|communication|mean turnaround)/ { n++; if (!($NF + 0 > 0)) { print $0; e = 1 } }
     /^useful/ { u++; if ($NF + 0 > 0.0001) { print $0; e = 1 } }
     END { if (n != 5 || u != 1) { print "expected 6 rows, got " n + u; e = 1 } exit e }' "$work/placement.out" > "$work/why" ||
    bad "placement.sh: packing does not buy time: $(cat "$work/why")"

# check DIR SCRIPT: the ``` block after "<!-- output of ./SCRIPT.sh" in DIR/README.md is $work/SCRIPT.out.
check() {
readme=$DCSIM_SRCDIR/scenarios/$1/README.md
awk -v f="$work/$2.out" -v tag="<!-- output of ./$2.sh" -v update="$update" -v st="$work/stale" '
    index($0, tag) == 1 { print; expect = 1; found = 1; next }
    expect == 1 && /^```/ { print; state = 1; expect = 0; n = 0; m = 0
        while ((getline line < f) > 0) want[++m] = line
        close(f)
        next }
    state == 1 && /^```$/ {
        if (update == "true") { for (i = 1; i <= m; i++) print want[i] }
        else { same = n == m; for (i = 1; i <= n && same; i++) same = have[i] == want[i]
               if (!same) print "stale" > st }
        state = 0; print; next }
    state == 1 { have[++n] = $0; if (update != "true") print; next }
    { print }
    END { if (!found) print "missing" > st }' "$readme" > "$work/README.new"
if [ -s "$work/stale" ]; then
    if grep -q missing "$work/stale"; then
        bad "scenarios/$1/README.md has no '<!-- output of ./$2.sh' block"
    elif ! $update; then
        bad "scenarios/$1/README.md's block of $2.sh is not what it prints now (make mixed regenerates it):"
        cat "$work/$2.out"
    fi
fi
if $update && ! cmp -s "$work/README.new" "$readme"; then
    cp "$work/README.new" "$readme" && echo "scenarios/$1/README.md: regenerated (reread the prose beside it)"
fi
rm -f "$work/stale"
}
check mixed fabric
check compare placement
[ $fail -eq 0 ] && echo "mixed/fabric.sh and compare/placement.sh make their points and their READMEs show what they print"
exit $fail
