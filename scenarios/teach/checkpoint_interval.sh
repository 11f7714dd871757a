#!/bin/sh
# Lesson: the checkpoint interval's trade-off, against Young's optimum.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Lesson 3: the checkpoint interval trade-off, for the flagship's job on
# 16,384 GPUs (on a site sized for it): intervals from an eighth to eight
# times Young's optimum.  Every row keeps its checkpoints for a day of
# training (retain = a day / interval, at least the flagship's 8): with
# short intervals a fixed count would not reach back past a silent
# corruption found within the hour, and the job would roll back to the
# start, which is lesson 4's subject, not this one's.
# Usage: checkpoint_interval.sh [GPUS]
. "$(dirname "$0")/lib.sh"

want="job.checkpoint_write_s job.expected_mtbi_h job.checkpoints gpu_hours.capacity
      gpu_hours.checkpoint gpu_hours.rollback gpu_hours.restart step.ettr_time job.completed job.completion_days"
g=${1:-16384}
# shellcheck disable=SC2046
run "$flagship" $(size_sets "$g") || { echo "$run_error" >&2; exit 2; }
# Young's optimum from the write time and the mean time between
# interruptions the failure rates give (the flagship's "auto" interval
# follows the rate it observes instead, which a run's luck moves).
c=$(val job.checkpoint_write_s)
m=$(val job.expected_mtbi_h)
young=$(calc "sqrt(2 * $c * $m * 3600)")
echo "$g GPUs: checkpoint write C = $(fmt %.1f "$c") s," \
     "mean time between interruptions M = $(fmt %.2f "$m") h," \
     "Young's optimum sqrt(2 C M) = $(fmt %.0f "$young") s"
printf '%-8s %10s %11s %9s %10s %9s %7s %7s\n' interval "interval_s" checkpoints "ckpt %" "rollback %" "restart %" ETTR days
for f in 0.125 0.25 0.5 0.71 1 1.41 2 4 8; do
    iv=$(calc "$young * $f")
    retain=$(awk -v iv="$iv" 'BEGIN { r = int(86400 / iv) + 1; print r < 8 ? 8 : r }')
    # shellcheck disable=SC2046
    if ! run "$flagship" $(size_sets "$g") --set checkpoint.interval_s="$iv" --set checkpoint.retain="$retain"; then
        printf '%-8s %10.0f  %s\n' "${f}x" "$iv" "$run_error"
        continue
    fi
    cap=$(val gpu_hours.capacity)
    days="did not finish"
    finished && days=$(fmt %.1f "$(val job.completion_days)")
    printf '%-8s %10.0f %11d %8.1f%% %9.1f%% %8.1f%% %7.3f %7s\n' "${f}x" "$iv" "$(val job.checkpoints)" \
        "$(calc "100 * $(val gpu_hours.checkpoint) / $cap")" "$(calc "100 * $(val gpu_hours.rollback) / $cap")" \
        "$(calc "100 * $(val gpu_hours.restart) / $cap")" "$(val step.ettr_time)" "$days"
done
