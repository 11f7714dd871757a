/* The seed's troubleshooting view: each GPU-hour line to its factor, the factors applied in turn.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "efficiency.h"

#include <math.h>
#include <string.h>

#include "summary.h"

static const char *const scheduling_lines[] = {
    "idle_spare", "waiting",   "preempted", "down",   "retired",     "parts_wait", "heat_shutdown",
    "power_outage", "spot_reclaimed", "rollback", "corruption", "detection", "restart", "power_up",
    "inference_starting", NULL};
static const char *const data_lines[] = {"data_stall", "checkpoint", NULL};
static const char *const network_lines[] = {"communication", NULL};

static int in(const char *const *list, const char *line)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], line) == 0)
            return 1;
    return 0;
}

int dc_efficiency_factor_of(const char *line, int count_serving)
{
    if (strcmp(line, "useful") == 0 || (count_serving && strcmp(line, "inference_serving") == 0))
        return DC_EFF_USEFUL;
    if (in(scheduling_lines, line))
        return DC_EFF_SCHEDULING;
    if (in(data_lines, line))
        return DC_EFF_DATA;
    if (in(network_lines, line))
        return DC_EFF_NETWORK;
    return DC_EFF_DEVICE;
}

const char *dc_efficiency_factor_name(int f)
{
    static const char *const names[DC_EFF_FACTORS] = {"scheduling efficiency", "data efficiency",
                                                      "network efficiency", "device utilisation"};
    return f >= 0 && f < DC_EFF_FACTORS ? names[f] : "useful";
}

void dc_efficiency_compute(const char *const *lines, const double *gpu_h, size_t n, double total_gpu_h, double kernel,
                           int count_serving, dc_efficiency *out)
{
    memset(out, 0, sizeof *out);
    out->total_gpu_h = total_gpu_h;
    out->kernel = kernel > 0.0 && isfinite(kernel) ? kernel : 1.0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(lines[i], "capacity") == 0 || strcmp(lines[i], "total") == 0 || !isfinite(gpu_h[i]))
            continue;
        int f = dc_efficiency_factor_of(lines[i], count_serving);
        if (f == DC_EFF_USEFUL) {
            out->useful_gpu_h += gpu_h[i];
            continue;
        }
        out->loss_gpu_h[f] += gpu_h[i];
        if (gpu_h[i] > out->top_line_gpu_h[f]) {
            out->top_line_gpu_h[f] = gpu_h[i];
            out->top_line[f] = lines[i];
        }
    }
    /* the factors in turn on what remains; the device factor takes the rest */
    double r = total_gpu_h;
    for (int f = 0; f < DC_EFF_DEVICE; f++) {
        double next = r - out->loss_gpu_h[f];
        out->factor[f] = r > 0.0 ? next / r : NAN;
        r = next;
    }
    out->factor[DC_EFF_DEVICE] = r > 0.0 ? out->kernel * out->useful_gpu_h / r : NAN;
    out->effective = total_gpu_h > 0.0 ? out->kernel * out->useful_gpu_h / total_gpu_h : NAN;
    for (int f = 0; f < DC_EFF_FACTORS; f++)
        out->order[f] = f;
    for (int i = 1; i < DC_EFF_FACTORS; i++) /* by loss, largest first (insertion sort of four) */
        for (int k = i; k > 0 && out->factor[out->order[k]] < out->factor[out->order[k - 1]]; k--) {
            int t = out->order[k];
            out->order[k] = out->order[k - 1];
            out->order[k - 1] = t;
        }
}

int dc_efficiency_of_summary(const dc_summary *s, dc_efficiency *out, int *kernel_known)
{
    enum { MAX_LINES = 64 };
    const char *names[MAX_LINES];
    double values[MAX_LINES], capacity = NAN, kernel = NAN, useful = NAN, job_useful = NAN, serving = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < dc_summary_count(s) && n < MAX_LINES; i++) {
        const char *k = dc_summary_key(s, i);
        if (strncmp(k, "gpu_hours.", 10) != 0)
            continue;
        if (strcmp(k + 10, "capacity") == 0) {
            capacity = dc_summary_value(s, i);
            continue;
        }
        names[n] = k + 10;
        values[n++] = dc_summary_value(s, i);
    }
    if (!(capacity > 0.0))
        return -1;
    dc_summary_get(s, "gpu_hours.useful", &useful);
    dc_summary_get(s, "job.useful_gpu_h", &job_useful);
    dc_summary_get(s, "gpu_hours.inference_serving", &serving);
    int known = dc_summary_get(s, "step.kernel_efficiency", &kernel) && kernel > 0.0 && useful == job_useful &&
                !(serving > 0.0);
    dc_efficiency_compute(names, values, n, capacity, known ? kernel : 1.0, 1, out);
    if (kernel_known)
        *kernel_known = known;
    return 0;
}
