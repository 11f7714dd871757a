#!/bin/sh
# The shared-cluster benchmark: 10,240 GPUs for 30 days, 20,000 stream jobs with every model on, against job 0 alone modelled.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs bench/shared.cfg (the flagship's cluster, fabric, storage, power and
# failures shared by a 2,048-GPU job and 20,000 stream jobs, each with its
# step-time model, flows on the fabric, dataset streams and checkpoints on
# the file system) and the same run with only job 0 modelled (the stream's
# jobs of class "plain": constant rate, fixed checkpoint cost), each timed
# by bench/measure (median wall time, peak RSS), and prints the ratio and
# a few figures of each run (that the work is real).  Issue 14's target:
# under 1 s and 500 MB, and within 3x of the job-0 run.
#
# usage: bench/shared.sh BUILDDIR SRCDIR
# environment: REPS         runs of each case (default 1)
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
reps=${REPS:-1}
days=${SHARED_DAYS:-30}
ulimit -v 8000000 2>/dev/null
bench_tmpdir shared
figs=jobs.submitted,jobs.completed,jobs.wait_mean_h,gpu_hours.useful,gpu_hours.communication,gpu_hours.data_stall

printf '%-26s %12s %12s %14s   %s\n' case wall_ms peak_rss_kb instructions "submitted completed wait_h useful comm_h stall_h"
status=0
for c in llm plain; do
    label="every job modelled"
    [ $c = plain ] && label="only job 0 modelled"
    set -- "$dcsim" run "$cfg" --no-trace --set "horizon_days=$days.0" --set "jobs.[0].class=\"$c\""
    if ! "$measure" --reps "$reps" -- "$@" --quiet >"$tmp/out" 2>"$tmp/err"; then
        printf '%-26s FAILED\n' "$label"
        tail -n 5 "$tmp/err"
        status=1
        continue
    fi
    line=$(tail -n 1 "$tmp/out")
    wall=$(printf '%s\n' "$line" | sed -n 's/.*wall_ms_median=\([0-9.]*\).*/\1/p')
    rss=$(printf '%s\n' "$line" | sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p')
    ir=-
    if [ "${CALLGRIND:-0}" = 1 ]; then
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" --quiet >/dev/null 2>"$tmp/cg.err" &&
            ir=$(sed -n 's/^summary: *//p' "$tmp/cg.out")
    fi
    f=$("$@" --get "$figs" | tr '\t' ' ')
    printf '%-26s %12s %12s %14s   %s\n' "$label" "$wall" "$rss" "$ir" "$f"
    eval "wall_$c=$wall"
done
[ $status -eq 0 ] && awk -v a="$wall_llm" -v b="$wall_plain" 'BEGIN { printf "ratio (every job / job 0 alone): %.2f\n", a / b }'
exit $status
