#!/bin/sh
# Fabrics for the flagship's job on 16,384 GPUs, side by side.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Fabrics for the flagship's job on 16,384 GPUs (fabric.cfg): a non-blocking
# fat-tree, Llama 3's fat-tree with 1:7 between pods (the job packed into
# as few pods as it can, as Llama 3 placed it), the same with the job
# scattered, and a 3D torus of 16 x 16 x 9 nodes with six 400 Gbit/s links each.
# Usage: fabric.sh [--all] [--plot DIR]
. "$(dirname "$0")/lib.sh"

cfg="$here/fabric.cfg"
keys='^(job\.ettr|job\.completion_days|step\.(time_s|comm_exposed_s|dp_comm_s|tp_comm_s|dp_gb_per_s|mfu)|network\.(degraded_h|min_health))$'
variant fat_tree_1to1 "$cfg" --set network.pod_oversubscription=1.0
variant fat_tree_1to7 "$cfg"
variant fat_tree_1to7_scattered "$cfg" --set 'network.placement="scattered"'
variant torus3d "$cfg" --set 'network.topology="torus3d"' --set network.torus_x=16 --set network.torus_y=16 \
    --set network.torus_z=9
finish step
