#!/bin/sh
# The HBM route against the DDR route, for inference and for training.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# The "HBM route" against the "DDR route" (seed article 002), twice:
#  1. inference of a 405B model (../inference/ddr_route.cfg): one 8-GPU node
#     per replica streaming weights and KV cache from host DDR over PCIe,
#     against two nodes per replica holding everything in HBM;
#  2. training a 70B model on 1,024 GPUs (../teach/hbm_ddr.cfg): 80 GB of
#     HBM per GPU, against 24 GB with full activation recomputation (the
#     DDR route's way to fit; lesson 5 of ../teach shows the others).
# Usage: hbm_ddr.sh [--all] [--plot DIR]
. "$(dirname "$0")/lib.sh"

echo "1. Inference, 405B (ddr_route.cfg): latency, GPU-hours per million tokens"
part=inference
keys='^(inference\.(ttft|tpot|e2e)_p(50|99)_s|inference\.(gpu_h_per_mtok|replicas_mean|slo_attainment|qps_served))$'
variant ddr_route "$here/../inference/ddr_route.cfg"
variant hbm_route "$here/../inference/ddr_route.cfg" --set 'inference.replica.memory="hbm"' \
    --set inference.replica.gpus=16 --set inference.replicas.min=2 --set inference.replicas.max=2
finish latency

next_part training
echo "2. Training, 70B on 1,024 GPUs (teach/hbm_ddr.cfg): step, MFU, days, memory cost"
keys='^(step\.(time_s|recompute_s|offload_s|mfu|memory_gb_per_gpu)|job\.(completion_days|ettr)|storage\.(hbm|ddr)\.cost_usd)$'
variant hbm_80gb "$here/../teach/hbm_ddr.cfg"
variant ddr_24gb_recompute "$here/../teach/hbm_ddr.cfg" --set storage.tiers.[0].capacity_tb=0.192 \
    --set 'parallelism.recompute="full"'
finish step
