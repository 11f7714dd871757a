/* dcsim compare: the summaries of several traces side by side, as a table, CSV or figure.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim compare: the summaries of several traces side by side, with the
 * relative difference of each to the first (analysis/compare.h); --csv for
 * the same table with every digit, --plot for the grouped bars of the
 * figure kind "compare". */
#include "cli.h"
#include "interrupt.h"
#include "plotcli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "compare.h"

enum { O_CSV = 256, O_PLOT };

static const dc_cli_opt compare_opts[] = {
    {"csv", O_CSV, NULL, 0, "write the table as CSV with every digit"},
    {"plot", O_PLOT, NULL, 0, "also draw grouped bars of the figures that differ (default file: FIRST_compare.png "
                              "beside the first trace)"},
    {"output", 'o', "FILE", 0, "with --plot: the figure's file (.png, .svg or .pdf)"},
    {0},
};

static const dc_cli_cmd compare_cmd = {
    .name = "compare",
    .operands = "A.h5 B.h5...",
    .doc = "Prints the summaries of the traces side by side, with the relative difference of each to the\n"
           "first: (x - x_first) / |x_first|.\n",
    .opts = compare_opts,
};

typedef struct compare_args {
    const char *output;
    bool csv, plot;
} compare_args;

static int compare_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    compare_args *a = ctx;
    if (key == 'o')
        a->output = arg;
    else if (key == O_CSV)
        a->csv = true;
    else if (key == O_PLOT)
        a->plot = true;
    else
        return dc_error_set(err, DC_EINTERNAL, "compare: option %d not handled", key);
    return DC_OK;
}

/* As the summary's text table: integers and large values whole, else 4 digits. */
static void format_value(char *buf, size_t size, double v)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else if (isinf(v))
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
    else if (v == 0.0)
        snprintf(buf, size, "0");
    else if (fabs(v) < 1e15 && (v == floor(v) || fabs(v) >= 1000.0))
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.4g", v);
}

static void format_rel(char *buf, size_t size, double rel)
{
    if (isnan(rel))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%+.2f%%", 100.0 * rel);
}

static void print_table(const dc_table *t, size_t n, const dc_cli_run *runs, const char *const *paths)
{
    printf("differences relative to %s\n", runs[0].label);
    int lw = 0;
    for (size_t j = 0; j < n; j++)
        if ((int)strlen(runs[j].label) > lw)
            lw = (int)strlen(runs[j].label);
    for (size_t j = 0; j < n; j++)
        printf("  %-*s  %s: scenario %s, seed %llu, %.1f days simulated\n", lw, runs[j].label, paths[j],
               runs[j].scenario, (unsigned long long)runs[j].run.seed, runs[j].run.end_s / 86400.0);
    putchar('\n');

    size_t rows = dc_table_rows(t);
    int kw = 6, uw = 4;
    int *vw = calloc(n, sizeof *vw);
    if (!vw)
        return;
    char num[64];
    for (size_t j = 0; j < n; j++)
        vw[j] = (int)strlen(runs[j].label);
    for (size_t r = 0; r < rows; r++) {
        int l = (int)strlen(dc_table_text(t, r, 0));
        kw = l > kw ? l : kw;
        l = (int)strlen(dc_table_text(t, r, 1));
        uw = l > uw ? l : uw;
        for (size_t j = 0; j < n; j++) {
            format_value(num, sizeof num, dc_table_real(t, r, 2 + j));
            l = (int)strlen(num);
            vw[j] = l > vw[j] ? l : vw[j];
        }
    }
    printf("%-*s  %-*s", kw, "figure", uw, "unit");
    for (size_t j = 0; j < n; j++) {
        printf("  %*s", vw[j], runs[j].label);
        if (j > 0)
            printf("  %9s", "diff");
    }
    putchar('\n');
    for (size_t r = 0; r < rows; r++) {
        printf("%-*s  %-*s", kw, dc_table_text(t, r, 0), uw, dc_table_text(t, r, 1));
        for (size_t j = 0; j < n; j++) {
            format_value(num, sizeof num, dc_table_real(t, r, 2 + j));
            printf("  %*s", vw[j], num);
            if (j > 0) {
                format_rel(num, sizeof num, dc_table_real(t, r, 2 + n + j - 1));
                printf("  %9s", num);
            }
        }
        putchar('\n');
    }
    free(vw);
}

int dc_cmd_compare(int argc, char **argv)
{
    compare_args a = {0};
    int first = 0;
    int pr = dc_cli_parse(&compare_cmd, argc, argv, compare_opt, &a, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    size_t n = (size_t)(argc - first);
    if (n < 2)
        return dc_cli_usage_error(&compare_cmd, "give two traces or more");
    if (a.output && !a.plot)
        return dc_cli_usage_error(&compare_cmd, "-o names the figure of --plot");
    const char **paths = calloc(n, sizeof *paths);
    if (!paths) {
        fputs("dcsim: out of memory\n", stderr);
        return DC_EXIT_FAILURE;
    }
    for (size_t i = 0; i < n; i++)
        paths[i] = argv[first + (int)i];
    const char *output = a.output;
    bool csv = a.csv, plot = a.plot;

    dc_error err = {0};
    dc_cli_run *runs = calloc(n, sizeof *runs);
    const dc_summary **sums = calloc(n, sizeof *sums);
    const char **names = calloc(n, sizeof *names);
    dc_plot_run *pruns = calloc(n, sizeof *pruns);
    dc_table *t = dc_table_create();
    char *plot_dir = NULL, *fig = NULL;
    size_t open = 0;
    int status = DC_EXIT_OK;
    if (!runs || !sums || !names || !pruns || !t) {
        dc_error_set(&err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    for (; open < n; open++)
        if (dc_cli_run_open(paths[open], &runs[open], &err) != DC_OK)
            goto fail;
    dc_cli_run_label(runs, n, paths);
    for (size_t j = 0; j < n; j++) {
        sums[j] = runs[j].summary;
        names[j] = runs[j].label;
        pruns[j] = runs[j].run;
    }
    if (dc_compare_table(sums, names, n, t, &err) != DC_OK)
        goto fail;
    /* Draw first: a figure that cannot be drawn must not follow a table. */
    if (plot) {
        const dc_plot_kind *k = dc_plot_kind_find("compare");
        plot_dir = dc_cli_plot_dir();
        if (!output) {
            const char *slash = strrchr(paths[0], '/');
            int dlen = slash ? (int)(slash - paths[0]) + 1 : 0;
            const char *label = strrchr(runs[0].label, '/') ? strrchr(runs[0].label, '/') + 1 : runs[0].label;
            size_t len = (size_t)dlen + strlen(label) + 16;
            if ((fig = malloc(len)))
                snprintf(fig, len, "%.*s%s_compare.png", dlen, paths[0], label);
        }
        if (!k || !plot_dir || (!output && !fig)) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        /* A signal stops gnuplot: no figure, no table, exit 130/143 (before,
         * the default action left the figure's temporary file behind); the
         * table after it has the default action again (dc_cli_draw). */
        dc_plot_opts o = {.output = output ? output : fig, .gnuplot = dc_cli_gnuplot(), .script_dir = plot_dir};
        if (dc_cli_draw(k, pruns, n, &o, &err) != DC_OK) {
            if (dc_cli_interrupted()) {
                fprintf(stderr, "dcsim: compare interrupted by %s while drawing '%s': no figure written, no table\n",
                        dc_cli_signal_name(dc_cli_interrupted()), o.output);
                status = dc_cli_signal_status(dc_cli_interrupted());
                goto done;
            }
            goto fail;
        }
    }
    if (csv) {
        if (dc_table_write_csv(t, stdout, &err) != DC_OK)
            goto fail;
    } else {
        print_table(t, n, runs, paths);
    }
    if (plot)
        fprintf(csv ? stderr : stdout, "%swrote %s\n", csv ? "dcsim compare: " : "\n", output ? output : fig);
    goto done;
fail:
    status = dc_cli_fail(&err);
done:
    for (size_t j = 0; j < open; j++)
        dc_cli_run_close(&runs[j]);
    free(runs);
    free(sums);
    free(names);
    free(pruns);
    free(paths);
    free(plot_dir);
    free(fig);
    dc_table_destroy(t);
    return status;
}
