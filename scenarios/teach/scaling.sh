#!/bin/sh
# Lesson: ten times the GPUs is not ten times the useful work.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Lesson 1: the flagship's 405B-parameter job on 1k to 64k GPUs, each size
# on a site sized for it (lib.sh: size_sets).
# Usage: scaling.sh [GPUS...]      (default: 1024 2048 ... 65536)
. "$(dirname "$0")/lib.sh"

want="step.data step.microbatches step.time_s step.compute_s step.bubble_s step.comm_exposed_s step.data_stall_s
      step.scaling_efficiency step.mfu job.interruptions step.ettr_time job.ettr job.completed job.completion_days
      power.it_peak_mw"
sizes=${*:-1024 2048 4096 8192 16384 32768 65536}
printf '%6s %5s %6s %7s | %7s %7s %7s %7s | %5s %5s | %8s %6s %7s %7s %6s\n' \
    GPUs data ubatch step_s compute bubble comm stall eff MFU intr/day ETTR goodput days "IT MW"
for g in $sizes; do
    # shellcheck disable=SC2046
    if ! run "$flagship" $(size_sets "$g"); then
        printf '%6s  %s\n' "$g" "$run_error"
        continue
    fi
    step=$(val step.time_s)
    days=$(val job.completion_days)
    if finished; then
        per_day=$(calc "$(val job.interruptions) / $days")
        days=$(fmt %7.1f "$days")
    else
        per_day=$(calc "$(val job.interruptions) / 4000")
        days="did not finish"
    fi
    printf '%6d %5d %6.1f %7.2f | %6.1f%% %6.1f%% %6.1f%% %6.1f%% | %5.3f %5.3f | %8.1f %6.3f %7.3f %7s %6.1f\n' \
        "$g" "$(val step.data)" "$(val step.microbatches)" "$step" \
        "$(calc "100 * $(val step.compute_s) / $step")" "$(calc "100 * $(val step.bubble_s) / $step")" \
        "$(calc "100 * $(val step.comm_exposed_s) / $step")" "$(calc "100 * $(val step.data_stall_s) / $step")" \
        "$(val step.scaling_efficiency)" "$(val step.mfu)" "$per_day" "$(val step.ettr_time)" "$(val job.ettr)" \
        "$days" "$(val power.it_peak_mw)"
done
