#!/bin/sh
# How many GPUs the flagship's job needs to train within 150 days, and the seed's three plans.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# dcsim size on the flagship (../10k_gpu.cfg: Llama 3 405B on 20T tokens,
# failures, repairs, checkpoints, the power cap) for a 150-day deadline at
# 90% confidence (30 futures per size, the same at every size), with the
# seed's conservative, balanced and aggressive plans side by side (seed 000,
# sec. 4; docs/cost-risk.md says what each assumes and how to override it)
# and a budget of 79.8M USD for the TCO of the run.  Any further arguments
# go to dcsim size (--plan conservative.mfu=0.9, --confidence 0.95,
# --plot size.png, ...).
# Usage: size.sh [dcsim size options...]   (DCSIM=/path/to/dcsim picks the program)
. "$(dirname "$0")/../find_dcsim.sh"
cd "$here/.." || exit 2
exec "$DCSIM" size 10k_gpu.cfg --deadline-days 150 --budget 79.8e6 "$@"
