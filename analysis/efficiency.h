/* The seed's troubleshooting view: effective compute as peak x device utilisation x network, data and
 * scheduling efficiency, from a run's GPU-hour lines (pure computation).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Seed 000 (sec. 2) reads effective compute as a product:
 *     effective = peak x device utilisation x network communication efficiency
 *                      x data reading efficiency x task scheduling efficiency.
 * Here each factor is measured from the GPU-hour breakdown (every GPU-hour of
 * the total in exactly one line), for the cluster (total: gpu_hours.capacity)
 * or for one job (total: the GPU-hours it held, the /jobs table's
 * gpu_hours.total).  Each line belongs to one factor (dc_efficiency_factor_of):
 *   scheduling  the GPU-hours not spent on live work: idle and spare nodes,
 *               queue waits, preemption, down nodes and every down reason,
 *               retired nodes, and the recovery from failures (rollback,
 *               corruption, detection, restart, power-up, a service's
 *               replicas starting);
 *   data        data stalls and checkpoints (the storage path);
 *   network     exposed communication;
 *   device      what is left between the time computing and useful work
 *               (pipeline bubble, power caps, heat, a service's idle batch
 *               slots, any line not named here), and the kernel efficiency k
 *               (step.kernel_efficiency: the FLOP share of peak while
 *               computing; 1 when the trace has none).
 * The factors are applied in that order to what remains, so that they
 * multiply exactly to the effective share:
 *     R0 = total, S = (R0 - L_sched) / R0,   R1 = S R0,
 *     D = (R1 - L_data) / R1,                R2 = D R1,
 *     N = (R2 - L_net) / R2,                 R3 = N R2,
 *     U = k useful / R3,
 *     S D N U = k useful / total = effective / peak,
 * useful = gpu_hours.useful (+ gpu_hours.inference_serving for the cluster).
 * A factor's loss is 1 - factor; the biggest loss is named first. */
#ifndef DC_EFFICIENCY_H
#define DC_EFFICIENCY_H

#include <stddef.h>

enum { DC_EFF_SCHEDULING, DC_EFF_DATA, DC_EFF_NETWORK, DC_EFF_DEVICE, DC_EFF_FACTORS, DC_EFF_USEFUL = -1 };

typedef struct dc_efficiency {
    double total_gpu_h;                 /* peak, in GPU-hours */
    double useful_gpu_h;
    double kernel;                      /* k (1 when unknown) */
    double loss_gpu_h[DC_EFF_FACTORS];  /* GPU-hours of the lines of each factor */
    double factor[DC_EFF_FACTORS];
    double effective;                   /* k useful / total */
    const char *top_line[DC_EFF_FACTORS]; /* its largest line (NULL: none above 0) */
    double top_line_gpu_h[DC_EFF_FACTORS];
    int order[DC_EFF_FACTORS];          /* factors by loss, largest first */
} dc_efficiency;

/* The factor of a GPU-hour line ("rollback", not "gpu_hours.rollback"), or
 * DC_EFF_USEFUL for useful work (useful; inference_serving with
 * count_serving). */
int dc_efficiency_factor_of(const char *line, int count_serving);
const char *dc_efficiency_factor_name(int factor);

/* The factors of n lines (names without the gpu_hours. prefix; the total
 * line and gpu_hours.total are skipped) out of total_gpu_h; kernel <= 0 or
 * NaN counts as 1.  count_serving: a service's serving hours are useful
 * (the cluster; a job has none). */
void dc_efficiency_compute(const char *const *lines, const double *gpu_h, size_t n, double total_gpu_h, double kernel,
                           int count_serving, dc_efficiency *out);

/* The cluster's factors from a run's summary: its gpu_hours.* lines of
 * gpu_hours.capacity, the kernel efficiency step.kernel_efficiency when all
 * the useful work is the job group's (gpu_hours.useful = job.useful_gpu_h,
 * no service serving), else 1 (*kernel_known false).  -1 without a
 * breakdown. */
struct dc_summary;
int dc_efficiency_of_summary(const struct dc_summary *s, dc_efficiency *out, int *kernel_known);

#endif
