#!/bin/sh
# Capacity over time: buy the whole cluster now, or 40% now and 60% later (bought, rented, rented then bought), one table.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# capacity.cfg: five 2,048-GPU trainings (Llama-3-70B class, 15T tokens
# each) on 1,280 nodes and 64 spares in two delivery stages, 544 nodes
# (40%: two trainings at a time) and 800 (60%: the other three).  Rows: the
# second stage at day 0 (all bought now); at day 60, bought then; at day 60,
# rented on demand to the end; at day 60, rented until day 120 and bought
# then; never (the first stage alone).  Each row: the GPUs of day 0, the days
# until the last training is done, the GPU-hours present (gpu_hours.capacity:
# each stage's GPUs x the hours it was there), the capital bought, the rent,
# the TCO of those days (capital charges from each stage's own purchase day,
# energy of the nodes present, operations, rent), the book value left at the
# end, and the cost per useful GPU-hour.
# Usage: capacity.sh   (DCSIM=/path/to/dcsim picks the program)
. "$(dirname "$0")/../teach/lib.sh"

cfg="$here/capacity.cfg"
want="jobs.completed cost.window_days gpu_hours.capacity cost.capex_usd cost.rent_on_demand_usd cost.tco_usd cost.residual_value_usd cost.usd_per_useful_gpu_h"

fmt_h='%-38s %7s %6s %8s %8s %7s %7s %7s %8s\n'
printf "$fmt_h" "" GPUs "" GPU-h capital rent TCO "book" "USD per"
printf "$fmt_h" "second stage (800 nodes, 6,400 GPUs)" "day 0" days present bought "M USD" "M USD" "value" useful
printf "$fmt_h" "" "" "" "M" "M USD" "" "" "M USD" GPU-h
row() {
    label=$1
    gpus0=$2
    shift 2
    if ! run "$cfg" "$@"; then
        printf '%-38s %s\n' "$label" "$run_error"
        return
    fi
    days=$(val cost.window_days)
    [ "$(val jobs.completed)" = 5 ] || days="did not finish"
    printf '%-38s %7s %6.1f %8.2f %8.1f %7.1f %7.1f %7.1f %8.3f\n' "$label" "$gpus0" "$days" \
        "$(calc "$(val gpu_hours.capacity) / 1e6")" "$(calc "$(val cost.capex_usd) / 1e6")" \
        "$(calc "$(val cost.rent_on_demand_usd) / 1e6")" "$(calc "$(val cost.tco_usd) / 1e6")" \
        "$(calc "$(val cost.residual_value_usd) / 1e6")" "$(val cost.usd_per_useful_gpu_h)"
}
row "at day 0: all bought now" 10752
row "at day 60, bought then" 4352 --set 'cluster.delivery.[1].day=60.0'
row "at day 60, rented to the end" 4352 --set 'cluster.delivery.[1].day=60.0' \
    --set 'cluster.delivery.[1].rent_until_day=10000.0'
row "at day 60, rented, bought at day 120" 4352 --set 'cluster.delivery.[1].day=60.0' \
    --set 'cluster.delivery.[1].rent_until_day=120.0'
row "never: the first stage alone" 4352 --set 'cluster.delivery.[1].day=10000.0'
