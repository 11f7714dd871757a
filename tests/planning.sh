#!/bin/sh
# The planning scripts (scenarios/invest/size.sh, scenarios/compare/cost_time.sh) make their points and their READMEs show what they print.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs each script with the dcsim of the build tree ($DCSIM; sources in
# $DCSIM_SRCDIR) and checks
#  - size.sh (dcsim size on the flagship, 150 days at 90%): the answer is
#    at least the seed's no-loss closed form; the three plans in order
#    (conservative <= balanced <= aggressive in GPUs and in capital);
#    the balanced plan misses the deadline in at most 10% of futures;
#  - cost_time.sh (five fabrics on cost and time): the non-blocking core
#    costs more network capital than 1:7 and is not faster for a packed job;
#    the scattered job is slower and its run dearer on the same hardware;
#    the torus buys the least network and its run costs more than the
#    packed fat-tree's; the rail-optimised fabric needs fewer switches;
#  - that the block after "<!-- output of ./SCRIPT.sh" in the script's
#    README is what it prints now, so that a model change that moves them
#    fails until `make planning` regenerates them (and the prose is reread).
# With --update, rewrites those blocks instead of comparing (make planning).
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
export DCSIM
update=false
[ "${1:-}" = --update ] && update=true
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_planning.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

regen='make planning'
script_errors='printf\|awk:\|null\|nan\|did not finish'
. "$DCSIM_SRCDIR/tests/scriptcheck.sh"
run invest size
run compare cost_time

# --- size.sh ---
awk 'function usd(x,  m) { m = x ~ /B$/ ? 1e9 : x ~ /M$/ ? 1e6 : x ~ /k$/ ? 1e3 : 1; sub(/[BMk]$/, "", x); return x * m }
     /^closed form/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "GPUs,") cf = $i }
     /^answer:/ { gsub(/[(]/, "", $5); ans = $5 }
     /^  GPUs \(job nodes\)/ { c = $4; b = $6; a = $8 }
     /^  capital bought/ { kc = usd($5); kb = usd($6); ka = usd($7) }
     /^  P\(miss/ { mb = $7 }
     END { if (cf == "" || ans == "" || c == "" || kc == "" || mb == "") { print "missing lines"; exit 1 }
           if (ans + 0 < cf + 0) { print "answer " ans " below the closed form " cf; e = 1 }
           if (!(c + 0 <= b + 0 && b + 0 <= a + 0)) { print "plans GPUs " c ", " b ", " a " out of order"; e = 1 }
           if (!(kc + 0 <= kb + 0 && kb + 0 <= ka + 0)) { print "plans capital " kc ", " kb ", " ka " out of order"; e = 1 }
           if (mb + 0 > 0.1) { print "balanced misses in " mb; e = 1 }
           exit e }' "$work/size.out" > "$work/why" || bad "size.sh: $(cat "$work/why")"

# --- cost_time.sh ---
# fabric | switches optics capital ring days TCO share vs usd (last nine fields)
awk 'NF >= 10 && $NF ~ /^[0-9.]+$/ { n++; k = NF
         sw[n] = $(k - 8); cap[n] = $(k - 6); days[n] = $(k - 4); tco[n] = $(k - 3) }
     END { if (n != 5) { print "expected 5 rows, got " n; exit 1 }
           # rows: 1:7, 1:1, 1:7 scattered, rail 1:7, torus
           if (!(cap[2] > cap[1] && days[2] <= days[1])) { print "1:1 is not dearer or is slower"; e = 1 }
           if (!(days[3] > days[1] && tco[3] > tco[1] && cap[3] == cap[1])) { print "scattered is not slower and dearer"; e = 1 }
           for (i = 1; i <= 4; i++) if (!(cap[5] < cap[i])) { print "the torus is not the cheapest network"; e = 1 }
           if (!(tco[5] > tco[1] && days[5] > days[1])) { print "the torus run is not slower and dearer"; e = 1 }
           if (!(sw[4] < sw[1])) { print "rail-optimised needs no fewer switches"; e = 1 }
           exit e }' "$work/cost_time.out" > "$work/why" || bad "cost_time.sh: $(cat "$work/why")"

# --- the READMEs' blocks ---
check invest size
check compare cost_time
[ $fail -eq 0 ] && echo "the planning scripts make their points and their READMEs show what they print"
exit $fail
