#!/bin/sh
# Lesson: what an oversubscribed fabric does to a large job.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Lesson 2: an oversubscribed fabric against a non-blocking one, for the
# flagship's job on 16,384 GPUs (Llama 3's scale), on a site sized for it.
# Usage: oversubscription.sh [GPUS]
. "$(dirname "$0")/lib.sh"

want="step.dp_gb_per_s step.dp_comm_s step.comm_exposed_s step.time_s step.mfu job.completed job.completion_days"
g=${1:-16384}
# label | --set options
cases="non-blocking|--set network.pod_oversubscription=1.0
1:7 between pods (Llama 3)|--set network.pod_oversubscription=7.0
1:7, job scattered|--set network.pod_oversubscription=7.0 --set network.placement=scattered
1:7, pods of 128 GPUs|--set network.pod_oversubscription=7.0 --set network.leaves_per_pod=8 --set network.switch_radix=256
1:7, pods of 128, no overlap|--set network.pod_oversubscription=7.0 --set network.leaves_per_pod=8 --set network.switch_radix=256 --set parallelism.dp_overlap=0.0"
echo "$g GPUs: data-parallel groups of $(( g / 128 )) GPUs at a stride of 128 (tensor 8 x pipeline 16)"
printf '%-30s %8s %8s %8s %7s %6s %7s\n' fabric "DP GB/s" "DP s" exposed step_s MFU days
echo "$cases" | while IFS='|' read -r label sets; do
    # shellcheck disable=SC2046,SC2086
    if ! run "$flagship" $(size_sets "$g") $sets; then
        printf '%-30s %s\n' "$label" "$run_error"
        continue
    fi
    days="did not finish"
    finished && days=$(fmt %.1f "$(val job.completion_days)")
    printf '%-30s %8.1f %8.3f %8.3f %7.3f %6.3f %7s\n' "$label" "$(val step.dp_gb_per_s)" "$(val step.dp_comm_s)" \
        "$(val step.comm_exposed_s)" "$(val step.time_s)" "$(val step.mfu)" "$days"
done
