/* dcsim report (the summary stored in a trace), dcsim validate and dcsim keys.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "interrupt.h"
#include "plot.h"
#include "registry.h"
#include "summary.h"
#include "trace_read.h"

enum { O_JSON = 256, O_UNITS, O_SET, O_HTML, O_JOBS, O_EFFICIENCY };

static const dc_cli_opt report_opts[] = {
    {"json", O_JSON, NULL, 0, "print the summary as one JSON object (dcsim.version, run.seed, run.scenario, then "
                              "every figure)"},
    {"units", O_UNITS, NULL, 0, "with --json: each figure as {\"value\": V, \"unit\": U}"},
    {"jobs", O_JOBS, NULL, 0, "print the /jobs table instead: one line per job (size, span, times, state, "
                              "GPU-hours and their useful share, exposed communication, mean step)"},
    {"efficiency", O_EFFICIENCY, NULL, 0, "print the seed's effective compute instead: peak x device utilisation x "
                                          "network, data and scheduling efficiency, for the cluster and every job, "
                                          "the biggest loss first"},
    {"html", O_HTML, "OUT.html", 0, "write one self-contained HTML page instead (no network, no script; the "
                                    "figures as inline SVG; a run or a sweep file)"},
    {0},
};

static const dc_cli_cmd report_cmd = {
    .name = "report",
    .operands = "TRACE.h5",
    .doc = "Prints the summary stored in a trace (dcsim run writes one), as dcsim run printed it.  With\n"
           "--html, writes a page to read in a browser or mail: for a run its headline figures, where the\n"
           "GPU-hours went, the interruptions by cause, its figures and the whole summary; for a sweep file\n"
           "(dcsim sweep -o) its grid, statistics, risk table and figures.\n",
    .opts = report_opts,
    .after = "Examples:\n"
             "  dcsim report 10k_gpu.h5\n"
             "  dcsim report 10k_gpu.h5 --html 10k_gpu.html\n"
             "  dcsim report 10k_gpu.h5 --efficiency\n"
             "  dcsim report sweep.h5 --html sweep.html\n",
};

typedef struct flags {
    bool json, units, jobs, efficiency;
    const char *html;
    const char *sets[256];
    size_t n_sets;
} flags;

static int flag_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    flags *f = ctx;
    switch (key) {
    case O_JSON:
        f->json = true;
        return DC_OK;
    case O_UNITS:
        f->units = true;
        return DC_OK;
    case O_HTML:
        f->html = arg;
        return DC_OK;
    case O_JOBS:
        f->jobs = true;
        return DC_OK;
    case O_EFFICIENCY:
        f->efficiency = true;
        return DC_OK;
    case O_SET:
        return dc_cli_push(f->sets, &f->n_sets, sizeof f->sets / sizeof f->sets[0], arg, "--set", "overrides", err);
    }
    return dc_error_set(err, DC_EINTERNAL, "option %d not handled", key);
}

int dc_cmd_report(int argc, char **argv)
{
    flags fl = {0};
    int first = 0;
    int pr = dc_cli_parse(&report_cmd, argc, argv, flag_opt, &fl, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (first == argc)
        return dc_cli_usage_error(&report_cmd, "which trace?");
    if (argc - first > 1)
        return dc_cli_usage_error(&report_cmd, "one trace at a time (got '%s' and '%s')", argv[first], argv[first + 1]);
    if (fl.units && !fl.json)
        return dc_cli_usage_error(&report_cmd, "--units goes with --json");
    const char *path = argv[first];
    bool json = fl.json;
    bool jobs = fl.jobs;
    if ((fl.html != NULL) + json + jobs + fl.efficiency > 1)
        return dc_cli_usage_error(&report_cmd, "--json, --jobs, --efficiency and --html do not go together (dcsim "
                                  "export TRACE.h5 /jobs gives the table as CSV)");
    if (fl.html) {
        dc_error herr = {0};
        int hrc = dc_cli_report_html(path, fl.html, &herr);
        dc_cli_default_signals();
        if (hrc != DC_OK && dc_cli_interrupted()) {
            fprintf(stderr, "dcsim: report interrupted by %s while drawing '%s': no page written\n",
                    dc_cli_signal_name(dc_cli_interrupted()), fl.html);
            return dc_cli_signal_status(dc_cli_interrupted());
        }
        if (hrc != DC_OK)
            return dc_cli_fail(&herr);
        printf("wrote %s\n", fl.html);
        return DC_EXIT_OK;
    }
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(path, &err);
    if (!t)
        return dc_cli_fail(&err);
    dc_summary *s = dc_summary_create();
    char *file = NULL, *version = NULL;
    uint64_t seed = 0;
    double horizon_s = 0, end_s = 0;
    int status = DC_EXIT_OK;
    if (!s) {
        dc_error_set(&err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    char *kind = NULL;
    dc_error kind_err = {0};
    if (dc_trace_attr_string(t, "kind", &kind, &kind_err) == DC_OK && strcmp(kind, "sweep") == 0) {
        free(kind);
        dc_error_set(&err, DC_EINPUT,
                     "'%s' holds the results of a sweep (dcsim sweep -o), not the trace of a run: read it with "
                     "h5dump or h5py (/runs, /stats)", path);
        goto fail;
    }
    free(kind);
    if (dc_trace_read_summary(t, s, &err) != DC_OK || dc_trace_attr_string(t, "scenario_file", &file, &err) != DC_OK
        || dc_trace_attr_string(t, "dcsim_version", &version, &err) != DC_OK
        || dc_trace_attr_uint64(t, "seed", &seed, &err) != DC_OK
        || dc_trace_attr_double(t, "horizon_s", &horizon_s, &err) != DC_OK
        || dc_trace_attr_double(t, "end_s", &end_s, &err) != DC_OK)
        goto fail;
    if (jobs) {
        if (dc_report_jobs(t, path, &err) != DC_OK)
            goto fail;
    } else if (fl.efficiency) {
        if (dc_report_efficiency(t, s, path, &err) != DC_OK)
            goto fail;
    } else if (json) {
        char *scenario = NULL, *text = NULL, *warnings = NULL;
        dc_error ignored = {0};
        dc_trace_attr_string(t, "scenario", &text, &ignored);
        dc_trace_attr_string(t, "warnings", &warnings, &ignored); /* absent: the run had none */
        scenario = dc_plot_scenario_name(text, file);
        dc_cli_run_info info = {.version = version, .scenario = scenario ? scenario : file, .scenario_file = file,
                                .seed = seed, .warnings_lines = warnings};
        int rc = dc_cli_write_json(s, &info, fl.units, stdout, &err);
        free(scenario);
        free(text);
        free(warnings);
        if (rc != DC_OK)
            goto fail;
    } else {
        printf("trace %s: scenario %s, seed %" PRIu64 ", dcsim %s, %.1f of %.0f days simulated\n", path, file, seed,
               version, end_s / 86400.0, horizon_s / 86400.0);
        char *warnings = NULL;
        dc_error ignored = {0};
        dc_trace_attr_string(t, "warnings", &warnings, &ignored); /* absent: the run had none */
        for (const char *p = warnings; p && *p;) {
            const char *nl = strchr(p, '\n');
            int len = nl ? (int)(nl - p) : (int)strlen(p);
            if (len > 0)
                printf("warning: %.*s\n", len, p);
            p += len + (nl != NULL);
        }
        free(warnings);
        putchar('\n');
        dc_summary_write_text(s, stdout);
    }
    goto done;
fail:
    status = dc_cli_fail(&err);
done:
    free(file);
    free(version);
    dc_summary_destroy(s);
    dc_trace_close(t);
    return status;
}

static const dc_cli_opt validate_opts[] = {
    {"set", O_SET, "KEY=VALUE", DC_CLI_REPEAT, "override one scenario key, as dcsim run --set"},
    {0},
};

static const dc_cli_cmd validate_cmd = {
    .name = "validate",
    .operands = "FILE|NAME",
    .doc = "Checks a scenario (keys, types, ranges, the models' consistency checks) without running it.\n",
    .opts = validate_opts,
};

int dc_cmd_validate(int argc, char **argv)
{
    flags fl = {0};
    int first = 0;
    int pr = dc_cli_parse(&validate_cmd, argc, argv, flag_opt, &fl, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (first == argc)
        return dc_cli_usage_error(&validate_cmd, "which scenario?");
    if (argc - first > 1)
        return dc_cli_usage_error(&validate_cmd, "one scenario at a time (got '%s' and '%s')", argv[first],
                                  argv[first + 1]);
    const char *const *sets = fl.sets;
    size_t n_sets = fl.n_sets;
    char *file = NULL;
    dc_error err = {0};
    dc_scenario *sc = NULL;
    char *name = NULL;
    if (dc_cli_scenario_path(argv[first], &file, &err) != DC_OK)
        return dc_cli_fail(&err);
    if (dc_cli_load(file, sets, n_sets, &sc, &name, &err) != DC_OK) {
        free(file);
        return dc_cli_fail(&err);
    }
    /* Building runs the models' own cross-checks (a job larger than the cluster...). */
    dc_sim *sim = NULL;
    int rc = dc_build(sc, -1, &sim, &err);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    if (rc != DC_OK) {
        free(name);
        free(file);
        return dc_cli_fail(&err);
    }
    printf("%s: scenario %s is valid\n", argv[first], name);
    free(name);
    free(file);
    return DC_EXIT_OK;
}

static const dc_cli_cmd keys_cmd = {
    .name = "keys",
    .operands = "",
    .doc = "Prints the reference of every scenario key: type, unit, default, range and meaning, as Markdown\n"
           "(docs/scenario.md is its output).\n",
};

int dc_cmd_keys(int argc, char **argv)
{
    flags fl = {0};
    int first = 0;
    int pr = dc_cli_parse(&keys_cmd, argc, argv, flag_opt, &fl, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (first < argc)
        return dc_cli_usage_error(&keys_cmd, "takes no operand (got '%s')", argv[first]);
    fputs("# Scenario keys\n\n"
          "Every key a dcsim scenario may contain, generated by `dcsim keys` (regenerate this file with\n"
          "`./dcsim keys > docs/scenario.md`; a test checks that it is current).  Units are in the key\n"
          "names; `[]` stands for any element of a list.  A key outside this list, a value of the wrong\n"
          "type or out of its range stops `dcsim run` and `dcsim validate` with exit status 2 and a\n"
          "message naming the file, line and key.  Time laws (`law`, `mean_h`, `median_h`, `scale_h`,\n"
          "`shape`, `sigma`) are described in sim/dist.h.\n\n"
          "The progress guarantee (docs/errors.md): values that would make the event loop degenerate\n"
          "are refused.  Steps (`cooling.step_s`, `orbital.step_s`) and fixed checkpoint intervals\n"
          "(`checkpoint.interval_s`, `checkpoint_interval_s`) are at least 1 s; with an automatic\n"
          "interval a job's checkpoint write time (`checkpoint_write_s`, or `size_gb` / `write_gb_per_s`,\n"
          "or through its tier) is at least 0.001 s; a failure class (`failures`, `network.failures`)\n"
          "fails at most 1000 times per simulated second over all its units (units / `mtbf_h`, or\n"
          "units x `afr` / 8766 h).  A run whose clock still stalls (2^24 events moving it less than\n"
          "0.168 s: over 10^8 events per simulated second) stops with exit status 2 naming the model.\n\n",
          stdout);
    dc_scenario_write_reference(dc_schemas(), stdout);
    return DC_EXIT_OK;
}
