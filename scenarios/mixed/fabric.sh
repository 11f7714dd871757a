#!/bin/sh
# The same job mix on a 1:1 fat-tree, a 1:4 fat-tree and a 1:4 rail-optimised fabric, placed pack and spread.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs fabric.cfg (a week of 2,048 GPUs shared by 125 training jobs, every
# one with a step-time model) on six fabrics and prints, for each, the
# GPU-hours the jobs lost to exposed communication (in all and as a share
# of what they held), their useful GPU-hours, how many completed and their
# mean turnaround.  1:4 is the leaves' uplinks (32 GPUs of NICs over a
# quarter of their bandwidth towards the spine).  pack: the scheduler gives
# each job the smallest rack, leaf or pod that holds it; spread: its nodes
# round-robin over the pods and their racks (scheduler.placement,
# models/workload/placer.h); each job's ranks follow its nodes in order.
# With --plot DIR it also draws the comparison (dcsim compare --plot).
# Usage: fabric.sh [--plot DIR]
. "$(dirname "$0")/../find_dcsim.sh"
plot_dir=
case "${1:-}" in
--plot) [ $# -ge 2 ] || { echo "$0: --plot needs a directory" >&2; exit 2; }
        plot_dir=$2; mkdir -p "$plot_dir" || exit 2 ;;
"") ;;
*) echo "usage: $0 [--plot DIR]" >&2; exit 2 ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_mixed.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

want=gpu_hours.communication,gpu_hours.useful,gpu_hours.capacity,gpu_hours.idle_spare,jobs.completed,jobs.turnaround_mean_h
# name | fabric | --set options
cases="ft11_pack|fat-tree 1:1|--set network.leaf_oversubscription=1.0 --set scheduler.placement=\"pack\"
ft11_spread|fat-tree 1:1|--set network.leaf_oversubscription=1.0 --set scheduler.placement=\"spread\"
ft14_pack|fat-tree 1:4|--set network.leaf_oversubscription=4.0 --set scheduler.placement=\"pack\"
ft14_spread|fat-tree 1:4|--set network.leaf_oversubscription=4.0 --set scheduler.placement=\"spread\"
rail14_pack|rail 1:4|--set network.topology=\"rail_optimized\" --set network.leaf_oversubscription=4.0 --set scheduler.placement=\"pack\"
rail14_spread|rail 1:4|--set network.topology=\"rail_optimized\" --set network.leaf_oversubscription=4.0 --set scheduler.placement=\"spread\""
printf '%-14s %-10s %10s %6s %10s %5s %10s\n' fabric placement "comm GPU-h" "comm%" "useful" done "turnaround"
traces=
echo "$cases" | {
    while IFS='|' read -r name fabric sets; do
        # shellcheck disable=SC2086 # sets are words
        if ! figs=$(eval "\"\$DCSIM\" run \"\$here/fabric.cfg\" $sets --quiet -o \"\$work/$name.h5\" --get $want"); then
            echo "$0: the variant $name failed" >&2
            exit 2
        fi
        echo "$figs" | awk -v f="$fabric" -v p="${name##*_}" '{ busy = $3 - $4
            printf "%-14s %-10s %10.0f %5.1f%% %10.0f %5d %9.2fh\n", f, p, $1, 100 * $1 / busy, $2, $5, $6 }'
        traces="$traces $work/$name.h5"
    done
    if [ -n "$plot_dir" ]; then
        # shellcheck disable=SC2086
        "$DCSIM" compare $traces --plot -o "$plot_dir/mixed_fabric_compare.png" >/dev/null || exit 2
        echo "wrote $plot_dir/mixed_fabric_compare.png"
    fi
}
