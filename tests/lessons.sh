#!/bin/sh
# The five lessons of scenarios/teach/: each teaches its point, and its README shows what it prints.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs every lesson with the dcsim of the build tree ($DCSIM; sources in
# $DCSIM_SRCDIR) and checks
#  - the point it teaches, from its own table: goodput per GPU falls with
#    the size, and the MFU and the days to train with it, the step's shares
#    summing to 100% (scaling); the checkpoint curve is U-shaped with its minimum
#    within a factor 1.5 of Young's interval (checkpoint_interval); an
#    oversubscribed core slows the data-parallel exchange of a job that
#    crosses it, and more without overlap (oversubscription); faster
#    checkpoint storage raises the ETTR (checkpoint_storage); the HBM route
#    trains fastest, 24 GB of HBM does not fit as laid out, and recompute
#    then offload each cost days (hbm_ddr);
#  - that the table in scenarios/teach/README.md after each
#    "<!-- output of ./LESSON.sh -->" line is what the lesson prints now, so
#    that a model change that moves them fails until `make lessons`
#    regenerates them (and the prose beside them is reread).
# With --update, rewrites those tables instead of comparing (make lessons).
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
export DCSIM
teach="$DCSIM_SRCDIR/scenarios/teach"
readme="$teach/README.md"
update=false
[ "${1:-}" = --update ] && update=true
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_lessons.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

lessons="scaling oversubscription checkpoint_interval checkpoint_storage hbm_ddr"
for l in $lessons; do
    if ! sh "$teach/$l.sh" > "$work/$l.out" 2> "$work/$l.err"; then
        bad "$l.sh exited with an error: $(cat "$work/$l.err")"
    elif [ -s "$work/$l.err" ]; then
        bad "$l.sh wrote to stderr: $(cat "$work/$l.err")"
    fi
    if grep -q 'printf\|awk:\|null\|nan' "$work/$l.out"; then
        bad "$l.sh printed a shell or awk error or a number that is not one: $(grep 'printf\|awk:\|null\|nan' "$work/$l.out")"
    fi
    echo "ran $l.sh"
done

# --- the points the lessons teach ---
# scaling: GPUs data ubatch step_s | 4 shares | eff MFU | intr/day ETTR goodput days MW
awk '$1 ~ /^[0-9]+$/ { n++; if (n > 1 && !($16 < prev)) { print "goodput " $16 " at " $1 " GPUs is not below " prev; e = 1 }
                       if (n > 1 && !($17 < prevdays && $12 < prevmfu)) { print "days or MFU do not fall at " $1; e = 1 }
                       s = $6 + $7 + $8 + $9; if (s < 99.7 || s > 100.3) { print "the step shares sum to " s; e = 1 }
                       prev = $16; prevdays = $17; prevmfu = $12 }
     END { if (n < 5) { print "only " n " rows"; e = 1 } exit e }' "$work/scaling.out" > "$work/why" ||
    bad "scaling.sh: goodput per GPU does not fall with size: $(cat "$work/why")"

# checkpoint_interval: FACTORx interval_s checkpoints ckpt% rollback% restart% ETTR days
awk '$1 ~ /^[0-9.]+x$/ { n++; f[n] = substr($1, 1, length($1) - 1) + 0; d[n] = $8 + 0
                         if ($8 !~ /^[0-9.]+$/) { print "row " $1 " did not finish"; e = 1 } }
     END { if (n < 5) { print "only " n " rows"; exit 1 }
           m = 1; for (i = 2; i <= n; i++) if (d[i] < d[m]) m = i
           if (m == 1 || m == n) { print "the minimum is at the end of the range (" f[m] "x)"; e = 1 }
           if (f[m] < 1 / 1.5 || f[m] > 1.5) { print "the minimum is at " f[m] " x Young, beyond a factor 1.5"; e = 1 }
           for (i = 2; i <= m; i++) if (d[i] > d[i - 1]) { print "days rise before the minimum at " f[i] "x"; e = 1 }
           for (i = m + 1; i <= n; i++) if (d[i] < d[i - 1]) { print "days fall after the minimum at " f[i] "x"; e = 1 }
           exit e }' "$work/checkpoint_interval.out" > "$work/why" ||
    bad "checkpoint_interval.sh: not U-shaped around Young's interval: $(cat "$work/why")"

# oversubscription: LABEL(30) DP_GB/s DP_s exposed step_s MFU days
awk 'NR > 2 { label = substr($0, 1, 30); sub(/ +$/, "", label); split(substr($0, 31), v, " ")
              bw[label] = v[1]; ex[label] = v[3]; days[label] = v[6] }
     END { base = "non-blocking"
           if (!(base in bw)) { print "no non-blocking row"; exit 1 }
           n = split("1:7, job scattered|1:7, pods of 128 GPUs", slow, "|")
           for (i = 1; i <= n; i++) {
               l = slow[i]
               if (!(l in bw)) { print "no row " l; e = 1; continue }
               if (!(bw[l] < bw[base] && ex[l] > ex[base] && days[l] > days[base])) {
                   print l ": " bw[l] " GB/s, " ex[l] " s exposed, " days[l] " days against " bw[base] ", " ex[base] ", " days[base]; e = 1 } }
           l = "1:7, pods of 128, no overlap"; o = "1:7, pods of 128 GPUs"
           if (!(ex[l] > ex[o] && days[l] > days[o])) { print "no overlap does not expose more"; e = 1 }
           exit e }' "$work/oversubscription.out" > "$work/why" ||
    bad "oversubscription.sh: the oversubscribed core does not slow communication: $(cat "$work/why")"

# checkpoint_storage, first table: LABEL(32) GB/s write_s young_s checkpoints ckpt% rollback% ETTR days
awk 'NR > 2 && /^$/ { exit } NR > 2 { split(substr($0, 33), v, " "); n++; bw[n] = v[1]; ettr[n] = v[7] }
     END { for (i = 2; i <= 3; i++) if (!(bw[i] > bw[i - 1] && ettr[i] > ettr[i - 1])) {
               print "row " i ": " bw[i] " GB/s, ETTR " ettr[i]; e = 1 }
           exit e }' "$work/checkpoint_storage.out" > "$work/why" ||
    bad "checkpoint_storage.sh: faster storage does not raise the ETTR: $(cat "$work/why")"

# hbm_ddr: LABEL(38) mem step recomp offload comm MFU days ...
awk 'NR > 1 { label = substr($0, 1, 38); sub(/ +$/, "", label); rest = substr($0, 39); split(rest, v, " ")
              n++; lab[n] = label; txt[n] = rest; days[n] = v[7] }
     END { if (n != 4) { print n " rows"; exit 1 }
           if (txt[2] !~ /does not fit/) { print "24 GB as laid out fits"; e = 1 }
           if (!(days[1] < days[3] && days[3] < days[4])) {
               print "days " days[1] ", " days[3] ", " days[4] " are not HBM < recompute < offload"; e = 1 }
           exit e }' "$work/hbm_ddr.out" > "$work/why" ||
    bad "hbm_ddr.sh: the HBM route is not the fastest: $(cat "$work/why")"

# --- the README's tables ---
# After "<!-- output of ./LESSON.sh ... -->" comes a ``` block with the output.
awk -v dir="$work" -v update="$update" '
    /^<!-- output of \.\/[a-z_]+\.sh/ { match($0, /\.\/[a-z_]+\.sh/); lesson = substr($0, RSTART + 2, RLENGTH - 5)
        print; expect = 1; next }
    expect == 1 && /^```/ { print; state = 1; expect = 0; n = 0
        f = dir "/" lesson ".out"; m = 0
        while ((getline line < f) > 0) want[++m] = line
        close(f); next }
    state == 1 && /^```$/ {
        if (update == "true") { for (i = 1; i <= m; i++) print want[i] }
        else { same = n == m; for (i = 1; i <= n && same; i++) same = have[i] == want[i]
               if (!same) printf "%s\n", lesson > (dir "/stale") }
        found[lesson] = 1; state = 0; print; next }
    state == 1 { have[++n] = $0; if (update != "true") print; next }
    { print }
    END { printf "" > (dir "/found"); for (l in found) print l >> (dir "/found") }
' "$readme" > "$work/README.new"
for l in $lessons; do
    grep -qx "$l" "$work/found" || bad "scenarios/teach/README.md has no '<!-- output of ./$l.sh -->' table"
done
if $update; then
    if cmp -s "$work/README.new" "$readme"; then
        echo "scenarios/teach/README.md: the tables are current"
    else
        cp "$work/README.new" "$readme" && echo "scenarios/teach/README.md: tables regenerated (reread the prose beside them)"
    fi
elif [ -s "$work/stale" ]; then
    for l in $(cat "$work/stale"); do
        bad "scenarios/teach/README.md's table of $l.sh is not what it prints now (make lessons regenerates it):"
        cat "$work/$l.out"
    done
fi
[ $fail -eq 0 ] && echo "the lessons teach their points and their README shows what they print"
exit $fail
