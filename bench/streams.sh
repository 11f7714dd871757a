#!/bin/sh
# The job-stream benchmark: streams of 1k..64k jobs with power on, the cost per job at each size and the slope.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs bench/streams.cfg (1,250 nodes, power with a binding site cap,
# cooling, failures) with jobs.[0].count = 1k, 2k, ..., 64k and a horizon
# of count x 0.0876 h, so the load stays the same and a simulator linear
# in jobs costs the same per job at every size (issue 19: "job streams of
# 1k..64k jobs with power on: linear in the number of jobs").  Each run is
# a whole `dcsim run --no-trace` process timed by bench/measure (CPU time,
# which a loaded machine disturbs less than wall time, and peak memory)
# and, with STREAMS_CALLGRIND=1, counted by callgrind (instructions: the
# steady figure; slow, so up to STREAMS_CALLGRIND_MAX jobs, default 16000).
# Prints per size the CPU and instructions per job, then the least-squares
# slope of CPU time against jobs and the ratio of the largest size's cost
# per job to the smallest's (1 for linear; the issue measured 2.1 / 7.9 /
# 36 / 137 s at 1k / 2k / 4k / 8k jobs before the power model iterated
# only the jobs holding nodes).
#
# usage: bench/streams.sh BUILDDIR SRCDIR
# environment: STREAMS_SIZES  job counts (default "1000 2000 4000 8000 16000 32000 64000")
#              REPS           runs of each size (default 1; the median CPU is shown)
set -u
. "$(dirname "$0")/common.sh"
bench_args 2 2 "BUILDDIR SRCDIR" "$@"
dcsim=$1/dcsim
measure=$1/bench/measure
cfg=$2/bench/streams.cfg
bench_built "make bench-streams" "$dcsim" "$measure"
sizes=${STREAMS_SIZES:-1000 2000 4000 8000 16000 32000 64000}
reps=${REPS:-1}
cg=${STREAMS_CALLGRIND:-0}
cgmax=${STREAMS_CALLGRIND_MAX:-16000}
if [ "$cg" = 1 ] && ! command -v valgrind > /dev/null 2>&1; then
    echo "$0: no valgrind: instruction counts skipped" >&2
    cg=0
fi
bench_tmpdir streams

printf '%8s %10s %10s %12s %12s %16s %12s  %s\n' jobs horizon_d cpu_ms cpu_us_per_job peak_rss_kb instructions instr_per_job \
    "completed cap_throttled_h"
status=0
for n in $sizes; do
    days=$(awk -v n="$n" 'BEGIN { printf "%.6f", n * 0.0876 / 24 }')
    set -- "$dcsim" run "$cfg" --set "jobs.[0].count=$n" --set "horizon_days=$days" --no-trace
    if ! "$measure" --reps "$reps" -- "$@" --quiet > "$tmp/out" 2> "$tmp/err"; then
        printf '%8s FAILED\n' "$n"
        tail -n 5 "$tmp/err"
        status=1
        continue
    fi
    line=$(tail -n 1 "$tmp/out")
    cpu=$(printf '%s\n' "$line" | sed -n 's/.*cpu_ms_median=\([0-9.]*\).*/\1/p')
    rss=$(printf '%s\n' "$line" | sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p')
    figs=$("$@" --json 2> /dev/null | tr -d ' \n' |
        sed -n 's/.*"jobs.completed":\([0-9.e+]*\).*"power.cap_throttled_h":\([0-9.e+-]*\).*/\1 \2/p')
    ins=-
    if [ "$cg" = 1 ] && [ "$n" -le "$cgmax" ]; then
        ins=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" --quiet 2>&1 |
            sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,)
        [ -n "$ins" ] || ins=-
    fi
    per=$(awk -v c="$cpu" -v n="$n" 'BEGIN { printf "%.1f", c * 1000 / n }')
    ipj=$(awk -v i="$ins" -v n="$n" 'BEGIN { if (i == "-") print "-"; else printf "%.0f", i / n }')
    printf '%8s %10s %10s %12s %12s %16s %12s  %s\n' "$n" "$days" "$cpu" "$per" "$rss" "$ins" "$ipj" "$figs"
    printf '%s %s\n' "$n" "$cpu" >> "$tmp/pts"
done
[ -s "$tmp/pts" ] && awk '{ n++; x += $1; y += $2; xx += $1 * $1; xy += $1 * $2; px[n] = $1; py[n] = $2 }
    END {
        b = (n * xy - x * y) / (n * xx - x * x); a = (y - b * x) / n
        printf "CPU time = %.1f ms + %.2f ms per 1,000 jobs (least squares over %d sizes)\n", a, b * 1000, n
        if (n > 1) printf "cost per job at %d jobs / at %d jobs: %.2f (1 for linear)\n", px[n], px[1], (py[n] / px[n]) / (py[1] / px[1])
    }' "$tmp/pts"
exit $status
