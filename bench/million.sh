#!/bin/sh
# The million-job benchmark: a synthetic year of 1,000,000 jobs on 100k GPUs, trace on; time, memory, bytes per job.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs bench/million.cfg (12,500 nodes of 8 GPUs, a stream of jobs for a
# year, failures; issue 19's target: under 60 s and 2 GB with the trace
# on), timed by bench/measure (wall and CPU time, peak RSS), with the trace
# and, to tell the trace's share from the models', without it.  The stream
# can be cut (MILLION_JOBS): the horizon shrinks with it, so the arrival
# rate and the load stay those of the year.  Prints one row per case and
# the peak memory per job; a few of each run's figures show the work is
# real.
#
# usage: bench/million.sh BUILDDIR SRCDIR
# environment: MILLION_JOBS  jobs in the stream (default 1000000)
#              REPS          runs of each case (default 1)
#              MILLION_NO_TRACE=0  skip the run without the trace
set -u
. "$(dirname "$0")/common.sh"
bench_args 2 2 "BUILDDIR SRCDIR" "$@"
dcsim=$1/dcsim
measure=$1/bench/measure
cfg=$2/bench/million.cfg
bench_built "make bench-million" "$dcsim" "$measure"
jobs=${MILLION_JOBS:-1000000}
reps=${REPS:-1}
days=$(awk -v n="$jobs" 'BEGIN { printf "%.6f", 365.0 * n / 1e6 }')
bench_tmpdir million
figs=jobs.submitted,jobs.completed,jobs.wait_mean_h,gpu_hours.useful

printf '%-14s %8s %10s %10s %12s %10s %12s   %s\n' case jobs wall_ms cpu_ms peak_rss_kb B_per_job trace_bytes \
    "submitted completed wait_h useful_gpu_h"
status=0
for c in trace no_trace; do
    [ $c = no_trace ] && [ "${MILLION_NO_TRACE:-1}" = 0 ] && continue
    out=--no-trace
    [ $c = trace ] && out="-o $tmp/m.h5"
    # shellcheck disable=SC2086 # out is one or two words
    set -- "$dcsim" run "$cfg" --set "jobs.[0].count=$jobs" --set "horizon_days=$days" $out
    if ! "$measure" --reps "$reps" -- "$@" --quiet >"$tmp/out" 2>"$tmp/err"; then
        printf '%-14s FAILED\n' "$c"
        tail -n 5 "$tmp/err"
        status=1
        continue
    fi
    line=$(tail -n 1 "$tmp/out")
    wall=$(printf '%s\n' "$line" | sed -n 's/.*wall_ms_median=\([0-9.]*\).*/\1/p')
    cpu=$(printf '%s\n' "$line" | sed -n 's/.*cpu_ms_median=\([0-9.]*\).*/\1/p')
    rss=$(printf '%s\n' "$line" | sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p')
    size=-
    f=-
    if [ $c = trace ]; then
        size=$(wc -c < "$tmp/m.h5")
        f=$("$dcsim" export "$tmp/m.h5" /summary | awk -F, -v want="$figs" '
            BEGIN { n = split(want, w, ",") } { v[$1] = $2 }
            END { s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") v[w[i]]; print s }')
    fi
    per=$(awk -v r="$rss" -v n="$jobs" 'BEGIN { printf "%.0f", r * 1024 / n }')
    printf '%-14s %8s %10s %10s %12s %10s %12s   %s\n' "$c" "$jobs" "$wall" "$cpu" "$rss" "$per" "$size" "$f"
done
exit $status
