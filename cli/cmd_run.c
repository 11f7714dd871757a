/* dcsim run: simulate a scenario, print its summary, write its trace.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "interrupt.h"
#include "outfile.h"
#include "runlimits.h"
#include "registry.h"
#include "sim.h"
#include "trace.h"

#define MAX_SETS 256

static const char run_usage[] =
    "usage: dcsim run [FILE] [-o OUT.h5 | --no-trace] [--seed N] [--set KEY=VALUE]... [--json] [--quiet] [--force]\n"
    "Simulates the scenario FILE (default: the embedded 10k_gpu scenario), prints its summary and\n"
    "writes an HDF5 trace (default: NAME.h5 in the current directory, NAME the file's base name).\n"
    "--force writes a trace larger than DCSIM_MAX_TRACE_GB (default 2).  SIGINT or SIGTERM stops the run\n"
    "without writing a trace (exit status 130 or 143).\n";

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

/* Shown only on a terminal and only once a run has taken a second. */
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
    if (!p->shown && elapsed_s(&p->started) < 1.0)
        return;
    p->shown = true;
    fprintf(stderr, "\rdcsim: day %.0f of %.0f (%.0f%%)", fraction * p->horizon_days, p->horizon_days,
            100.0 * fraction);
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

/* The trace through sim/outfile.h; a second signal during the write removes
 * the temporary file (cli/interrupt.h). */
static int write_trace(const char *path, const dc_trace_meta *meta, dc_sim *sim, dc_error *err)
{
    dc_outfile *out = dc_outfile_open(path, "trace", err);
    if (!out)
        return err->code;
    dc_cli_interrupt_cleanup(dc_outfile_in_place(out) ? NULL : dc_outfile_name(out));
    int rc = dc_trace_write_to(out, meta, dc_sim_summary(sim), dc_sim_series_set(sim), dc_sim_eventlog(sim), err);
    if (rc == DC_OK)
        rc = dc_outfile_commit(out, err);
    else
        dc_outfile_abort(out);
    dc_cli_interrupt_cleanup(NULL);
    return rc;
}

int dc_cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"no-trace", no_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},   {"set", required_argument, NULL, 'S'},
        {"json", no_argument, NULL, 'j'},         {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {"force", no_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL;
    bool no_trace = false, json = false, quiet = false, force = false;
    int64_t seed = -1;
    const char *sets[MAX_SETS];
    size_t n_sets = 0;
    dc_error err = {0};

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'n':
            no_trace = true;
            break;
        case 's':
            if (parse_seed(optarg, &seed, &err) != DC_OK)
                return dc_cli_fail(&err);
            break;
        case 'S':
            if (n_sets == MAX_SETS) {
                dc_error_set(&err, DC_EINPUT, "--set: at most %d overrides", MAX_SETS);
                return dc_cli_fail(&err);
            }
            sets[n_sets++] = optarg;
            break;
        case 'j':
            json = true;
            break;
        case 'q':
            quiet = true;
            break;
        case 'f':
            force = true;
            break;
        case 'h':
            fputs(run_usage, stdout);
            return DC_EXIT_OK;
        case ':':
            fprintf(stderr, "dcsim run: option %s needs a value\n%s", argv[optind - 1], run_usage);
            return DC_EXIT_INPUT;
        default:
            fprintf(stderr, "dcsim run: unknown option '%s'\n%s", argv[optind - 1], run_usage);
            return DC_EXIT_INPUT;
        }
    }
    if (argc - optind > 1) {
        fprintf(stderr, "dcsim run: one scenario file at most (got '%s' and '%s')\n%s", argv[optind],
                argv[optind + 1], run_usage);
        return DC_EXIT_INPUT;
    }
    if (output && no_trace) {
        fprintf(stderr, "dcsim run: -o and --no-trace contradict each other\n");
        return DC_EXIT_INPUT;
    }
    const char *file = optind < argc ? argv[optind] : NULL;

    dc_scenario *sc = NULL;
    char *name = NULL, *out_path = NULL, *text = NULL;
    dc_sim *sim = NULL;
    int status = DC_EXIT_OK;
    if (dc_cli_load(file, sets, n_sets, &sc, &name, &err) != DC_OK)
        return dc_cli_fail(&err);
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
    if (dc_build(sc, seed, &sim, &err) != DC_OK)
        goto fail;

    progress prog = {.horizon_days = dc_sim_horizon(sim) / 86400.0, .sim = sim};
    clock_gettime(CLOCK_MONOTONIC, &prog.started);
    prog.show = !quiet && !json && isatty(STDERR_FILENO);
    dc_sim_set_progress(sim, show_progress, &prog);
    if (dc_sim_run(sim, &err) != DC_OK)
        goto fail;
    double wall_s = elapsed_s(&prog.started);
    if (dc_cli_interrupted()) {
        /* A signal during the run: no trace (the previous file of that name,
         * if any, is untouched).  One during the write below lets the write
         * finish: it is atomic (temporary file, then rename). */
        int sig = dc_cli_interrupted();
        if (prog.shown)
            fputs("\r\033[K", stderr);
        fprintf(stderr, "dcsim: interrupted by %s after %.1f of %.0f simulated days: no trace written\n",
                dc_cli_signal_name(sig), dc_sim_now(sim) / 86400.0, prog.horizon_days);
        status = dc_cli_signal_status(sig);
        goto done;
    }

    if (out_path) {
        text = dc_scenario_text(sc);
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
        };
        if (!text) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        if (write_trace(out_path, &meta, sim, &err) != DC_OK)
            goto fail;
    }

    if (json) {
        dc_summary_write_json(dc_sim_summary(sim), stdout);
    } else if (!quiet) {
        printf("dcsim %s: scenario %s (%s), seed %" PRIu64 ", horizon %.0f days\n\n", PACKAGE_VERSION, name,
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
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    free(name);
    free(out_path);
    free(text);
    return status;
}
