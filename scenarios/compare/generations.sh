#!/bin/sh
# Two GPU generations in one cluster against one generation alone: peak, capital, time, energy and cost, and the chip table.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# generations.cfg: 1,536 nodes in two types (cluster.types), 1,024
# H100-class and 512 B200-class, each with its own peak, power, price and
# failure rate; six trainings of 256 nodes, four on the first type's pool,
# two on the second's.  Rows: both types H100s, the mix as shipped, both
# B200s (the same jobs and pools; only the hardware of a type changes).
# Each row: the cluster's peak, the devices and all the capital bought, the
# days until the last training is done, the facility energy,
# the TCO of the run and the cost per useful GPU-hour.  Then the chip table
# of the mix (models/cost/cost.h: chip.NAME.*): each type's GPUs, peak,
# price of a GPU with its share of its node, price per PFLOP/s and PFLOP/s
# per kW at peak.
# Usage: generations.sh   (DCSIM=/path/to/dcsim picks the program)
. "$(dirname "$0")/../teach/lib.sh"

cfg="$here/generations.cfg"
want="jobs.completed cost.window_days chip.h100.pflops chip.b200.pflops cost.capex_devices_usd cost.capex_usd cost.energy_kwh cost.tco_usd"
h100_as_b200="--set cluster.types.[0].gpu_peak_tflops=2250.0 --set cluster.types.[0].gpu_peak_w=1000.0
 --set cluster.types.[0].gpu_idle_w=100.0 --set cluster.types.[0].host_w=3500.0 --set cluster.types.[0].host_idle_w=1200.0
 --set cluster.types.[0].gpu_usd=40000.0 --set cluster.types.[0].server_usd=100000.0 --set cluster.types.[0].failure_scale=1.3"
b200_as_h100="--set cluster.types.[1].gpu_peak_tflops=989.0 --set cluster.types.[1].gpu_peak_w=700.0
 --set cluster.types.[1].gpu_idle_w=70.0 --set cluster.types.[1].host_w=2800.0 --set cluster.types.[1].host_idle_w=1000.0
 --set cluster.types.[1].gpu_usd=27000.0 --set cluster.types.[1].server_usd=60000.0 --set cluster.types.[1].failure_scale=1.0"

fmt_h='%-34s %8s %8s %8s %7s %8s %7s %9s\n'
printf "$fmt_h" "" peak devices capital "" energy TCO "TCO per"
printf "$fmt_h" "1,536 nodes (12,288 GPUs)" PFLOP/s "M USD" "M USD" days GWh "M USD" training
printf "$fmt_h" "" "" "" "" "" "" "" "M USD"
row() {
    label=$1
    shift
    # shellcheck disable=SC2086
    if ! run "$cfg" "$@"; then
        printf '%-34s %s\n' "$label" "$run_error"
        return
    fi
    days=$(val cost.window_days)
    [ "$(val jobs.completed)" = 6 ] || days="did not finish"
    printf '%-34s %8.0f %8.1f %8.1f %7.1f %8.2f %7.1f %9.2f\n' "$label" \
        "$(calc "$(val chip.h100.pflops) + $(val chip.b200.pflops)")" "$(calc "$(val cost.capex_devices_usd) / 1e6")" \
        "$(calc "$(val cost.capex_usd) / 1e6")" "$days" "$(calc "$(val cost.energy_kwh) / 1e6")" \
        "$(calc "$(val cost.tco_usd) / 1e6")" "$(calc "$(val cost.tco_usd) / 6e6")"
}
# shellcheck disable=SC2086
row "1,536 H100 nodes" $b200_as_h100
row "1,024 H100 + 512 B200 nodes"
# shellcheck disable=SC2086
row "1,536 B200 nodes" $h100_as_b200

echo
echo "chip table of the mix (chip.NAME.*: from the scenario's types)"
want="chip.h100.gpus chip.h100.pflops chip.h100.usd_per_gpu chip.h100.usd_per_pflops chip.h100.pflops_per_w power.type.h100.it_energy_kwh failures.type.h100 chip.b200.gpus chip.b200.pflops chip.b200.usd_per_gpu chip.b200.usd_per_pflops chip.b200.pflops_per_w power.type.b200.it_energy_kwh failures.type.b200"
run "$cfg" || { echo "$run_error"; exit 2; }
fmt_c='%-6s %7s %8s %8s %10s %9s %9s %9s\n'
printf "$fmt_c" type GPUs peak "USD per" "USD per" "PFLOP/s" "IT energy" failures
printf "$fmt_c" "" "" PFLOP/s GPU "PFLOP/s" "per kW" GWh ""
for t in h100 b200; do
    printf '%-6s %7d %8.0f %8.0f %10.0f %9.3f %9.2f %9d\n' "$t" "$(val chip.$t.gpus)" "$(val chip.$t.pflops)" \
        "$(val chip.$t.usd_per_gpu)" "$(val chip.$t.usd_per_pflops)" "$(calc "$(val chip.$t.pflops_per_w) * 1000")" \
        "$(calc "$(val power.type.$t.it_energy_kwh) / 1e6")" "$(val failures.type.$t)"
done
