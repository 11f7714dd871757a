/* dcsim run: simulate a scenario, print its summary, write its trace.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "interrupt.h"
#include "outfile.h"
#include "runlimits.h"
#include "registry.h"
#include "rowtable.h"
#include "sim.h"
#include "numfmt.h"
#include "trace.h"

#define MAX_SETS 256
#define MAX_GETS 4096 /* characters of --get keys in all */

enum { O_NO_TRACE = 256, O_SEED, O_SET, O_JSON, O_FORCE, O_GET, O_UNITS };

static const dc_cli_opt run_opts[] = {
    {"output", 'o', "OUT.h5", 0, "write the trace to OUT.h5 (default: NAME.h5 in the current directory, NAME the "
                                 "scenario file's base name)"},
    {"no-trace", O_NO_TRACE, NULL, 0, "write no trace"},
    {"seed", O_SEED, "N", 0, "seed of every random stream (default: the scenario's seed key, else 1)"},
    {"set", O_SET, "KEY=VALUE", DC_CLI_REPEAT, "override one scenario key: --set job.nodes=640, --set "
                                               "'checkpoint.tier=\"pfs\"', --set failures.[0].mtbf_h=1e5"},
    {"json", O_JSON, NULL, 0, "print the summary as one JSON object (dcsim.version, run.seed, run.scenario, then "
                              "every figure)"},
    {"units", O_UNITS, NULL, 0, "with --json: each figure as {\"value\": V, \"unit\": U} instead of V"},
    {"get", O_GET, "KEY[,KEY]...", DC_CLI_REPEAT, "print only these figures, tab-separated on one line, in the "
                                                  "order given (\"-\" for a figure that is not a number)"},
    {"quiet", 'q', NULL, 0, "print no summary"},
    {"force", O_FORCE, NULL, 0, "write a trace larger than DCSIM_MAX_TRACE_GB (default 2)"},
    {0},
};

static const dc_cli_cmd run_cmd = {
    .name = "run",
    .operands = "[FILE|NAME]",
    .doc = "Simulates the scenario FILE, or the shipped scenario NAME (dcsim scenarios lists them; default: the\n"
           "embedded 10k_gpu scenario), prints its summary and writes its HDF5 trace.  On a terminal, a run that\n"
           "takes more than a second shows its progress on stderr.  SIGINT or SIGTERM stops the run without\n"
           "writing a trace (exit status 130 or 143).\n",
    .opts = run_opts,
    .after = "Examples:\n"
             "  dcsim run scenarios/10k_gpu.cfg\n"
             "  dcsim run 10k_gpu --set job.nodes=640 --seed 7 -o small_job.h5\n"
             "  dcsim run power/air_hot --no-trace --get power.pue,power.facility_energy_kwh\n",
};

typedef struct progress {
    struct timespec started;
    bool shown, show;
    double horizon_days;
    dc_sim *sim;
} progress;

static double elapsed_s(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* "4.5 h", "12 min", "37 s": a duration as a person reads it. */
static void human_duration(double s, char *buf, size_t size)
{
    if (s >= 2 * 86400.0)
        snprintf(buf, size, "%.0f days", s / 86400.0);
    else if (s >= 2 * 3600.0)
        snprintf(buf, size, "%.1f h", s / 3600.0);
    else if (s >= 120.0)
        snprintf(buf, size, "%.0f min", s / 60.0);
    else
        snprintf(buf, size, "%.0f s", s);
}

/* Shown only on a terminal and only once a run has taken a second:
 * "dcsim: 45% of 180 days simulated (day 81), 1.2 s so far, about 1.5 s left". */
static void show_progress(void *ctx, double fraction)
{
    progress *p = ctx;
    if (dc_cli_interrupted() && fraction < 1.0)
        dc_sim_stop(p->sim);
    if (!p->show)
        return;
    if (fraction >= 1.0) {
        if (p->shown)
            fputs("\r\033[K", stderr);
        return;
    }
    double wall = elapsed_s(&p->started);
    if (!p->shown && wall < 1.0)
        return;
    p->shown = true;
    char horizon[32], now[32], spent[32], left[32];
    human_duration(p->horizon_days * 86400.0, horizon, sizeof horizon);
    human_duration(fraction * p->horizon_days * 86400.0, now, sizeof now);
    human_duration(wall, spent, sizeof spent);
    if (fraction > 0.01)
        human_duration(wall * (1.0 - fraction) / fraction, left, sizeof left);
    else
        snprintf(left, sizeof left, "?");
    fprintf(stderr, "\r\033[Kdcsim: %.0f%% of %s simulated (%s), %s so far, about %s left", 100.0 * fraction,
            horizon, now, spent, left);
}

static int parse_seed(const char *text, int64_t *seed, dc_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v > INT64_MAX)
        return dc_error_set(err, DC_EINPUT, "--seed: expected an integer from 0 to %" PRId64 " (got '%s')",
                            INT64_MAX, text);
    *seed = (int64_t)v;
    return DC_OK;
}

static char *default_output(const char *file)
{
    const char *b = file ? strrchr(file, '/') : NULL;
    b = b ? b + 1 : file ? file : DC_DEFAULT_SCENARIO_NAME;
    size_t len = strlen(b);
    if (len > 4 && strcmp(b + len - 4, ".cfg") == 0)
        len -= 4;
    char *out = malloc(len + 4);
    if (out)
        snprintf(out, len + 4, "%.*s.h5", (int)len, b);
    return out;
}

typedef struct run_args {
    const char *output;
    bool no_trace, json, units, quiet, force;
    int64_t seed;
    const char *sets[MAX_SETS];
    size_t n_sets;
    char gets[MAX_GETS * 2];
    size_t n_gets_text;
} run_args;

static int run_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    run_args *a = ctx;
    switch (key) {
    case 'o':
        a->output = arg;
        return DC_OK;
    case O_NO_TRACE:
        a->no_trace = true;
        return DC_OK;
    case O_SEED:
        return parse_seed(arg, &a->seed, err);
    case O_SET:
        return dc_cli_push(a->sets, &a->n_sets, MAX_SETS, arg, "--set", "overrides", err);
    case O_JSON:
        a->json = true;
        return DC_OK;
    case O_UNITS:
        a->units = true;
        return DC_OK;
    case O_GET: {
        size_t len = strlen(arg);
        if (len == 0 || a->n_gets_text + len + 2 > sizeof a->gets)
            return dc_error_set(err, DC_EINPUT, "--get: expected KEY[,KEY]... (at most %d characters in all)",
                                MAX_GETS);
        if (a->n_gets_text)
            a->gets[a->n_gets_text++] = ',';
        memcpy(a->gets + a->n_gets_text, arg, len + 1);
        a->n_gets_text += len;
        return DC_OK;
    }
    case 'q':
        a->quiet = true;
        return DC_OK;
    case O_FORCE:
        a->force = true;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINTERNAL, "run: option %d not handled", key);
}

/* --get: the figures asked for, tab-separated; every key checked first. */
static int print_gets(const dc_summary *s, char *keys, dc_error *err)
{
    for (char *k = keys, *end; *k; k = *end ? end + 1 : end) {
        end = k + strcspn(k, ",");
        char save = *end;
        *end = '\0';
        double v;
        bool found = dc_summary_get(s, k, &v);
        int rc = found ? DC_OK
                       : dc_error_set(err, DC_EINPUT, "--get: the run has no figure '%s' (dcsim run --json lists "
                                      "them)", k);
        *end = save;
        if (rc != DC_OK)
            return rc;
    }
    char num[40];
    bool first = true;
    for (char *k = keys, *end; *k; k = *end ? end + 1 : end) {
        end = k + strcspn(k, ",");
        char save = *end;
        *end = '\0';
        double v = NAN;
        dc_summary_get(s, k, &v);
        dc_format_shortest(v, num, sizeof num);
        printf("%s%s", first ? "" : "\t", isfinite(v) ? num : "-");
        first = false;
        *end = save;
    }
    putchar('\n');
    return DC_OK;
}

/* The trace through sim/outfile.h, guarded against a second signal. */
typedef struct {
    const dc_trace_meta *meta;
    dc_sim *sim;
    dc_trace_stream *stream; /* the /jobs and /events rows streamed during the run */
} trace_job;

static int write_trace_to(dc_outfile *out, void *ctx, dc_error *err)
{
    const trace_job *t = ctx;
    return dc_trace_stream_write_to(t->stream, out, t->meta, dc_sim_summary(t->sim), dc_sim_series_set(t->sim),
                                    dc_sim_eventlog(t->sim), err);
}

static int write_trace(const char *path, const dc_trace_meta *meta, dc_sim *sim, dc_trace_stream *stream,
                       dc_error *err)
{
    trace_job t = {meta, sim, stream};
    return dc_cli_write_guarded(path, "trace", write_trace_to, &t, err);
}

/* The run's warnings, one per line, for the trace (NULL: none or out of memory). */
static char *join_warnings(const dc_scenario *sc, const dc_sim *sim)
{
    size_t n = dc_cli_warning_count(sc, sim), len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(dc_cli_warning(sc, sim, i)) + 1;
    char *all = n ? malloc(len) : NULL;
    if (!all)
        return NULL;
    all[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strcat(all, dc_cli_warning(sc, sim, i));
        if (i + 1 < n)
            strcat(all, "\n");
    }
    return all;
}

int dc_cmd_run(int argc, char **argv)
{
    run_args a = {.seed = -1};
    dc_error err = {0};
    int first = 0;
    int pr = dc_cli_parse(&run_cmd, argc, argv, run_opt, &a, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (argc - first > 1)
        return dc_cli_usage_error(&run_cmd, "one scenario at most (got '%s' and '%s')", argv[first], argv[first + 1]);
    if (a.output && a.no_trace)
        return dc_cli_usage_error(&run_cmd, "-o and --no-trace contradict each other");
    if (a.units && !a.json)
        return dc_cli_usage_error(&run_cmd, "--units goes with --json");
    if (a.n_gets_text && a.json)
        return dc_cli_usage_error(&run_cmd, "--get and --json contradict each other");
    const char *const *sets = a.sets;
    size_t n_sets = a.n_sets;
    const char *output = a.output;
    bool no_trace = a.no_trace, json = a.json, quiet = a.quiet || a.n_gets_text, force = a.force;
    int64_t seed = a.seed;
    char *resolved = NULL;
    if (first < argc && dc_cli_scenario_path(argv[first], &resolved, &err) != DC_OK)
        return dc_cli_fail(&err);
    const char *file = resolved;

    dc_scenario *sc = NULL;
    char *name = NULL, *out_path = NULL, *text = NULL, *warnings = NULL;
    dc_sim *sim = NULL;
    dc_trace_stream *stream = NULL;
    int status = DC_EXIT_OK;
    if (dc_cli_load(file, sets, n_sets, &sc, &name, &err) != DC_OK) {
        free(resolved);
        return dc_cli_fail(&err);
    }
    if (!no_trace) {
        out_path = output ? strdup(output) : default_output(file);
        if (!out_path) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        /* Before simulating: a bad output path must not cost a long run,
         * nor may the trace replace the scenario or a file it reads. */
        size_t n_in = 0;
        const char *const *inputs = dc_scenario_inputs(sc, &n_in);
        if (dc_outfile_check(out_path, "trace", inputs, n_in, &err) != DC_OK)
            goto fail;
    }
    /* Before allocating: absurd sizes and huge traces are refused here. */
    if (dc_cli_check_limits(sc, file ? file : "(embedded 10k_gpu.cfg)", 1, out_path != NULL, force, &err) != DC_OK)
        goto fail;
    dc_cli_catch_signals();
    if (dc_build_cancellable(sc, seed, dc_cli_interrupt_flag(), &sim, &err) != DC_OK) {
        if (dc_cli_interrupted()) {
            /* A signal while the models were set up (a stream of a million
             * jobs takes seconds): they gave up, nothing was written. */
            int sig = dc_cli_interrupted();
            double horizon_days = 0;
            config_lookup_float(dc_scenario_config(sc), "horizon_days", &horizon_days);
            fprintf(stderr, "dcsim: interrupted by %s while setting up the run (0 of %.6g simulated days): no trace "
                    "written\n", dc_cli_signal_name(sig), horizon_days);
            status = dc_cli_signal_status(sig);
            goto done;
        }
        goto fail;
    }
    size_t warned = dc_cli_print_warnings(sc, sim, 0);
    if (no_trace) {
        /* Nothing reads them: no event log, no /jobs rows kept, and only
         * the series a figure is computed from (dc_series_keep).  The
         * summary is the same. */
        dc_eventlog_enable(dc_sim_eventlog(sim), false);
        dc_series_set_enable(dc_sim_series_set(sim), false);
        dc_rowtable_set_drop(dc_sim_tables(sim));
    }

    if (out_path) {
        /* The trace's big tables go into its file as the run fills them. */
        int level = 0;
        config_lookup_int(dc_scenario_config(sc), "trace.compress", &level);
        stream = dc_trace_stream_open(out_path, level, dc_sim_tables(sim), dc_sim_eventlog(sim), &err);
        if (!stream)
            goto fail;
    }

    progress prog = {.horizon_days = dc_sim_horizon(sim) / 86400.0, .sim = sim};
    clock_gettime(CLOCK_MONOTONIC, &prog.started);
    prog.show = !quiet && !json && isatty(STDERR_FILENO);
    dc_sim_set_progress(sim, show_progress, &prog);
    dc_sim_set_cancel(sim, dc_cli_interrupt_flag());
    if (dc_sim_run(sim, &err) != DC_OK)
        goto fail;
    double wall_s = elapsed_s(&prog.started);
    if (prog.shown && dc_cli_warning_count(sc, sim) > warned)
        fputs("\r\033[K", stderr);
    warned = dc_cli_print_warnings(sc, sim, warned); /* found during the run */
    if (dc_cli_interrupted()) {
        /* A signal during the run: no trace (the previous file of that name,
         * if any, is untouched).  One during the write below lets the write
         * finish: it is atomic (temporary file, then rename). */
        int sig = dc_cli_interrupted();
        if (prog.shown)
            fputs("\r\033[K", stderr);
        fprintf(stderr, "dcsim: interrupted by %s after %.1f of %.6g simulated days: no trace written\n",
                dc_cli_signal_name(sig), dc_sim_now(sim) / 86400.0, prog.horizon_days);
        status = dc_cli_signal_status(sig);
        goto done;
    }

    if (out_path) {
        text = dc_scenario_text(sc);
        warnings = join_warnings(sc, sim);
        char started_at[32];
        time_t now = time(NULL);
        struct tm tm;
        strftime(started_at, sizeof started_at, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
        int level = 0;
        config_lookup_int(dc_scenario_config(sc), "trace.compress", &level);
        dc_trace_meta meta = {
            .dcsim_version = PACKAGE_VERSION,
            .scenario_text = text ? text : "",
            .scenario_file = file ? file : "(embedded 10k_gpu.cfg)",
            .seed = dc_sim_seed(sim),
            .horizon_s = dc_sim_horizon(sim),
            .end_s = dc_sim_now(sim),
            .started_at = started_at,
            .compression_level = level,
            .tables = dc_sim_tables(sim),
            .warnings = warnings,
        };
        if (!text || (dc_cli_warning_count(sc, sim) > 0 && !warnings)) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        if (write_trace(out_path, &meta, sim, stream, &err) != DC_OK)
            goto fail;
    }

    if (json) {
        dc_cli_run_info info = {.version = PACKAGE_VERSION, .scenario = name,
                                .scenario_file = file ? file : "(embedded 10k_gpu.cfg)", .seed = dc_sim_seed(sim),
                                .warnings_of = sc, .sim_warnings_of = sim};
        if (dc_cli_write_json(dc_sim_summary(sim), &info, a.units, stdout, &err) != DC_OK)
            goto fail;
    } else if (a.n_gets_text) {
        if (print_gets(dc_sim_summary(sim), a.gets, &err) != DC_OK)
            goto fail;
    } else if (!quiet) {
        printf("dcsim %s: scenario %s (%s), seed %" PRIu64 ", horizon %.6g days\n\n", PACKAGE_VERSION, name,
               file ? file : "embedded", dc_sim_seed(sim), dc_sim_horizon(sim) / 86400.0);
        dc_summary_write_text(dc_sim_summary(sim), stdout);
        printf("\nsimulated %.1f days (%" PRIu64 " events) in %.1f ms", dc_sim_now(sim) / 86400.0,
               dc_sim_events_processed(sim), wall_s * 1e3);
        if (out_path)
            printf("; trace: %s", out_path);
        printf("\n");
    }
    goto done;
fail:
    status = dc_cli_fail(&err);
done:
    dc_trace_stream_destroy(stream);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    free(name);
    free(out_path);
    free(text);
    free(warnings);
    free(resolved);
    return status;
}
