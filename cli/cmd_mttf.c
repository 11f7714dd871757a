/* dcsim mttf: a job's time to failure against its size, from 8 GPUs to the whole cluster.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim mttf: time to failure against job size, the curve Kokolis et al.
 * (HPCA 2025) plot for Meta's research clusters.
 *
 * For each job size (GPUs; default 8, 16, 32, ... up to the whole cluster)
 * the scenario is run with job.nodes set to that size, stop_when_done off
 * and no event table, for long enough to see about --failures
 * interruptions at the rate the configured failure classes give (at most
 * --max-days).  Every size uses the same seed (common random numbers).
 *
 *   MTTF = T / n, T the time the job held all its nodes (restarting,
 *          running, checkpointing, detecting: job.mttf_h), n its
 *          interruptions; 95% interval from the Poisson count:
 *          [2T / chi2(0.975; 2n + 2), 2T / chi2(0.025; 2n)]
 *   expected   = 1 / (the job hazard the failure classes register)
 *   projection = 1 / (N r), N the job's nodes and r the failures per
 *          node-day the runs observed over the whole cluster
 *          (failures.per_1000_node_days / 1000, pooled over the runs) --
 *          the projection Kokolis et al. make (1.8 h at 16,384 GPUs on
 *          RSC-1 from 6.50 per 1000 node-days). */
#include "cli.h"
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "args.h"
#include "cluster.h"
#include "registry.h"
#include "sim.h"

#define MAX_SETS 256
#define MAX_SIZES 64
#define MAX_HORIZON_DAYS 36525.0

enum { O_SIZES = 256, O_FAILURES, O_MAX_DAYS, O_SEED, O_SET, O_JSON };

static const dc_cli_opt mttf_opts[] = {
    {"sizes", O_SIZES, "G1,G2,...", 0, "the job sizes in GPUs (default 8, 16, 32, ... and the whole cluster)"},
    {"failures", O_FAILURES, "N", 0, "run each size long enough for about N interruptions (default 400)"},
    {"max-days", O_MAX_DAYS, "D", 0, "but at most D simulated days (default 36525)"},
    {"seed", O_SEED, "N", 0, "seed of every run (default: the scenario's)"},
    {"set", O_SET, "KEY=VALUE", DC_CLI_REPEAT, "override one scenario key, as dcsim run --set"},
    {"json", O_JSON, NULL, 0, "print the table as JSON"},
    {0},
};

static const dc_cli_cmd mttf_cmd = {
    .name = "mttf",
    .operands = "[FILE|NAME]",
    .doc = "Time to failure against job size: runs the scenario (default: the embedded 10k_gpu one) once per job\n"
           "size, all with the same seed, and prints the simulated MTTF with its 95% interval, the MTTF the\n"
           "failure rates imply, and the projection 1/(nodes x observed failures per node-day).\n",
    .opts = mttf_opts,
};

typedef struct mttf_args {
    const char *sets[MAX_SETS];
    size_t n_sets, n_sizes;
    uint64_t sizes[MAX_SIZES];
    double target, max_days, seed_v;
    bool json, sizes_given;
} mttf_args;

typedef struct row {
    uint64_t gpus;
    uint32_t nodes;
    double days, exposure_h, n, mttf_h, lo_h, hi_h, expected_h, projection_h, ettr;
} row;

static int parse_count(const char *opt, const char *text, double min, double max, double *out, dc_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v >= min && v <= max))
        return dc_error_set(err, DC_EINPUT, "%s: expected a number from %g to %g (got '%s')", opt, min, max, text);
    *out = v;
    return DC_OK;
}

static int parse_sizes(const char *text, uint64_t *sizes, size_t *n, dc_error *err)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || end == p || v == 0 || p[0] == '-' || (*end && *end != ','))
            return dc_error_set(err, DC_EINPUT, "--sizes: expected GPU counts separated by commas, like 8,64,1024 (got '%s')",
                                text);
        if (*n == MAX_SIZES)
            return dc_error_set(err, DC_EINPUT, "--sizes: at most %d sizes", MAX_SIZES);
        sizes[(*n)++] = v;
        p = *end ? end + 1 : end;
    }
    if (*n == 0)
        return dc_error_set(err, DC_EINPUT, "--sizes: no size given");
    return DC_OK;
}

/* Loads and builds the scenario with sets plus extra; *sim is built, not run. */
static int build_with(const char *file, const char *const *sets, size_t n_sets, const char *const *extra,
                      size_t n_extra, int64_t seed, dc_sim **sim, dc_error *err)
{
    const char *all[MAX_SETS + 8];
    size_t n = 0;
    for (size_t i = 0; i < n_sets; i++)
        all[n++] = sets[i];
    for (size_t i = 0; i < n_extra; i++)
        all[n++] = extra[i];
    dc_scenario *sc = NULL;
    char *nm = NULL;
    int rc = dc_cli_load(file, all, n, &sc, &nm, err);
    if (rc != DC_OK)
        return rc;
    rc = dc_build(sc, seed, sim, err);
    dc_scenario_destroy(sc);
    free(nm);
    return rc;
}

static double fig(dc_sim *sim, const char *key)
{
    double v = NAN;
    dc_summary_get(dc_sim_summary(sim), key, &v);
    return v;
}

static void human(double h, char *buf, size_t size)
{
    if (!isfinite(h))
        snprintf(buf, size, "-");
    else if (h >= 48.0)
        snprintf(buf, size, "%.1f d", h / 24.0);
    else if (h >= 1.0)
        snprintf(buf, size, "%.2f h", h);
    else
        snprintf(buf, size, "%.1f min", h * 60.0);
}

static int mttf_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    mttf_args *a = ctx;
    switch (key) {
    case O_SET:
        return dc_cli_push(a->sets, &a->n_sets, MAX_SETS, arg, "--set", "overrides", err);
    case O_SIZES:
        a->sizes_given = true;
        return parse_sizes(arg, a->sizes, &a->n_sizes, err);
    case O_FAILURES:
        return parse_count("--failures", arg, 1, 1e7, &a->target, err);
    case O_MAX_DAYS:
        return parse_count("--max-days", arg, 1e-3, MAX_HORIZON_DAYS, &a->max_days, err);
    case O_SEED:
        if (parse_count("--seed", arg, 0, 9.2e18, &a->seed_v, err) != DC_OK || a->seed_v != floor(a->seed_v))
            return dc_error_set(err, DC_EINPUT, "--seed: expected a non-negative integer (got '%s')", arg);
        return DC_OK;
    case O_JSON:
        a->json = true;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINTERNAL, "mttf: option %d not handled", key);
}

int dc_cmd_mttf(int argc, char **argv)
{
    static mttf_args a; /* large (the sizes); one call per process */
    memset(&a, 0, sizeof a);
    a.target = 400;
    a.max_days = MAX_HORIZON_DAYS;
    a.seed_v = -1;
    dc_error err = {0};
    int first = 0;
    int pr = dc_cli_parse(&mttf_cmd, argc, argv, mttf_opt, &a, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (argc - first > 1)
        return dc_cli_usage_error(&mttf_cmd, "one scenario at most (got '%s' and '%s')", argv[first], argv[first + 1]);
    const char *const *sets = a.sets;
    size_t n_sets = a.n_sets, n_sizes = a.n_sizes;
    uint64_t *sizes = a.sizes;
    double target = a.target, max_days = a.max_days, seed_v = a.seed_v;
    bool json = a.json, sizes_given = a.sizes_given;
    char *file = NULL;
    if (first < argc && dc_cli_scenario_path(argv[first], &file, &err) != DC_OK)
        return dc_cli_fail(&err);
    int64_t seed = seed_v >= 0 ? (int64_t)seed_v : -1;

    /* The cluster's shape, from the scenario as given. */
    dc_scenario *sc = NULL;
    char *name = NULL;
    if (dc_cli_load(file, sets, n_sets, &sc, &name, &err) != DC_OK) {
        free(file);
        return dc_cli_fail(&err);
    }
    config_t *cfg = dc_scenario_config(sc);
    int in_service = 0, spares = 0, gpn_i = 8;
    long long seed_cfg = 1;
    config_lookup_int(cfg, "cluster.nodes", &in_service);
    config_lookup_int(cfg, "cluster.spare_nodes", &spares);
    config_lookup_int(cfg, "cluster.gpus_per_node", &gpn_i);
    config_lookup_int64(cfg, "seed", &seed_cfg);
    /* Failures do not depend on how the job splits its model, but the
     * step-time model refuses sizes its tensor x pipeline groups do not
     * divide: measure every size as pure data parallelism. */
    bool has_parallelism = dc_scenario_lookup(sc, "parallelism") != NULL;
    dc_scenario_destroy(sc);
    uint32_t gpn = (uint32_t)gpn_i, total_nodes = (uint32_t)(in_service + spares);
    uint64_t run_seed = seed >= 0 ? (uint64_t)seed : (uint64_t)seed_cfg;

    if (!sizes_given) {
        uint64_t whole = (uint64_t)in_service * gpn;
        for (uint64_t g = 8; g < whole && n_sizes < MAX_SIZES - 1; g *= 2)
            if (g % gpn == 0)
                sizes[n_sizes++] = g;
        sizes[n_sizes++] = whole;
    }
    for (size_t i = 0; i < n_sizes; i++) {
        if (sizes[i] % gpn != 0 || sizes[i] / gpn > total_nodes) {
            dc_error_set(&err, DC_EINPUT,
                         "--sizes: %" PRIu64 " GPUs is not a whole number of %u-GPU nodes from 1 to %u (the cluster with "
                         "its spares)",
                         sizes[i], gpn, total_nodes);
            free(name);
            free(file);
            return dc_cli_fail(&err);
        }
    }

    row *rows = calloc(n_sizes, sizeof *rows);
    if (!rows) {
        free(name);
        free(file);
        dc_error_set(&err, DC_ENOMEM, "out of memory");
        return dc_cli_fail(&err);
    }
    double node_failures = 0, node_days = 0;
    int status = DC_EXIT_OK;
    for (size_t i = 0; i < n_sizes; i++) {
        row *r = &rows[i];
        r->gpus = sizes[i];
        r->nodes = (uint32_t)(sizes[i] / gpn);
        char set_nodes[64], set_horizon[64];
        snprintf(set_nodes, sizeof set_nodes, "job.nodes=%u", r->nodes);
        const char *fixed[] = {set_nodes, "stop_when_done=false", "trace.events=false", NULL, NULL, NULL, NULL};
        size_t n_fixed = 3;
        if (has_parallelism) {
            fixed[n_fixed++] = "parallelism.tensor=1";
            fixed[n_fixed++] = "parallelism.pipeline=1";
            fixed[n_fixed++] = "parallelism.global_batch_tokens=1e10";
        }
        dc_sim *sim = NULL;
        if (build_with(file, sets, n_sets, fixed, n_fixed, seed, &sim, &err) != DC_OK)
            goto fail;
        double hazard = dc_cluster_job_hazard(dc_cluster_of(sim), r->nodes);
        dc_sim_destroy(sim);
        r->expected_h = hazard > 0 ? 1.0 / hazard / 3600.0 : INFINITY;
        /* A quarter more than the expected time to the target count: restarts
         * and repairs take time the job is not exposed. */
        r->days = isfinite(r->expected_h) ? fmin(max_days, fmax(1.0, 1.25 * target * r->expected_h / 24.0)) : max_days;
        /* The job may spend time not exposed (waiting for repairs when it
         * has no spare): lengthen the run until it sees most of the target. */
        for (int attempt = 0;; attempt++) {
            snprintf(set_horizon, sizeof set_horizon, "horizon_days=%.17g", r->days);
            fixed[n_fixed] = set_horizon;
            if (build_with(file, sets, n_sets, fixed, n_fixed + 1, seed, &sim, &err) != DC_OK)
                goto fail;
            if (dc_sim_run(sim, &err) != DC_OK) {
                dc_sim_destroy(sim);
                goto fail;
            }
            double n = fig(sim, "job.interruptions");
            if (attempt == 3 || n >= 0.8 * target || r->days >= max_days)
                break;
            r->days = fmin(max_days, r->days * 1.2 * target / fmax(n, 1.0));
            dc_sim_destroy(sim);
        }
        r->n = fig(sim, "job.interruptions");
        double mttf = fig(sim, "job.mttf_h");
        r->exposure_h = isfinite(mttf) ? mttf * r->n
                                       : fig(sim, "job.time_running_h") + fig(sim, "job.time_restarting_h")
                                             + fig(sim, "job.time_checkpointing_h") + fig(sim, "job.time_detecting_h");
        r->mttf_h = r->n > 0 ? r->exposure_h / r->n : NAN;
        r->lo_h = r->n > 0 ? 2.0 * r->exposure_h / gsl_cdf_chisq_Pinv(0.975, 2.0 * r->n + 2.0) : NAN;
        r->hi_h = r->n > 0 ? 2.0 * r->exposure_h / gsl_cdf_chisq_Pinv(0.025, 2.0 * r->n) : NAN;
        r->ettr = fig(sim, "job.ettr");
        double rate = fig(sim, "failures.per_1000_node_days");
        double nd = (double)total_nodes * dc_sim_now(sim) / 86400.0;
        if (isfinite(rate)) {
            node_failures += rate * nd / 1000.0;
            node_days += nd;
        }
        r->days = dc_sim_now(sim) / 86400.0;
        dc_sim_destroy(sim);
    }
    double r_node = node_days > 0 ? node_failures / node_days : NAN; /* per node-day */
    for (size_t i = 0; i < n_sizes; i++)
        rows[i].projection_h = r_node > 0 ? 24.0 / (rows[i].nodes * r_node) : NAN;

    if (json) {
        dc_json *j = dc_json_create(stdout, 0);
        if (!j) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        dc_json_begin_object(j);
        dc_json_member_string(j, "scenario", name);
        dc_json_member_int(j, "seed", (int64_t)run_seed);
        dc_json_member_int(j, "gpus_per_node", gpn);
        dc_json_member_int(j, "nodes", total_nodes);
        dc_json_member_number(j, "failures_per_1000_node_days", 1000.0 * r_node);
        dc_json_key(j, "sizes");
        dc_json_begin_array(j);
        for (size_t i = 0; i < n_sizes; i++) {
            const row *r = &rows[i];
            dc_json_begin_object(j);
            dc_json_member_int(j, "gpus", (int64_t)r->gpus);
            dc_json_member_int(j, "nodes", r->nodes);
            dc_json_member_number(j, "simulated_days", r->days);
            dc_json_member_number(j, "interruptions", r->n);
            dc_json_member_number(j, "exposure_h", r->exposure_h);
            dc_json_member_number(j, "mttf_h", r->mttf_h);
            dc_json_member_number(j, "mttf_lo_h", r->lo_h);
            dc_json_member_number(j, "mttf_hi_h", r->hi_h);
            dc_json_member_number(j, "expected_h", r->expected_h);
            dc_json_member_number(j, "projection_h", r->projection_h);
            dc_json_member_number(j, "ettr", r->ettr);
            dc_json_end_object(j);
        }
        dc_json_end_array(j);
        dc_json_end_object(j);
        int rc = dc_json_finish(j);
        dc_json_destroy(j);
        if (rc != DC_OK) {
            dc_error_set(&err, rc, "cannot write the table to standard output");
            goto fail;
        }
    } else {
        printf("dcsim mttf: scenario %s (%s), seed %" PRIu64 ", %u nodes x %u GPUs\n", name,
               file ? file : "embedded", run_seed, total_nodes, gpn);
        printf("failures per 1000 node-days (observed over the whole cluster): %.3g\n\n", 1000.0 * r_node);
        printf("%8s %7s %12s %12s %12s %8s %10s %12s %12s %10s\n", "GPUs", "nodes", "MTTF_h", "95%_low_h",
               "95%_high_h", "interr.", "days", "expected_h", "projected_h", "MTTF");
        for (size_t i = 0; i < n_sizes; i++) {
            const row *r = &rows[i];
            char h[32];
            human(r->mttf_h, h, sizeof h);
            printf("%8" PRIu64 " %7u %12.4g %12.4g %12.4g %8.0f %10.1f %12.4g %12.4g %10s\n", r->gpus, r->nodes,
                   r->mttf_h, r->lo_h, r->hi_h, r->n, r->days, r->expected_h, r->projection_h, h);
        }
        printf("\nMTTF: time the job held its nodes / its interruptions (job.mttf_h); expected: 1 / the job's hazard\n"
               "from the configured failure rates; projected: 1 / (nodes x observed failures per node-day).\n");
    }
    goto done;
fail:
    status = dc_cli_fail(&err);
done:
    free(rows);
    free(name);
    free(file);
    return status;
}
