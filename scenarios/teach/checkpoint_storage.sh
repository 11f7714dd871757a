#!/bin/sh
# Lesson: where checkpoints go (storage tiers) and what it costs.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Lesson 4: slow against fast checkpoint storage, for the flagship's job on
# 16,384 GPUs (on a site sized for it).  Today's checkpoints block the job
# for size / bandwidth; the storage model says what each tier would give a
# write of the job's checkpoint from all its nodes
# (storage.TIER.checkpoint_write_s), and each row runs the job with that
# bandwidth and Young's interval for it.  Every row keeps 64 checkpoints
# (the flagship keeps 8, enough for its ~17 min interval): with the short
# intervals of fast storage, 8 would not reach back past a silent
# corruption found within the hour, and the job would roll back to the
# start.
# Usage: checkpoint_storage.sh [GPUS]
. "$(dirname "$0")/lib.sh"

g=${1:-16384}
want="storage.checkpoint_gb storage.object.checkpoint_write_s storage.pfs.checkpoint_write_s
      storage.nvme.checkpoint_write_s"
# shellcheck disable=SC2046
run "$flagship" $(size_sets "$g") || { echo "$run_error" >&2; exit 2; }
size_gb=$(val storage.checkpoint_gb)
echo "$g GPUs: a checkpoint of $(fmt %.0f "$size_gb") GB (405e9 parameters x 14 bytes)"
rows="file system, a tenth (flagship)|200
object store|$(calc "$size_gb / $(val storage.object.checkpoint_write_s)")
file system, 2 TB/s (Llama 3)|$(calc "$size_gb / $(val storage.pfs.checkpoint_write_s)")
local NVMe (not durable alone)|$(calc "$size_gb / $(val storage.nvme.checkpoint_write_s)")"

want="job.checkpoint_write_s job.checkpoint_interval_s job.checkpoints gpu_hours.capacity gpu_hours.checkpoint
      gpu_hours.rollback step.ettr_time job.completed job.completion_days"
# row LABEL FIRST_COLUMN: the columns every row shares, after the label and its first figure
row() {
    cap=$(val gpu_hours.capacity)
    days="did not finish"
    finished && days=$(fmt %.1f "$(val job.completion_days)")
    printf '%-32s %8s %8.2f %8.0f %11d %6.1f%% %9.1f%% %7.3f %7s\n' "$1" "$2" "$3" \
        "$(val job.checkpoint_interval_s)" "$(val job.checkpoints)" "$(calc "100 * $(val gpu_hours.checkpoint) / $cap")" \
        "$(calc "100 * $(val gpu_hours.rollback) / $cap")" "$(val step.ettr_time)" "$days"
}
printf '%-32s %8s %8s %8s %11s %7s %10s %7s %7s\n' storage "GB/s" write_s young_s checkpoints "ckpt %" "rollback %" ETTR days
echo "$rows" | while IFS='|' read -r label bw; do
    # shellcheck disable=SC2046
    if ! run "$flagship" $(size_sets "$g") --set checkpoint.write_gb_per_s="$bw" --set checkpoint.retain=64; then
        printf '%-32s %s\n' "$label" "$run_error"
        continue
    fi
    row "$label" "$(fmt %.0f "$bw")" "$(val job.checkpoint_write_s)"
done

# The same job with its checkpoints written to the tiers themselves, as
# transfers sharing bandwidth with the dataset stream: blocking to the file
# system; asynchronous at the blocking row's final interval, fixed (a
# snapshot to host memory at 25 GB/s per GPU, an assumption for PCIe Gen5,
# then a drain in the background: the job pays the snapshot only); and two
# levels (every checkpoint to local NVMe, every tenth to the file system; a
# node failure loses the local copy, so restarts read the file system's).
echo
printf '%-32s %8s %8s %8s %11s %7s %10s %7s %7s\n' "on the tiers" stall_s write_s young_s checkpoints "ckpt %" "rollback %" ETTR days
want="$want job.checkpoint_write_mean_s job.checkpoint_drain_mean_s"
tiers=$(cd "${TMPDIR:-/tmp}" && mktemp -d dcsim_levels.XXXXXX) || exit 2
levels="${TMPDIR:-/tmp}/$tiers/levels.cfg"
# Levels are a list: a scenario that is the flagship's with them in place of its bandwidth.
sed 's/^  write_gb_per_s = 200.0;.*$/  levels = ( { tier = "nvme"; every = 1; }, { tier = "pfs"; every = 10; } );/' \
    "$flagship" > "$levels"
snap=$(( g * 25 ))
interval=
for case in blocking async levels; do
    case $case in
    blocking) label="file system, blocking"
              set -- "$flagship" --set 'checkpoint.tier="pfs"' ;;
    async)    label="file system, async, that interval"
              set -- "$flagship" --set 'checkpoint.tier="pfs"' --set 'checkpoint.mode="async"' \
                  --set checkpoint.snapshot_gb_per_s="$snap.0" --set checkpoint.interval_s="$interval" ;;
    levels)   label="NVMe + file system every 10"
              set -- "$levels" ;;
    esac
    # shellcheck disable=SC2046
    if ! run "$@" $(size_sets "$g") --set checkpoint.retain=64; then
        printf '%-32s %s\n' "$label" "$run_error"
        continue
    fi
    [ -z "$interval" ] && interval=$(val job.checkpoint_interval_s)
    w=$(val job.checkpoint_write_mean_s)
    [ "$w" = - ] && w=$(val job.checkpoint_drain_mean_s)
    row "$label" "$(fmt %.2f "$(val job.checkpoint_write_s)")" "$w"
done
rm -rf "${TMPDIR:-/tmp}/$tiers"
