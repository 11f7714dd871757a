#!/bin/sh
# Lesson: HBM against DDR for training a 70B model.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Lesson 5: the "HBM route" against the "DDR route" (seed article 002), for
# a 70B-parameter model on 1,024 GPUs (hbm_ddr.cfg: no power model, so no
# site cap to lift).
. "$(dirname "$0")/lib.sh"

want="step.memory_gb_per_gpu step.time_s step.recompute_s step.offload_s step.comm_exposed_s step.mfu job.gpus
      job.completed job.completion_days storage.hbm.cost_usd storage.ddr.cost_usd"
cfg="$here/hbm_ddr.cfg"
small="--set storage.tiers.[0].capacity_tb=0.192"   # 8 x 24 GB of HBM per node
cases="HBM route: 80 GB HBM per GPU|
DDR route: 24 GB HBM, as above|$small
DDR route: 24 GB, full recompute|$small --set parallelism.recompute=\"full\"
DDR route: 24 GB, + optimizer in DDR|$small --set parallelism.recompute=\"full\" --set parallelism.zero_stage=0"
printf '%-38s %7s %7s %6s %6s %6s %6s %6s %7s %9s %9s\n' route "mem GB" step_s recomp offload comm MFU days \
    GPU-days "HBM \$" "DDR \$"
echo "$cases" | while IFS='|' read -r label sets; do
    # shellcheck disable=SC2086
    if ! run "$cfg" $sets; then
        printf '%-38s %s\n' "$label" "does not fit: ${run_error##*parallelism: }"
        continue
    fi
    if finished; then
        days=$(fmt %.1f "$(val job.completion_days)")
        gpu_days=$(fmt %.0f "$(calc "$(val job.gpus) * $(val job.completion_days)")")
    else
        days="did not finish"
        gpu_days=-
    fi
    printf '%-38s %7.1f %7.2f %6.2f %6.2f %6.2f %6.3f %6s %7s %9.0f %9.0f\n' "$label" "$(val step.memory_gb_per_gpu)" \
        "$(val step.time_s)" "$(val step.recompute_s)" "$(val step.offload_s)" "$(val step.comm_exposed_s)" \
        "$(val step.mfu)" "$days" "$gpu_days" "$(val storage.hbm.cost_usd)" "$(val storage.ddr.cost_usd)"
done
