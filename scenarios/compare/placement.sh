#!/bin/sh
# What placement buys: the same jobs with their ranks packed along their nodes or scattered, on oversubscribed fabrics.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Two cases, each packed (a job's ranks follow its nodes in order, as NCCL
# orders rings by location) and scattered (in random order;
# network.placement):
#  - one job: the flagship's job on 16,384 GPUs (fabric.cfg) on Llama 3's
#    fabric, 1:7 between pods: its step, exposed communication and days;
#  - a shared cluster: 125 jobs on 2,048 GPUs for a week
#    (../mixed/fabric.cfg) with 1:4 at the leaves: the GPU-hours they lose
#    to communication, their mean turnaround and their useful GPU-hours.
# The last column is what packing buys: (scattered - packed) / packed.
# Usage: placement.sh
. "$(dirname "$0")/../find_dcsim.sh"
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }

# figs CFG PLACEMENT KEYS [--set ...]: the figures, tab-separated.
figs() {
    cfg=$1 place=$2 keys=$3
    shift 3
    "$DCSIM" run "$cfg" --no-trace --set "network.placement=\"$place\"" "$@" --get "$keys" || exit 2
}

one=step.time_s,step.comm_exposed_s,job.completion_days
p=$(figs "$here/fabric.cfg" packed $one)
s=$(figs "$here/fabric.cfg" scattered $one)
echo "one job of 16,384 GPUs, 1:7 between pods (fabric.cfg)"
printf "%-28s %10s %10s %10s\n" figure packed scattered "+scattered"
printf '%s\n%s\n' "$p" "$s" | awk 'NR == 1 { for (i = 1; i <= NF; i++) a[i] = $i } NR == 2 {
    split("step time (s)|exposed communication (s)|days to train", lab, "|")
    for (i = 1; i <= NF; i++) printf "%-28s %10.3f %10.3f %+9.1f%%\n", lab[i], a[i], $i, 100 * ($i - a[i]) / a[i] }'

many=gpu_hours.communication,jobs.turnaround_mean_h,gpu_hours.useful
p=$(figs "$here/../mixed/fabric.cfg" packed $many --set network.leaf_oversubscription=4.0)
s=$(figs "$here/../mixed/fabric.cfg" scattered $many --set network.leaf_oversubscription=4.0)
echo
echo "125 jobs on 2,048 GPUs for a week, 1:4 at the leaves (../mixed/fabric.cfg)"
printf "%-28s %10s %10s %10s\n" figure packed scattered "+scattered"
printf '%s\n%s\n' "$p" "$s" | awk 'NR == 1 { for (i = 1; i <= NF; i++) a[i] = $i } NR == 2 {
    split("communication (GPU-h)|mean turnaround (h)|useful (GPU-h)", lab, "|")
    for (i = 1; i <= NF; i++) printf "%-28s %10.1f %10.1f %+9.1f%%\n", lab[i], a[i], $i, 100 * ($i - a[i]) / a[i] }'
