#!/bin/sh
# Air against liquid cooling on a hot site, side by side.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Air against liquid cooling: the flagship's cluster for a year on a hot
# desert site (../power/air_hot.cfg and ../power/liquid_hot.cfg, which
# differ only in cooling.type): PUE, energy and its cost, heat throttling,
# thermal shutdowns, time to train.  Needs the power and cooling model.
# Usage: cooling.sh [--all] [--plot DIR]
. "$(dirname "$0")/lib.sh"

if [ ! -f "$here/../power/air_hot.cfg" ]; then
    echo "$0: needs scenarios/power/air_hot.cfg and liquid_hot.cfg (the power and cooling model)" >&2
    exit 2
fi
keys='^(power\.(pue|facility_energy_kwh|cooling_energy_kwh|energy_cost_usd|carbon_kg|heat_throttled_h|kwh_per_useful_gpu_h)|cooling\.(mean_cop|max_inlet_c|throttle_events|shutdowns|shutdown_h)|job\.(completion_days|ettr)|gpu_hours\.thermal)$'
variant air "$here/../power/air_hot.cfg"
variant liquid "$here/../power/liquid_hot.cfg"
each=power
finish
