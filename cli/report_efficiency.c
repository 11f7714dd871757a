/* dcsim report --efficiency: the seed's troubleshooting formula for the cluster and every job, biggest loss first.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efficiency.h"
#include "summary.h"
#include "table.h"
#include "trace_read.h"

#define MAX_LINES 64

static void print_factors(const dc_efficiency *e)
{
    printf("  %-22s %8s %14s  %s\n", "factor", "value", "lost GPU-h", "its largest line");
    for (int i = 0; i < DC_EFF_FACTORS; i++) {
        int f = e->order[i];
        double lost = e->loss_gpu_h[f];
        char line[128] = "-";
        if (f == DC_EFF_DEVICE) {
            lost += e->useful_gpu_h * (1.0 - e->kernel); /* the kernel's share, as GPU-hours */
            if (e->kernel < 1.0 && e->useful_gpu_h * (1.0 - e->kernel) >= e->top_line_gpu_h[f])
                snprintf(line, sizeof line, "kernel efficiency %.3f (%.0f GPU-h)", e->kernel,
                         e->useful_gpu_h * (1.0 - e->kernel));
            else if (e->top_line[f])
                snprintf(line, sizeof line, "%s (%.0f GPU-h)%s", e->top_line[f], e->top_line_gpu_h[f],
                         e->kernel < 1.0 ? "; kernel efficiency too" : "");
        } else if (e->top_line[f]) {
            snprintf(line, sizeof line, "%s (%.0f GPU-h)", e->top_line[f], e->top_line_gpu_h[f]);
        }
        printf("  %-22s %8.4f %14.0f  %s\n", dc_efficiency_factor_name(f), e->factor[f], lost, line);
    }
    printf("  %-22s %8.4f %14.0f  = kernel efficiency %.3f x %.0f useful GPU-h / %.0f GPU-h of peak\n", "product",
           e->effective, e->total_gpu_h * (1.0 - e->effective), e->kernel, e->useful_gpu_h, e->total_gpu_h);
}

int dc_report_efficiency(dc_trace_file *tf, const dc_summary *s, const char *path, dc_error *err)
{
    dc_efficiency e;
    int cluster_kernel = 0;
    if (dc_efficiency_of_summary(s, &e, &cluster_kernel) != 0)
        return dc_error_set(err, DC_EINPUT, "trace '%s' has no GPU-hour breakdown (gpu_hours.capacity)", path);
    double kernel = NAN;
    bool has_kernel = dc_summary_get(s, "step.kernel_efficiency", &kernel) && kernel > 0.0;
    dc_table *t = NULL;
    bool has_jobs = false;
    int rc = dc_trace_has_dataset(tf, "/jobs", &has_jobs, err);
    if (rc != DC_OK)
        return rc;
    if (has_jobs) {
        if (!(t = dc_table_create()))
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        if ((rc = dc_trace_read_table(tf, "/jobs", t, err)) != DC_OK) {
            dc_table_destroy(t);
            return rc;
        }
    }
    printf("effective compute = peak x device utilisation x network efficiency x data efficiency x scheduling "
           "efficiency (seed 000, sec. 2), from the GPU-hours of %s\n\n",
           path);
    int worst = e.order[0];
    printf("cluster: %.4f of peak; the biggest loss is %s (%.4f)\n", e.effective, dc_efficiency_factor_name(worst),
           e.factor[worst]);
    print_factors(&e);
    if (!cluster_kernel)
        printf("  (device utilisation counts time only: %s)\n",
               has_kernel ? "the trace records the kernel efficiency of the job group only"
                          : "the trace records no kernel efficiency (no step-time model)");

    if (t && dc_table_rows(t) > 0) {
        const char *jn[MAX_LINES];
        long jc[MAX_LINES];
        size_t m = 0;
        for (size_t c = 0; c < dc_table_columns(t) && m < MAX_LINES; c++) {
            const char *name = dc_table_column_name(t, c);
            if (strncmp(name, "gpu_hours.", 10) == 0 && strcmp(name + 10, "total") != 0) {
                jn[m] = name + 10;
                jc[m++] = (long)c;
            }
        }
        long c_job = dc_table_column_index(t, "job"), c_name = dc_table_column_index(t, "name"),
             c_total = dc_table_column_index(t, "gpu_hours.total"), c_gpus = dc_table_column_index(t, "gpus");
        printf("\nper job (of the GPU-hours it held; kernel efficiency for job 0 only%s)\n",
               has_kernel ? "" : ", none recorded");
        printf("%6s %-24s %12s %10s %10s %10s %10s %10s  %s\n", "job", "name", "GPU-h", "device", "network", "data",
               "scheduling", "effective", "biggest loss");
        for (size_t r = 0; r < dc_table_rows(t); r++) {
            double vals[MAX_LINES];
            for (size_t i = 0; i < m; i++)
                vals[i] = dc_table_number(t, r, jc[i]);
            double job = dc_table_number(t, r, c_job), total = dc_table_number(t, r, c_total);
            dc_efficiency je;
            dc_efficiency_compute(jn, vals, m, total, job == 0.0 && has_kernel ? kernel : 1.0, 0, &je);
            const char *name = c_name >= 0 ? dc_table_text(t, r, (size_t)c_name) : "";
            if (!(total > 0.0)) {
                /* a job of CPU-only nodes (cluster.types) holds no GPU: its node-hours are cpu_node_hours.* */
                bool cpu = c_gpus >= 0 && dc_table_number(t, r, c_gpus) == 0.0;
                printf("%6.0f %-24.24s %12.1f  (%s)\n", job, name, total,
                       cpu ? "a CPU job: no GPU-hours" : "held no nodes");
                continue;
            }
            int w = je.order[0];
            const char *why = je.top_line[w];
            if (w == DC_EFF_DEVICE && je.kernel < 1.0 && je.useful_gpu_h * (1.0 - je.kernel) >= je.top_line_gpu_h[w])
                why = "kernel efficiency";
            printf("%6.0f %-24.24s %12.1f %10.4f %10.4f %10.4f %10.4f %10.4f  %s%s%s\n", job, name, total,
                   je.factor[DC_EFF_DEVICE], je.factor[DC_EFF_NETWORK], je.factor[DC_EFF_DATA],
                   je.factor[DC_EFF_SCHEDULING], je.effective, dc_efficiency_factor_name(w), why ? ": " : "",
                   why ? why : "");
        }
    }
    dc_table_destroy(t);
    return DC_OK;
}
