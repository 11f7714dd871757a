/* What a size and a set of assumptions change in a scenario, as --set assignments (size.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Decisions where size.h is silent:
 *  - a key given as a distribution is scaled through its parameters: X' = f X
 *    multiplies mean, sd, median, min, max, mode, scale and loc by f (sigma
 *    and shape are unchanged); an empirical law cannot be scaled that way
 *    and is refused with the key's location;
 *  - an integer key (spares, crews, parts, switches) is rounded up, so that
 *    a site never has fewer per node than the scenario (rounding to the
 *    nearest let 23 nodes share the one crew of 16 and made a larger
 *    cluster slower); at least 1 crew; a part's order-up-to level stays above
 *    its reorder point (and is then written out, since it defaults to the stock);
 *  - the MFU factor divides job.work_gpu_h when the job gives its work that
 *    way (that work is at the kernel efficiency), else multiplies the mfu
 *    the job takes (its own, its class's or the defaults': in a class it
 *    changes every job of the class), else sets job.mfu to 0.4 x the factor
 *    (the built-in default);
 *  - the layout (tensor x pipeline) is the job's as written, a class's or
 *    the defaults'; when that is "auto" the first run's step.tensor and
 *    step.pipeline give it (size.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "size.h"

static int push(char ***list, size_t *n, size_t *cap, char *s, dc_error *err)
{
    if (!s)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 16;
        char **p = realloc(*list, c * sizeof *p);
        if (!p) {
            free(s);
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        }
        *list = p;
        *cap = c;
    }
    (*list)[(*n)++] = s;
    return DC_OK;
}

static int pushf(char ***list, size_t *n, size_t *cap, dc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int pushf(char ***list, size_t *n, size_t *cap, dc_error *err, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= sizeof buf)
        return dc_error_set(err, DC_EINTERNAL, "an assignment longer than %zu characters", sizeof buf);
    return push(list, n, cap, strdup(buf), err);
}

static bool number_at(const dc_scenario *sc, const char *path, double *v)
{
    return dc_scenario_number(dc_scenario_lookup(sc, path), v);
}

static const char *const dist_params[] = {"mean", "sd", "median", "min", "max", "mode", "scale", "loc"};

/* Appends the assignments that make the value at path f times what it is
 * (nothing when the scenario has no such key).  Integers round up (up: a
 * site never has fewer spares or crews per node than the scenario's), at
 * least lo; up to a rounding error of 1e-9, so that 64 x 0.5 is 32. */
static int scale_key(const dc_scenario *sc, const char *path, double f, long long lo, char ***list, size_t *n,
                     size_t *cap, dc_error *err)
{
    config_setting_t *s = dc_scenario_lookup(sc, path);
    if (!s)
        return DC_OK;
    const dc_param *row = dc_scenario_schema_row(sc, path);
    bool integer = row && row->type == DC_PARAM_INT;
    double v;
    if (dc_scenario_number(s, &v)) {
        if (integer) {
            long long x = (long long)ceil(v * f - 1e-9);
            return pushf(list, n, cap, err, "%s=%lld", path, x < lo ? lo : x);
        }
        return pushf(list, n, cap, err, "%s=%.17g", path, v * f);
    }
    const char *dist = NULL;
    if (config_setting_type(s) != CONFIG_TYPE_GROUP || !config_setting_lookup_string(s, "dist", &dist))
        return dc_scenario_error_at(sc, s, err, "expected a number or a distribution to scale");
    if (strcmp(dist, "empirical") == 0)
        return dc_scenario_error_at(sc, s, err,
                                    "an empirical distribution cannot be scaled with the size or a plan's "
                                    "assumptions: give a number or another law");
    for (size_t k = 0; k < sizeof dist_params / sizeof dist_params[0]; k++) {
        double p;
        if (dc_scenario_number(config_setting_get_member(s, dist_params[k]), &p)) {
            int rc = pushf(list, n, cap, err, "%s.%s=%.17g", path, dist_params[k], p * f);
            if (rc != DC_OK)
                return rc;
        }
    }
    return DC_OK;
}

static int length_of(const dc_scenario *sc, const char *path)
{
    config_setting_t *s = dc_scenario_lookup(sc, path);
    return s && (config_setting_is_list(s) || config_setting_is_array(s)) ? config_setting_length(s) : 0;
}

/* ---- the job's keys ------------------------------------------------------------------ */

/* The path of the setting that gives the job group's key, along the chain of
 * models/workload/jobclass.h: the job group (for parallelism.KEY the
 * top-level parallelism group), its class (job.class, else defaults.class,
 * in job_classes), the defaults group.  False when none gives it. */
static bool job_key_path(const dc_scenario *sc, const char *key, char *path, size_t size)
{
    bool sub = strncmp(key, "parallelism.", 12) == 0;
    snprintf(path, size, "%s%s", sub ? "" : "job.", key);
    if (dc_scenario_lookup(sc, path))
        return true;
    const char *cls = NULL;
    config_setting_t *c = dc_scenario_lookup(sc, "job.class");
    if (!c)
        c = dc_scenario_lookup(sc, "defaults.class");
    if (c && config_setting_type(c) == CONFIG_TYPE_STRING)
        cls = config_setting_get_string(c);
    config_setting_t *list = cls ? dc_scenario_lookup(sc, "job_classes") : NULL;
    for (int i = 0; list && i < config_setting_length(list); i++) {
        const char *n = NULL;
        if (config_setting_lookup_string(config_setting_get_elem(list, (unsigned)i), "name", &n) &&
            strcmp(n, cls) == 0) {
            snprintf(path, size, "job_classes.[%d].%s", i, key);
            if (dc_scenario_lookup(sc, path))
                return true;
            break;
        }
    }
    snprintf(path, size, "defaults.%s", key);
    return dc_scenario_lookup(sc, path) != NULL;
}

/* ---- the shape -------------------------------------------------------------------- */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The keys scaled with the site (besides the cluster's, the crews and the parts). */
static const char *const site_keys[] = {"power.site_cap_mw", "power.network.switches", "cooling.capacity_kw",
                                        "cost.capex.switches", "cost.opex.facility_mw"};

int dc_size_shape_read(const dc_scenario *sc, dc_size_shape *sh, dc_error *err)
{
    memset(sh, 0, sizeof *sh);
    if (!dc_scenario_lookup(sc, "job"))
        return dc_scenario_error_at(sc, NULL, err,
                                    "dcsim size sizes the cluster for the job of the `job` group, and this "
                                    "scenario has none");
    /* stages and types fix node counts that a size would change */
    static const char *const fixed[] = {"cluster.delivery", "cluster.types"};
    for (size_t i = 0; i < 2; i++)
        if (dc_scenario_lookup(sc, fixed[i]))
            return dc_scenario_error_at(sc, dc_scenario_lookup(sc, fixed[i]), err,
                                        "dcsim size scales cluster.nodes, not the nodes of delivery stages or node "
                                        "types: size the scenario without %s", fixed[i]);
    double v;
    sh->gpus_per_node = number_at(sc, "cluster.gpus_per_node", &v) ? (uint32_t)v : 8;
    const char *need[] = {"cluster.nodes", "job.nodes"};
    for (size_t i = 0; i < 2; i++)
        if (!number_at(sc, need[i], &v))
            return dc_scenario_error_at(sc, dc_scenario_lookup(sc, need[i]), err,
                                        "dcsim size sets this key itself: it must be a number");
    number_at(sc, "cluster.nodes", &v);
    sh->cluster_nodes = (uint64_t)v;
    number_at(sc, "job.nodes", &v);
    sh->job_nodes = (uint64_t)v;
    sh->spare_nodes = number_at(sc, "cluster.spare_nodes", &v) ? (uint64_t)v : 0;
    sh->crews = !dc_scenario_lookup(sc, "repair") ? -1 : number_at(sc, "repair.crews", &v) ? (long long)v : 0;
    /* the layout as given; "auto" (or a class's) is known once a run reports it */
    char path[160];
    sh->tensor = job_key_path(sc, "parallelism.tensor", path, sizeof path) && number_at(sc, path, &v) ? (int)v : 1;
    sh->pipeline = job_key_path(sc, "parallelism.pipeline", path, sizeof path) && number_at(sc, path, &v) ? (int)v : 1;
    dc_size_shape_layout(sh, sh->tensor, sh->pipeline);
    sh->start_days = number_at(sc, "job.start_s", &v) ? v / 86400.0 : 0.0;
    sh->n_scaled = 0;
    sh->scaled[sh->n_scaled++] = "cluster.nodes";
    if (dc_scenario_lookup(sc, "cluster.spare_nodes"))
        sh->scaled[sh->n_scaled++] = "cluster.spare_nodes";
    if (sh->crews > 0)
        sh->scaled[sh->n_scaled++] = "repair.crews";
    if (length_of(sc, "repair.parts") > 0)
        sh->scaled[sh->n_scaled++] = "repair.parts";
    for (size_t k = 0; k < sizeof site_keys / sizeof site_keys[0]; k++)
        if (dc_scenario_lookup(sc, site_keys[k]))
            sh->scaled[sh->n_scaled++] = site_keys[k];
    if (job_key_path(sc, "parallelism.data", path, sizeof path) && number_at(sc, path, &v))
        sh->scaled[sh->n_scaled++] = "parallelism.data";
    return DC_OK;
}

void dc_size_shape_layout(dc_size_shape *sh, int tensor, int pipeline)
{
    sh->tensor = tensor > 0 ? tensor : 1;
    sh->pipeline = pipeline > 0 ? pipeline : 1;
    uint64_t model = (uint64_t)sh->tensor * (uint64_t)sh->pipeline, g = sh->gpus_per_node;
    sh->step_nodes = model / gcd64(model, g); /* lcm(G, t p) / G */
}

/* ---- a size ------------------------------------------------------------------------ */

int dc_size_assignments(const dc_scenario *sc, const dc_size_shape *sh, uint64_t n, double deadline_days,
                        char ***list, size_t *n_list, size_t *cap, dc_error *err)
{
    uint64_t nodes = sh->cluster_nodes >= sh->job_nodes
                         ? n + (sh->cluster_nodes - sh->job_nodes)
                         : (uint64_t)fmax(1.0, round((double)sh->cluster_nodes * (double)n / (double)sh->job_nodes));
    double s = (double)nodes / (double)sh->cluster_nodes;
    double horizon = sh->start_days + DC_SIZE_HORIZON_FACTOR * deadline_days;
    if (horizon > 36525.0)
        horizon = 36525.0;
    int rc = pushf(list, n_list, cap, err, "job.nodes=%llu", (unsigned long long)n);
    if (rc == DC_OK)
        rc = pushf(list, n_list, cap, err, "cluster.nodes=%llu", (unsigned long long)nodes);
    if (rc == DC_OK)
        rc = pushf(list, n_list, cap, err, "stop_when_done=true");
    if (rc == DC_OK)
        rc = pushf(list, n_list, cap, err, "horizon_days=%.17g", horizon);
    if (rc == DC_OK)
        rc = pushf(list, n_list, cap, err, "deadline.days=%.17g", deadline_days);
    if (rc == DC_OK)
        rc = scale_key(sc, "cluster.spare_nodes", s, 0, list, n_list, cap, err);
    if (rc == DC_OK && sh->crews > 0)
        rc = scale_key(sc, "repair.crews", s, 1, list, n_list, cap, err);
    for (size_t k = 0; rc == DC_OK && k < sizeof site_keys / sizeof site_keys[0]; k++)
        rc = scale_key(sc, site_keys[k], s, 0, list, n_list, cap, err);
    int parts = length_of(sc, "repair.parts");
    for (int i = 0; rc == DC_OK && i < parts; i++) {
        char p[96];
        double stock = 0, rp = 0, upto;
        snprintf(p, sizeof p, "repair.parts.[%d].stock", i);
        number_at(sc, p, &stock);
        snprintf(p, sizeof p, "repair.parts.[%d].reorder_point", i);
        number_at(sc, p, &rp);
        snprintf(p, sizeof p, "repair.parts.[%d].order_up_to", i);
        if (!number_at(sc, p, &upto))
            upto = stock;
        long long new_rp = (long long)ceil(rp * s - 1e-9), new_upto = (long long)ceil(upto * s - 1e-9),
                  new_stock = (long long)ceil(stock * s - 1e-9);
        if (new_upto <= new_rp)
            new_upto = new_rp + 1;
        rc = pushf(list, n_list, cap, err, "repair.parts.[%d].stock=%lld", i, new_stock);
        if (rc == DC_OK)
            rc = pushf(list, n_list, cap, err, "repair.parts.[%d].reorder_point=%lld", i, new_rp);
        if (rc == DC_OK)
            rc = pushf(list, n_list, cap, err, "repair.parts.[%d].order_up_to=%lld", i, new_upto);
    }
    char path[160];
    double v;
    if (rc == DC_OK && job_key_path(sc, "parallelism.data", path, sizeof path) && number_at(sc, path, &v))
        rc = pushf(list, n_list, cap, err, "parallelism.data=%llu",
                   (unsigned long long)(n * sh->gpus_per_node / ((uint64_t)sh->tensor * (uint64_t)sh->pipeline)));
    return rc;
}

/* ---- assumptions ------------------------------------------------------------------- */

static int scale_rates(const dc_scenario *sc, const char *prefix, double f, char ***list, size_t *n, size_t *cap,
                       dc_error *err)
{
    static const char *const times[] = {"mtbf_h", "mean_h", "median_h", "scale_h"};
    char p[160];
    int rc = DC_OK;
    for (size_t k = 0; rc == DC_OK && k < sizeof times / sizeof times[0]; k++) {
        snprintf(p, sizeof p, "%s.%s", prefix, times[k]);
        rc = scale_key(sc, p, 1.0 / f, 0, list, n, cap, err);
    }
    snprintf(p, sizeof p, "%s.afr", prefix);
    return rc == DC_OK ? scale_key(sc, p, f, 0, list, n, cap, err) : rc;
}

int dc_size_assumptions(const dc_scenario *sc, double mfu, double failures, double price, char ***list,
                        size_t *n_list, size_t *cap, dc_error *err)
{
    int rc = DC_OK;
    char path[160];
    if (mfu != 1.0) {
        if (dc_scenario_lookup(sc, "job.work_gpu_h"))
            rc = scale_key(sc, "job.work_gpu_h", 1.0 / mfu, 0, list, n_list, cap, err);
        else if (job_key_path(sc, "mfu", path, sizeof path))
            rc = scale_key(sc, path, mfu, 0, list, n_list, cap, err);
        else
            rc = pushf(list, n_list, cap, err, "job.mfu=%.17g", 0.4 * mfu);
    }
    if (rc == DC_OK && failures != 1.0) {
        char p[64];
        for (int i = 0; rc == DC_OK && i < length_of(sc, "failures"); i++) {
            snprintf(p, sizeof p, "failures.[%d]", i);
            rc = scale_rates(sc, p, failures, list, n_list, cap, err);
        }
        for (int i = 0; rc == DC_OK && i < length_of(sc, "network.failures"); i++) {
            snprintf(p, sizeof p, "network.failures.[%d]", i);
            rc = scale_rates(sc, p, failures, list, n_list, cap, err);
        }
        if (rc == DC_OK)
            rc = scale_rates(sc, "cooling.failure", failures, list, n_list, cap, err);
    }
    static const char *const prices[] = {"cost.capex.gpu_usd", "cost.capex.server_usd",
                                         "cost.rent.on_demand_usd_per_gpu_h", "cost.rent.spot_usd_per_gpu_h"};
    for (size_t k = 0; rc == DC_OK && price != 1.0 && k < sizeof prices / sizeof prices[0]; k++)
        rc = scale_key(sc, prices[k], price, 0, list, n_list, cap, err);
    return rc;
}
