#!/bin/sh
# Fabrics for the flagship's job on 16,384 GPUs compared on cost and time together, one table.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# The same job and cluster (fabric.cfg: 2,048 nodes, Llama 3 405B on 20T
# tokens, the flagship's prices) on five fabrics: a non-blocking fat-tree,
# Llama 3's fat-tree with 1:7 between pods (the job packed, and scattered
# over the pods), a rail-optimised fabric with 1:7 between pods (rail groups
# of 32 nodes, 12 groups a pod: the same 3,072-GPU pods), and a 3D torus of
# 16 x 16 x 9 nodes.  Each row: the switches and transceivers counted from
# the topology (models/cost/fabric_bom.h), the network's capital, the days
# to train, the TCO of those days (cost.tco_usd: the capital charges, energy,
# storage and operations over the run) and the cost per useful GPU-hour.
# A faster fabric is also a cheaper run: every day of the run costs the
# whole cluster's capital charges and operations.
# Usage: cost_time.sh   (DCSIM=/path/to/dcsim picks the program)
. "$(dirname "$0")/../teach/lib.sh"

cfg="$here/fabric.cfg"
want="job.completed job.completion_days step.dp_gb_per_s cost.fabric.switches cost.fabric.transceivers cost.capex_network_usd cost.tco_usd cost.tco.network_usd cost.usd_per_useful_gpu_h"

fmt_h='%-26s %8s %8s %9s %7s %7s %8s %8s %8s %9s\n'
printf "$fmt_h" "" "" "" network "DP ring" "" TCO network TCO "USD per"
printf "$fmt_h" "fabric (16,384 GPUs)" switches optics capital GB/s days "M USD" share "vs 1:7" "useful"
printf "$fmt_h" "" "" "" "M USD" "" "" "" "of TCO" "" "GPU-h"
row() {
    label=$1
    shift
    if ! run "$cfg" "$@"; then
        printf '%-26s %s\n' "$label" "$run_error"
        return
    fi
    days=$(val job.completion_days)
    finished || days="did not finish"
    tco=$(val cost.tco_usd)
    [ -n "${ref_tco:-}" ] || ref_tco=$tco
    printf '%-26s %8d %8d %9.1f %7.1f %7.1f %8.1f %7.1f%% %+7.1f%% %9.3f\n' "$label" \
        "$(val cost.fabric.switches)" "$(val cost.fabric.transceivers)" "$(calc "$(val cost.capex_network_usd) / 1e6")" \
        "$(val step.dp_gb_per_s)" "$days" "$(calc "$tco / 1e6")" "$(calc "100 * $(val cost.tco.network_usd) / $tco")" \
        "$(calc "100 * ($tco / $ref_tco - 1)")" "$(val cost.usd_per_useful_gpu_h)"
}
row "fat-tree 1:7 (Llama 3)"
row "fat-tree 1:1" --set network.pod_oversubscription=1.0
row "fat-tree 1:7, scattered" --set 'network.placement="scattered"'
row "rail-optimised 1:7" --set 'network.topology="rail_optimized"' --set network.nodes_per_leaf=32 \
    --set network.leaves_per_pod=12
row "3D torus 16 x 16 x 9" --set 'network.topology="torus3d"' --set network.torus_x=16 --set network.torus_y=16 \
    --set network.torus_z=9
