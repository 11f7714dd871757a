#!/bin/sh
# What placement buys: the same jobs with their ranks packed along their nodes or scattered, on oversubscribed fabrics.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Two cases:
#  - one job: the flagship's job on 16,384 GPUs (fabric.cfg) on Llama 3's
#    fabric, 1:7 between pods: it fills the cluster, so the scheduler has
#    no choice of nodes; what matters is its ranks' order, packed (along its
#    nodes, as NCCL orders rings by location) or scattered (random order;
#    network.placement): its step, exposed communication and days;
#  - a shared cluster: 125 jobs on 2,048 GPUs for a week
#    (../mixed/fabric.cfg) with 1:4 at the leaves, under each named policy
#    of scheduler.placement (models/workload/placer.h): the GPU-hours they
#    lose to communication (and how much more than pack), their mean
#    turnaround, their useful GPU-hours, and the racks and pods a job spans
#    on average (its first allocation: /jobs racks and pods).
# The one job's last column is what packing buys: (scattered - packed) / packed.
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

work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_placement.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
many=gpu_hours.communication,jobs.turnaround_mean_h,gpu_hours.useful
echo
echo "125 jobs on 2,048 GPUs for a week, 1:4 at the leaves (../mixed/fabric.cfg), by scheduler.placement"
printf "%-15s %12s %7s %11s %12s %6s %5s\n" policy "comm (GPU-h)" "+pack" "turnaround" "useful GPU-h" racks pods
base=
for pol in pack topology_aware rack spread random; do
    f=$("$DCSIM" run "$here/../mixed/fabric.cfg" --quiet -o "$work/$pol.h5" --set network.leaf_oversubscription=4.0 \
        --set "scheduler.placement=\"$pol\"" --get "$many") || exit 2
    "$DCSIM" export "$work/$pol.h5" /jobs -o "$work/$pol.csv" > /dev/null || exit 2
    span=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $c["racks"] > 0 { r += $c["racks"]; p += $c["pods"]; n++ }
                    END { printf "%.2f %.2f", r / n, p / n }' "$work/$pol.csv")
    [ -n "$base" ] || base=$(echo "$f" | awk '{ print $1 }')
    echo "$f $span" | awk -v pol="$pol" -v b="$base" '{
        printf "%-15s %12.1f %+6.1f%% %10.2fh %12.1f %6.2f %5.2f\n", pol, $1, 100 * ($1 - b) / b, $2, $3, $4, $5 }'
done
