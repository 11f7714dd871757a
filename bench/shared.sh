#!/bin/sh
# The shared-cluster benchmark: 10,240 GPUs for 30 days, 20,000 stream jobs with every model on, against job 0 alone modelled.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs bench/shared.cfg (the flagship's cluster, fabric, storage, power and
# failures shared by a 2,048-GPU job and 20,000 stream jobs, each with its
# step-time model, flows on the fabric, dataset streams and checkpoints on
# the file system) and the same run with only job 0 modelled (the stream's
# jobs of class "plain": constant rate, fixed checkpoint cost), the two in
# turn by bench/measure (job 0 alone, every job, job 0 alone, ...: a change
# of the machine's load hits both alike), and prints each case's median
# wall and CPU time and peak RSS, the medians of the ratios of consecutive
# runs, and a few figures of each run (that the work is real).  Issue 14's
# target: under 1 s and 500 MB, and within 3x of the job-0 run.
#
# usage: bench/shared.sh BUILDDIR SRCDIR
# environment: REPS         pairs of runs (default 5)
#              SHARED_DAYS  horizon in days (default 30)
#              CALLGRIND=1  also count instructions (valgrind --tool=callgrind,
#                           repeatable under load; slow: use SHARED_DAYS=1)
set -u
. "$(dirname "$0")/common.sh"
bench_args 2 2 "BUILDDIR SRCDIR" "$@"
dcsim=$1/dcsim
measure=$1/bench/measure
cfg=$2/bench/shared.cfg
bench_built "make bench-shared" "$dcsim" "$measure"
reps=${REPS:-5}
days=${SHARED_DAYS:-30}
ulimit -v 8000000 2>/dev/null
bench_tmpdir shared
figs=jobs.submitted,jobs.completed,jobs.wait_mean_h,gpu_hours.useful,gpu_hours.communication,gpu_hours.data_stall

printf '%-26s %10s %10s %12s %14s   %s\n' case wall_ms cpu_ms peak_rss_kb instructions "submitted completed wait_h useful comm_h stall_h"
if ! "$measure" --reps "$reps" -- \
    "$dcsim" run "$cfg" --no-trace --quiet --set "horizon_days=$days.0" --set 'jobs.[0].class="llm"' -- \
    "$dcsim" run "$cfg" --no-trace --quiet --set "horizon_days=$days.0" --set 'jobs.[0].class="plain"' \
    >"$tmp/out" 2>"$tmp/err"; then
    echo "bench/shared.sh: a run failed" >&2
    tail -n 5 "$tmp/err" >&2
    exit 1
fi
line=$(tail -n 1 "$tmp/out")
val() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; } # KEY: its value in measure's line
status=0
for c in llm plain; do
    label="every job modelled"
    pre=
    if [ $c = plain ]; then
        label="only job 0 modelled"
        pre=ref_
    fi
    set -- "$dcsim" run "$cfg" --no-trace --set "horizon_days=$days.0" --set "jobs.[0].class=\"$c\""
    ir=-
    if [ "${CALLGRIND:-0}" = 1 ]; then
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" --quiet >/dev/null 2>"$tmp/cg.err" &&
            ir=$(sed -n 's/^summary: *//p' "$tmp/cg.out")
    fi
    f=$("$@" --get "$figs" | tr '\t' ' ') || status=1
    printf '%-26s %10s %10s %12s %14s   %s\n' "$label" "$(val ${pre}wall_ms_median)" "$(val ${pre}cpu_ms_median)" \
        "$(val ${pre}peak_rss_kb)" "$ir" "$f"
done
printf 'ratio (every job / job 0 alone, median of %s interleaved pairs): wall %s, CPU %s\n' "$reps" \
    "$(val ratio_median)" "$(val cpu_ratio_median)"
exit $status
