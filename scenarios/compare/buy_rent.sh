#!/bin/sh
# Buy or rent 10,240 GPUs for a three-year training programme, side by side.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Buy or rent 10,240 GPUs for a three-year training programme
# (../invest/programme.cfg, seed 1, its uncertain inputs at this seed's
# draws): every GPU bought, 40% bought and 60% rented, every GPU rented.
# One replication each: for the risk (P90 cost, the chance of missing the
# deadline) run the sweep in the scenario's header and draw
#   dcsim plot invest.h5 --kind histogram --metric cost.tco_usd
# Usage: buy_rent.sh [--all] [--plot DIR]
. "$(dirname "$0")/lib.sh"

cfg="$here/../invest/programme.cfg"
keys='^(cost\.(tco_usd|capex_usd|depreciation_usd|interest_usd|energy_usd|maintenance_usd|rent_reserved_usd|rent_on_demand_usd|usd_per_useful_gpu_h|usd_per_model)|job\.completion_days)$'
variant buy "$cfg" --set cost.owned=1.0
variant mix_40_60 "$cfg" --set cost.owned=0.4
variant rent "$cfg" --set cost.owned=0.0
finish cost
