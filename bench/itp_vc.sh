#!/bin/sh
# Two Microsoft ITP clusters replayed as two virtual clusters of one cluster: fixed pools against lending idle nodes to each other.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# usage: bench/itp_vc.sh DCSIM [ITP_DIR]
#   DCSIM    the dcsim program
#   ITP_DIR  the traces (default: ../shared/data/itp beside the source tree,
#            else /work/shared/data/itp); skipped with a message when absent
# environment: ITP_PAIRS  the pairs of clusters, A+B separated by spaces
#                         (default "cluster02+cluster05 cluster06+cluster03")
#              ITP_DAYS   days of each trace replayed (default 30)
#
# Each cluster of a pair is prepared as bench/itp.sh does (bench/itp_replay.py
# prepare: its first ITP_DAYS days on the nodes of its largest daily mean
# demand) into a temporary directory, never the repository.  The two become
# pools vcA and vcB of one cluster of both sizes (each job group's CSV
# naming its pool), replayed with FIFO + EASY (exact estimates, no
# checkpoints: a reclaimed job loses all it computed), once with fixed
# pools and once with both pools lending and borrowing.  Prints per pair
# and variant each VC's mean wait, the mean and p90 wait, the GPU-hours
# lent (both pools) and reclaims, and the GPU-hours reclaims lost.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
bench_args 1 2 "DCSIM [ITP_DIR]" "$@"
dcsim=$1
bench_itp "$here" "${2:-}"
pairs=${ITP_PAIRS:-"cluster02+cluster05 cluster06+cluster03"}
days=${ITP_DAYS:-30}
bench_tmpdir itpvc
work=$tmp

both="--set scheduler.pools.[0].lend=true --set scheduler.pools.[0].borrow=true
      --set scheduler.pools.[1].lend=true --set scheduler.pools.[1].borrow=true"
keys=pool.vcA.wait_mean_h,pool.vcB.wait_mean_h,jobs.wait_mean_h,jobs.wait_p90_h,gpu_hours.preempted
printf '%-22s %-8s %6s %6s %8s %8s %8s %8s %10s %6s %9s\n' pair variant nodesA nodesB waitA_h waitB_h \
    mean_h p90_h "lent GPUh" recl "lost GPUh"
for pair in $pairs; do
    a=${pair%+*} b=${pair#*+}
    set -- "$a" vcA "$b" vcB
    sizes=""
    while [ $# -gt 0 ]; do
        "$py" "$here/itp_replay.py" prepare "$itp/$1.csv" "$work" "$days" daily > "$work/size" || exit 1
        sizes="$sizes $(awk '{ print $2 }' "$work/size")"
        awk -F, -v p="$2" 'BEGIN { OFS = "," } NR == 1 { print; next } { $5 = p; print }' "$work/$1.csv" > "$work/$2.csv"
        shift 2
    done
    set -- $sizes
    na=$1 nb=$2
    cat > "$work/vc.cfg" <<CFG
# $a and $b of the Microsoft ITP traces as two virtual clusters
horizon_days = 3650.0; stop_when_done = true; seed = 1;
cluster = { nodes = $((na + nb)); gpus_per_node = 8; nodes_per_rack = 4; };
scheduler = { backfill = true; preemption = false;
  pools = ( { name = "vcA"; nodes = $na; }, { name = "vcB"; nodes = $nb; } ); };
jobs = ( { name = "$a"; trace = "vcA.csv"; restart_s = 0.0; kind = "evaluation"; },
         { name = "$b"; trace = "vcB.csv"; restart_s = 0.0; kind = "evaluation"; } );
CFG
    f=$("$dcsim" run "$work/vc.cfg" --no-trace --get "$keys") || exit 1
    printf '%s\n' "$f" | awk -v p="$pair" -v na="$na" -v nb="$nb" '{ printf "%-22s %-8s %6d %6d %8.3f %8.3f %8.3f %8.3f %10.1f %6d %9.1f\n",
        p, "fixed", na, nb, $1, $2, $3, $4, 0, 0, $5 }'
    # shellcheck disable=SC2086
    f=$("$dcsim" run "$work/vc.cfg" --no-trace $both \
        --get "$keys,pool.vcA.lent_gpu_h,pool.vcB.lent_gpu_h,pool.vcA.lend_reclaims,pool.vcB.lend_reclaims") || exit 1
    printf '%s\n' "$f" | awk -v p="$pair" -v na="$na" -v nb="$nb" '{ printf "%-22s %-8s %6d %6d %8.3f %8.3f %8.3f %8.3f %10.1f %6d %9.1f\n",
        p, "lending", na, nb, $1, $2, $3, $4, $6 + $7, $8 + $9, $5 }'
done
