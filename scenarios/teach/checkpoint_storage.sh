#!/bin/sh
# dcsim - discrete-event simulator of AI datacenters.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later
#
# Lesson 4: slow against fast checkpoint storage, for the flagship's job on
# 16,384 GPUs.  Today's checkpoints block the job for size / bandwidth; the
# storage model says what each tier would give a write of the job's
# checkpoint from all its nodes (storage.TIER.checkpoint_write_s), and each
# row runs the job with that bandwidth and Young's interval for it.
# Usage: checkpoint_storage.sh [GPUS]
. "$(dirname "$0")/lib.sh"

g=${1:-16384}
# shellcheck disable=SC2046
run "$flagship" $(size_sets "$g") || { echo "$run_error" >&2; exit 2; }
size_gb=$(val storage.checkpoint_gb)
echo "$g GPUs: a checkpoint of $(fmt %.0f "$size_gb") GB (405e9 parameters x 14 bytes)"
rows="file system, a tenth (flagship)|200
object store|$(calc "$size_gb / $(val storage.object.checkpoint_write_s)")
file system, 2 TB/s (Llama 3)|$(calc "$size_gb / $(val storage.pfs.checkpoint_write_s)")
local NVMe (not durable alone)|$(calc "$size_gb / $(val storage.nvme.checkpoint_write_s)")"
printf '%-32s %8s %8s %8s %11s %7s %10s %7s %7s\n' storage "GB/s" write_s young_s checkpoints "ckpt %" "rollback %" ETTR days
echo "$rows" | while IFS='|' read -r label bw; do
    # shellcheck disable=SC2046
    run "$flagship" $(size_sets "$g") --set checkpoint.write_gb_per_s="$bw" || { echo "$run_error" >&2; exit 2; }
    cap=$(val gpu_hours.capacity)
    printf '%-32s %8.0f %8.2f %8.0f %11d %6.1f%% %9.1f%% %7.3f %7.1f\n' "$label" "$bw" "$(val job.checkpoint_write_s)" \
        "$(val job.checkpoint_interval_s)" "$(val job.checkpoints)" "$(calc "100 * $(val gpu_hours.checkpoint) / $cap")" \
        "$(calc "100 * $(val gpu_hours.rollback) / $cap")" "$(val step.ettr_time)" "$(val job.completion_days)"
done
