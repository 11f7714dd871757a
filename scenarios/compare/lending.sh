#!/bin/sh
# What lending buys: two virtual clusters with fixed pools, lending idle nodes both ways (reclaimed at once or with notice), or one way.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# lending.cfg (two teams' pools of 32 nodes, ~70% load each) run four ways:
#  - fixed pools, as written;
#  - lending: each pool lends its idle nodes to the other's queue and
#    reclaims them at once when its own jobs need them (lend_notice_s = 0:
#    a reclaimed job loses the work since its last hourly checkpoint);
#  - lending with 300 s of notice: a reclaimed job writes a checkpoint on
#    its way out (30 s) and loses nothing, the owner waiting for the write;
#  - one way: vision lends, language borrows.
# Columns: the mean wait of each pool's jobs and of all, the p90 wait, the
# cluster's utilisation, the GPU-hours lent (over both pools; equal to
# those borrowed), the reclaims and the GPU-hours their evictions lost.
# Usage: lending.sh
. "$(dirname "$0")/../find_dcsim.sh"
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }

base=pool.vision.wait_mean_h,pool.language.wait_mean_h,jobs.wait_mean_h,jobs.wait_p90_h,cluster.utilisation
lend=pool.vision.lent_gpu_h,pool.language.lent_gpu_h,pool.vision.lend_reclaims,pool.language.lend_reclaims
lend="$lend,gpu_hours.preempted,jobs.completed"
both="--set scheduler.pools.[0].lend=true --set scheduler.pools.[0].borrow=true
      --set scheduler.pools.[1].lend=true --set scheduler.pools.[1].borrow=true"

# row LABEL LENDING [--set ...]: one line of the table (LENDING 0: no lending keys to read).
row() {
    label=$1 lending=$2
    shift 2
    if [ "$lending" = 1 ]; then
        v=$("$DCSIM" run "$here/lending.cfg" --no-trace "$@" --get "$base,$lend") || exit 2
    else
        v=$("$DCSIM" run "$here/lending.cfg" --no-trace "$@" --get "$base,gpu_hours.preempted,jobs.completed") || exit 2
        v=$(printf '%s' "$v" | awk '{ print $1, $2, $3, $4, $5, 0, 0, 0, 0, $6, $7 }')
    fi
    printf '%s\n' "$v" | awk -v l="$label" '{ printf "%-26s %7.3f %7.3f %7.3f %7.3f %6.3f %9.1f %5.0f %8.1f %5.0f\n",
        l, $1, $2, $3, $4, $5, $6 + $7, $8 + $9, $10, $11 }'
}

echo "two virtual clusters of 256 GPUs, ~70% load each (lending.cfg, seed 1); waits in h"
printf "%-26s %7s %7s %7s %7s %6s %9s %5s %8s %5s\n" variant vision lang mean p90 util "lent GPUh" recl "lost GPUh" jobs
row "fixed pools" 0
# shellcheck disable=SC2086
row "lending" 1 $both
# shellcheck disable=SC2086
row "lending, 300 s notice" 1 $both --set scheduler.pools.[0].lend_notice_s=300 --set scheduler.pools.[1].lend_notice_s=300
row "vision lends to language" 1 --set scheduler.pools.[0].lend=true --set scheduler.pools.[1].borrow=true
