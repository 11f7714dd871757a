#!/bin/sh
# The planning scripts (scenarios/invest/size.sh and capacity.sh, scenarios/compare/cost_time.sh, generations.sh and cpu_partition.sh) make their points and their READMEs show what they print.
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
#  - capacity.sh (buy now or in stages): buying now is fastest; the three
#    rows with the second stage at day 60 take the same days, at least 50
#    more, and the first stage alone longer still; their GPU-hours present
#    are (10,752 x days - 6,400 x 60 days) x 24 h; renting to the end costs
#    6,400 GPUs x (days - 60) x 24 h x 3 USD, renting until day 120 6,400 x
#    60 x 24 x 3 USD, and buying at day 120 the capital of buying now;
#  - generations.sh (two GPU generations): the all-B200 cluster is fastest
#    with the highest peak; the mix, bound by its H100 pool, is no more than
#    5% faster than all-H100; the mix's peak is its chip table's; the chip
#    table's price per PFLOP/s is its price per GPU over its peak per GPU,
#    and the B200 is cheaper per PFLOP/s and gives more PFLOP/s per kW;
#  - cpu_partition.sh (48, 64, 96 CPU-only nodes beside the GPUs): more
#    nodes, a shorter mean wait, a lower utilisation, more idle node-hours,
#    more energy and direct cost and a higher cost per useful node-hour;
#    each row's CPU energy is its node-hours at the scenario's powers, 0.25
#    kW idle and 0.7 kW busy: 0.25 idle + 0.7 (n x 720 h - idle), within
#    0.5% (the hours down draw nothing: a few node-hours); the training's
#    useful GPU-hours the same in every row within 1%; the chip table's CPU
#    row: no GPU, 64 x 96 cores, 64 x 30,000 USD of capital;
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
run invest capacity
run compare cost_time
run compare generations
run compare cpu_partition

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

# --- capacity.sh ---
# label | gpus0 days present capital rent tco book usd (last eight fields)
awk 'NF >= 9 && $NF ~ /^[0-9.]+$/ { n++; k = NF
         days[n] = $(k - 6); pres[n] = $(k - 5); cap[n] = $(k - 4); rent[n] = $(k - 3) }
     function near(a, b, tol) { return a - b <= tol && b - a <= tol }
     END { if (n != 5) { print "expected 5 rows, got " n; exit 1 }
           # rows: all now; day 60 bought; day 60 rented; day 60 rented, bought at 120; first stage alone
           if (!(days[2] == days[3] && days[3] == days[4])) { print "the day-60 rows differ in days"; e = 1 }
           if (!(days[2] >= days[1] + 50)) { print "the second stage late does not delay the programme"; e = 1 }
           if (!(days[5] > days[2])) { print "the first stage alone is not slower"; e = 1 }
           for (i = 2; i <= 4; i++)
               if (!near(pres[i], (10752 * days[i] - 6400 * 60) * 24 / 1e6, 0.02)) { print "row " i ": GPU-h present " pres[i]; e = 1 }
           if (!near(pres[1], 10752 * days[1] * 24 / 1e6, 0.02)) { print "row 1: GPU-h present " pres[1]; e = 1 }
           if (!near(rent[3], 6400 * (days[3] - 60) * 24 * 3 / 1e6, 0.2)) { print "renting to the end: " rent[3]; e = 1 }
           if (!near(rent[4], 6400 * 60 * 24 * 3 / 1e6, 0.05)) { print "rent until day 120: " rent[4]; e = 1 }
           if (!(cap[4] == cap[1] && cap[2] == cap[1] && cap[3] < cap[1] && rent[1] == 0)) { print "capital out of line"; e = 1 }
           exit e }' "$work/capacity.out" > "$work/why" || bad "capacity.sh: $(cat "$work/why")"

# --- generations.sh ---
awk '/^1,536 H100 nodes/ { hp = $(NF - 6); hd = $(NF - 3) }
     /^1,024 H100 \+ 512 B200 nodes/ { mp = $(NF - 6); md = $(NF - 3) }
     /^1,536 B200 nodes/ { bp = $(NF - 6); bd = $(NF - 3) }
     /^h100 / { hg = $2; hpk = $3; hu = $4; hpp = $5; hkw = $6 }
     /^b200 / { bg = $2; bpk = $3; bu = $4; bpp = $5; bkw = $6 }
     END { if (hp == "" || mp == "" || bp == "" || hg == "" || bg == "") { print "missing lines"; exit 1 }
           if (!(bd < md && bd < hd && bp > mp && mp > hp)) { print "all-B200 is not the fastest with the highest peak"; e = 1 }
           if (!(md >= 0.95 * hd)) { print "the mix is faster than its H100 pool allows"; e = 1 }
           if (mp - hpk - bpk > 1 || hpk + bpk - mp > 1) { print "the mix peak " mp " is not the chip table sum"; e = 1 }
           if ((hu / (hpk / hg)) / hpp > 1.001 || (hu / (hpk / hg)) / hpp < 0.999) { print "h100 USD per PFLOP/s"; e = 1 }
           if ((bu / (bpk / bg)) / bpp > 1.001 || (bu / (bpk / bg)) / bpp < 0.999) { print "b200 USD per PFLOP/s"; e = 1 }
           if (!(bpp < hpp && bkw > hkw)) { print "the B200 is not cheaper per PFLOP/s and more per kW"; e = 1 }
           exit e }' "$work/generations.out" > "$work/why" || bad "generations.sh: $(cat "$work/why")"

# --- cpu_partition.sh ---
awk '/^(48|64|96) / { k++; n[k] = $1; w[k] = $3; u[k] = $5 + 0; idle[k] = $6; e[k] = $7; d[k] = $8; per[k] = $9; g[k] = $10
                      busy = n[k] * 720 - idle[k]; want = (0.25 * idle[k] + 0.7 * busy) / 1000
                      if (e[k] > want * 1.005 + 0.05 || e[k] < want * 0.995 - 0.05) { print n[k] " nodes: energy " e[k] " MWh, by hand " want; bad = 1 } }
     /^cpu / { cg = $2; cores = $4; cap = $5 }
     END { if (k != 3 || cg == "") { print "expected 3 rows and the chip table, got " k; exit 1 }
           for (i = 2; i <= 3; i++)
               if (!(w[i] < w[i - 1] && u[i] < u[i - 1] && idle[i] > idle[i - 1] && e[i] > e[i - 1] && d[i] > d[i - 1] && per[i] > per[i - 1])) {
                   print n[i] " nodes against " n[i - 1] ": wait " w[i] ", use " u[i] ", idle " idle[i] ", energy " e[i] ", cost " d[i] ", per node-h " per[i]; bad = 1 }
           for (i = 2; i <= 3; i++) if (g[i] > 1.01 * g[1] || g[i] < 0.99 * g[1]) { print "training GPU-h " g[i] " against " g[1]; bad = 1 }
           if (!(cg == 0 && cores == 64 * 96 && cap == 1.92)) { print "chip table cpu row: " cg " GPUs, " cores " cores, " cap " M USD"; bad = 1 }
           exit bad }' "$work/cpu_partition.out" > "$work/why" || bad "cpu_partition.sh: $(cat "$work/why")"

# --- the READMEs' blocks ---
check invest size
check invest capacity
check compare cost_time
check compare generations
check compare cpu_partition
[ $fail -eq 0 ] && echo "the planning scripts make their points and their READMEs show what they print"
exit $fail
