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

regen='make mixed'
script_errors='printf\|awk:\|null\|nan'
. "$DCSIM_SRCDIR/tests/scriptcheck.sh"
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

check mixed fabric
check compare placement
[ $fail -eq 0 ] && echo "mixed/fabric.sh and compare/placement.sh make their points and their READMEs show what they print"
exit $fail
