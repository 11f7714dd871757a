#!/bin/sh
# scenarios/mixed/fabric.sh and scenarios/compare/placement.sh make their points and their READMEs show what they print.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs scenarios/mixed/fabric.sh (the same job mix on six fabrics) and
# scenarios/compare/placement.sh (what packing buys) with the dcsim of the
# build tree ($DCSIM; sources in $DCSIM_SRCDIR) and checks
#  - its points, from its own table: on 1:1 the placement policy (pack or
#    spread) changes the communication lost by less than 1% (the hops'
#    latency only); on 1:4 pack loses less than 1.2 x 1:1's and spread more
#    than 1.5 x pack's, with a longer mean turnaround; rail-optimised 1:4
#    loses more than the fat-tree 1:4 packed; every variant completes jobs;
#    placement.sh: scattering the one job's ranks lengthens every time and
#    loss it shows; on the shared cluster spread and random lose more to
#    communication than pack, with longer turnarounds and no more useful
#    work, and their jobs span more pods than pack's;
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
           a = comm["fat-tree 1:1/pack"]; b = comm["fat-tree 1:1/spread"]
           if (!(a > 0) || (b - a) / a > 0.01 || (a - b) / a > 0.01) { print "1:1: pack " a ", spread " b; e = 1 }
           p = comm["fat-tree 1:4/pack"]; s = comm["fat-tree 1:4/spread"]
           if (!(p < 1.2 * a)) { print "1:4 pack " p " against 1:1 " a; e = 1 }
           if (!(s > 1.5 * p && tat["fat-tree 1:4/spread"] > tat["fat-tree 1:4/pack"])) {
               print "1:4 spread " s " against pack " p; e = 1 }
           r = comm["rail 1:4/pack"]
           if (!(r > p)) { print "rail 1:4 pack " r " against the fat-tree 1:4 " p; e = 1 }
           exit e }' "$work/fabric.out" > "$work/why" || bad "fabric.sh: $(cat "$work/why")"

# placement.sh: packing never loses: each "+scattered" of the one job is > 0; on the shared cluster
# (policy comm +pack turnaround useful racks pods) spread and random lose more, wait longer, do no
# more useful work and span more pods than pack
awk '/^(step time|exposed|days)/ { n++; if (!($NF + 0 > 0)) { print $0; e = 1 } }
     /^(pack|topology_aware|rack|spread|random) / { k++; comm[$1] = $2; tat[$1] = $4 + 0; use[$1] = $5; pods[$1] = $7 }
     END { if (n != 3 || k != 5) { print "expected 3 + 5 rows, got " n " + " k; exit 1 }
           for (q = 1; q <= 2; q++) { x = q == 1 ? "spread" : "random"
               if (!(comm[x] > comm["pack"] && tat[x] > tat["pack"] && use[x] <= use["pack"] && pods[x] > pods["pack"])) {
                   print x ": comm " comm[x] ", turnaround " tat[x] ", useful " use[x] ", pods " pods[x] " against pack"; e = 1 } }
           exit e }' "$work/placement.out" > "$work/why" ||
    bad "placement.sh: packing does not buy time: $(cat "$work/why")"

check mixed fabric
check compare placement
[ $fail -eq 0 ] && echo "mixed/fabric.sh and compare/placement.sh make their points and their READMEs show what they print"
exit $fail
