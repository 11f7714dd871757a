#!/bin/sh
# Compute in orbit against its terrestrial twin, over one and five years.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Compute in orbit side by side with the ground: runs the Suncatcher-like
# formation, the Starcloud-like station and their terrestrial twin (the same
# 81 nodes x 4 accelerators) for 1 and 5 years, and prints the main figures
# with `dcsim compare` (relative differences to the ground twin).
#
#   scenarios/orbital/compare.sh [OUTDIR]      (default: a temporary directory)
#
# The traces stay in OUTDIR for `dcsim compare`, `dcsim report` or `dcsim plot`.
set -eu
. "$(dirname "$0")/../find_dcsim.sh"
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/dcsim_orbital.XXXXXX")}
mkdir -p "$out"

# The rows printed: useful work, ETTR, failures by cause, energy, cost.
rows='^(job\.useful_gpu_h|job\.ettr|job\.interruptions|job\.corruptions|failures\.total|radiation\.(sdc|uce|crash|failed_nodes)|orbital\.(serviced_nodes|eclipse_days|shed_events|power_limited_h|heat_limited_h|radiator_max_c|mass_kg|launch_usd)|gpu_hours\.(down|waiting|corruption|thermal|power_shed|isl)|power\.(facility_energy_kwh|pue)|cost\.(tco_usd|orbital_capex_usd|energy_usd|usd_per_useful_gpu_h)) '

for years in 1 5; do
    days=$(awk "BEGIN { print $years * 365.25 }")
    for s in ground_twin suncatcher starcloud; do
        "$DCSIM" run "$here/$s.cfg" --set horizon_days="$days" -o "$out/${s}_${years}y.h5" --quiet
    done
    echo
    echo "=== $years year(s): ground twin, Suncatcher-like formation, Starcloud-like station ==="
    "$DCSIM" compare "$out/ground_twin_${years}y.h5" "$out/suncatcher_${years}y.h5" "$out/starcloud_${years}y.h5" |
        awk -v rows="$rows" 'NR <= 2 || $0 ~ rows'
done
echo
echo "traces in $out"
