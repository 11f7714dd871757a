#!/bin/sh
# Sizing the CPU partition beside a GPU training: its jobs' wait, its use, energy and direct cost, and the chip table.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# cpu_partition.cfg: 124 of 128 H100 nodes train a 70B model for 30 days
# beside a partition of CPU-only nodes (cluster.types with gpus_per_node = 0) that
# runs a stream of pre-processing jobs (about two an hour, 1 to 16 nodes,
# around 3 h each).  Rows: 48, 64 (as shipped) and 96 CPU nodes (the same
# stream and training; --set cluster.types.[1].nodes with cluster.nodes).
# Each row: the stream's jobs completed (the training runs past the
# window), their mean and 90th percentile wait, the partition's utilisation, its idle node-hours, its IT energy,
# its direct cost (the servers' capital charges, their energy; cost.cpu.*)
# per useful node-hour, and the training's useful GPU-hours.  Then the
# chip table of the shipped mix (chip.NAME.*).
# Usage: cpu_partition.sh   (DCSIM=/path/to/dcsim picks the program)
. "$(dirname "$0")/../teach/lib.sh"

cfg="$here/cpu_partition.cfg"
want="jobs.completed pool.cpu.wait_mean_h pool.cpu.wait_p90_h pool.cpu.utilisation cpu_node_hours.idle_spare power.type.cpu.it_energy_kwh cost.cpu.direct_usd cost.cpu.usd_per_useful_node_h gpu_hours.useful"
fmt_h='%-9s %6s %8s %8s %6s %9s %8s %8s %9s %10s\n'
printf "$fmt_h" "CPU" "jobs" "wait" "wait" "used" "idle" "energy" "direct" "USD per" "training"
printf "$fmt_h" "nodes" "done" "mean h" "p90 h" "" "node-h" "MWh" "k USD" "node-h" "GPU-h"
for n in 48 64 96; do
    if ! run "$cfg" --set cluster.nodes=$((128 + n)) --set "cluster.types.[1].nodes=$n"; then
        printf '%-9s %s\n' "$n" "$run_error"
        continue
    fi
    printf '%-9s %6d %8.2f %8.2f %5.1f%% %9.0f %8.1f %8.1f %9.3f %10.0f\n' "$n" "$(val jobs.completed)" \
        "$(val pool.cpu.wait_mean_h)" "$(val pool.cpu.wait_p90_h)" "$(calc "$(val pool.cpu.utilisation) * 100")" \
        "$(val cpu_node_hours.idle_spare)" "$(calc "$(val power.type.cpu.it_energy_kwh) / 1000")" \
        "$(calc "$(val cost.cpu.direct_usd) / 1000")" "$(val cost.cpu.usd_per_useful_node_h)" "$(val gpu_hours.useful)"
done

echo
echo "chip table of the shipped mix (chip.NAME.*: from the scenario's types)"
want="chip.h100.gpus chip.h100.pflops chip.h100.usd_per_gpu chip.h100.capex_usd power.type.h100.it_energy_kwh chip.cpu.nodes chip.cpu.cores chip.cpu.usd_per_core chip.cpu.capex_usd power.type.cpu.it_energy_kwh"
run "$cfg" || { echo "$run_error"; exit 2; }
printf '%-6s %6s %8s %7s %8s %9s\n' type GPUs peak cores capital "IT energy"
printf '%-6s %6s %8s %7s %8s %9s\n' "" "" PFLOP/s "" "M USD" MWh
printf '%-6s %6d %8.0f %7s %8.2f %9.0f\n' h100 "$(val chip.h100.gpus)" "$(val chip.h100.pflops)" - \
    "$(calc "$(val chip.h100.capex_usd) / 1e6")" "$(calc "$(val power.type.h100.it_energy_kwh) / 1000")"
printf '%-6s %6d %8s %7d %8.2f %9.0f\n' cpu 0 - "$(val chip.cpu.cores)" \
    "$(calc "$(val chip.cpu.capex_usd) / 1e6")" "$(calc "$(val power.type.cpu.it_energy_kwh) / 1000")"
