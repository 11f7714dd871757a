#!/bin/sh
# Lesson: the checkpoint interval's trade-off, against Young's optimum.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Lesson 3: the checkpoint interval trade-off, for the flagship's job on
# 16,384 GPUs: intervals from a quarter to four times Young's optimum.
# Usage: checkpoint_interval.sh [GPUS]
. "$(dirname "$0")/lib.sh"

g=${1:-16384}
# shellcheck disable=SC2046
run "$flagship" $(size_sets "$g") || { echo "$run_error" >&2; exit 2; }
young=$(val job.checkpoint_interval_s)
echo "$g GPUs: checkpoint write C = $(fmt %.1f "$(val job.checkpoint_write_s)") s," \
     "mean time between interruptions M = $(fmt %.2f "$(val job.expected_mtbi_h)") h," \
     "Young's optimum sqrt(2 C M) = $(fmt %.0f "$young") s"
printf '%-8s %10s %11s %9s %10s %9s %7s %7s\n' interval "interval_s" checkpoints "ckpt %" "rollback %" "restart %" ETTR days
for f in 0.125 0.25 0.5 1 2 4 8; do
    iv=$(calc "$young * $f")
    # shellcheck disable=SC2046
    run "$flagship" $(size_sets "$g") --set checkpoint.interval_s="$iv" || { echo "$run_error" >&2; exit 2; }
    cap=$(val gpu_hours.capacity)
    printf '%-8s %10.0f %11d %8.1f%% %9.1f%% %8.1f%% %7.3f %7.1f\n' "${f}x" "$iv" "$(val job.checkpoints)" \
        "$(calc "100 * $(val gpu_hours.checkpoint) / $cap")" "$(calc "100 * $(val gpu_hours.rollback) / $cap")" \
        "$(calc "100 * $(val gpu_hours.restart) / $cap")" "$(val step.ettr_time)" "$(val job.completion_days)"
done
