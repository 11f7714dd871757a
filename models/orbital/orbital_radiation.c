/* Radiation effects and servicing launches in orbit.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Radiation effects and servicing launches in orbit (see orbital.h).
 *
 * Each effect k is one Poisson process at the rate of every chip of the
 * cluster, lambda_k = G D' / r_k; an arrival picks a chip uniformly and
 * counts only if its node is up (thinning: exact for the up chips'
 * superposed processes, whatever the up set does meanwhile).  One random
 * stream per effect. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "cluster.h"
#include "cfgget.h"
#include "orbital.h"

#define F(path, flags, unit, def, lo, hi, doc) {path, DC_PARAM_FLOAT, flags, unit, def, NULL, lo, hi, NULL, doc}

const dc_param dc_orbital_radiation_params[] = {
    {"orbital.radiation", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "radiation effects per chip (Trillium proton tests); absent: none"},
    F("orbital.radiation.dose_rad_per_year", 0, "rad/yr", 150, 0, 1e7,
      "total ionising dose behind the shielding (Trillium, Suncatcher: about 150 rad(Si)/yr)"),
    F("orbital.radiation.sdc_rad_per_event", DC_PARAM_MIN_EXCLUSIVE, "rad", 17.5, 0, 1e12,
      "dose per silent data corruption per chip (Trillium: one per 15-20 rad)"),
    F("orbital.radiation.sdc_detect_s", 0, "s", 3600, 0, 1e8, "delay before a corruption is noticed (rollback then)"),
    F("orbital.radiation.uce_rad_per_event", DC_PARAM_MIN_EXCLUSIVE, "rad", 47, 0, 1e12,
      "dose per HBM uncorrectable error per chip (Trillium: one per 44-50 rad)"),
    F("orbital.radiation.crash_rad_per_event", DC_PARAM_MIN_EXCLUSIVE, "rad", 5000, 0, 1e12,
      "dose per crash per chip (Trillium: about one per 5 krad)"),
    F("orbital.radiation.reboot_s", 0, "s", 300, 0, 1e8, "time a node is down after an uncorrectable error"),
    F("orbital.radiation.crash_reboot_s", 0, "s", 900, 0, 1e8, "time a node is down after a crash"),
    F("orbital.radiation.threshold_rad", 0, "rad", 2000, 0, 1e9,
      "cumulative dose after which permanent failures accelerate (Trillium: HBM irregularities after about 2 krad)"),
    F("orbital.radiation.accel_per_krad", 0, "1/krad", 1, 0, 1e6,
      "rise of every failure class's rate per krad past the threshold (assumption)"),
    {"orbital.servicing", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "servicing launches that replace failed nodes; absent: failed nodes stay failed"},
    F("orbital.servicing.interval_days", DC_PARAM_REQUIRED, "days", 0, 1, 1e5,
      "time between servicing launches (the first after one interval)"),
    {"orbital.servicing.nodes_per_launch", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 0, NULL, 1, 1e7, NULL,
     "failed nodes a launch can replace"},
    F("orbital.servicing.kg_per_node", 0, "kg", 60, 0, 1e6, "launch mass per replaced node (node, mounting, share of the vehicle)"),
    F("orbital.servicing.usd_per_launch", 0, "USD", 0, 0, 1e15, "fixed cost of a servicing mission"),
    F("orbital.servicing.node_usd", 0, "USD", 0, 0, 1e12, "price of a replacement node with its GPUs"),
    {0},
};

enum effect { SDC, UCE, CRASH, N_EFFECT };
static const char *const effect_names[N_EFFECT] = {"radiation_sdc", "radiation_uce", "radiation_crash"};

typedef struct radiation {
    dc_sim *sim;
    dc_cluster *c;
    bool enabled, service;
    double dose_per_s, rad_per[N_EFFECT], detect_s, reboot_s[N_EFFECT];
    double threshold, accel_per_krad;
    uint32_t nodes, gpn;
    gsl_rng *rng[N_EFFECT];
    uint64_t hits[N_EFFECT], misses[N_EFFECT];
    uint8_t *rebooting; /* down for a reboot (comes back by itself) */
    uint8_t *failed;    /* down for good (a failure class), until serviced */
    uint32_t n_failed, max_failed;
    int reboot_reason;
    /* up-chip exposure */
    double last_s, up_gpu_s;
    uint32_t up_nodes;
    /* servicing */
    double svc_interval_s, svc_kg, svc_fixed, svc_node_usd, launch_p0, launch_pf, launch_yf, launch_year;
    uint32_t svc_nodes;
    uint64_t n_launches, n_serviced;
    double svc_usd;
    dc_series *s_failed, *s_dose;
} radiation;

static double fget(const config_setting_t *g, const char *key, double def)
{
    double v = def;
    if (g)
        dc_cfg_lookup_float(g, key, &v);
    return v;
}

static uint32_t count_up(const radiation *r)
{
    return dc_cluster_node_count(r->c) - dc_cluster_down_count(r->c) - dc_cluster_retired_count(r->c);
}

static void bank(radiation *r)
{
    double now = dc_sim_now(r->sim);
    r->up_gpu_s += (now - r->last_s) * (double)r->up_nodes * r->gpn;
    r->last_s = now;
    r->up_nodes = count_up(r);
}

static void on_effect(dc_sim *sim, void *ctx, uint64_t k);

static void schedule(radiation *r, enum effect k)
{
    double rate = r->dose_per_s / r->rad_per[k] * (double)r->nodes * r->gpn;
    if (rate > 0.0)
        dc_sim_after(r->sim, gsl_ran_exponential(r->rng[k], 1.0 / rate), on_effect, r, k);
}

static void on_reboot_done(dc_sim *sim, void *ctx, uint64_t node)
{
    radiation *r = ctx;
    if (!r->rebooting[node])
        return;
    r->rebooting[node] = 0;
    if (dc_cluster_node_state(r->c, (uint32_t)node) != DC_NODE_DOWN)
        return;
    uint32_t n = (uint32_t)node;
    dc_nodes_event back = {.nodes = &n, .n_nodes = 1, .class_id = -1};
    dc_cluster_returned(r->c, &back);
}

static void on_effect(dc_sim *sim, void *ctx, uint64_t k)
{
    radiation *r = ctx;
    uint64_t chip = gsl_rng_uniform_int(r->rng[k], (unsigned long)r->nodes * r->gpn);
    uint32_t node = (uint32_t)(chip / r->gpn);
    dc_node_state st = dc_cluster_node_state(r->c, node);
    schedule(r, (enum effect)k);
    if (st != DC_NODE_BUSY && st != DC_NODE_IDLE) {
        r->misses[k]++; /* a chip that is off: no event */
        return;
    }
    r->hits[k]++;
    double now = dc_sim_now(sim);
    dc_eventlog_add(dc_sim_eventlog(sim), now, effect_names[k], "radiation", (int32_t)node, dc_cluster_node_job(r->c, node), 0.0);
    if (k == SDC) {
        int32_t job = dc_cluster_node_job(r->c, node);
        /* a spare's or an idle job's state is not the job's: harmless */
        if (job >= 0 && dc_cluster_job_active(r->c, job))
            dc_cluster_corrupt(r->c, -1, effect_names[k], -1, job, r->detect_s);
        return;
    }
    r->rebooting[node] = 1;
    dc_cluster_fail(r->c, -1, effect_names[k], &node, 1, -1);
    dc_cluster_set_down_reason(r->c, node, r->reboot_reason);
    dc_sim_after(sim, r->reboot_s[k], on_reboot_done, r, node);
}

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    radiation *r = ctx;
    const dc_failure_event *ev = payload;
    bank(r);
    if (ev->class_id < 0)
        return;
    for (size_t i = 0; i < ev->n_nodes; i++)
        if (!r->failed[ev->nodes[i]] && dc_cluster_node_state(r->c, ev->nodes[i]) == DC_NODE_DOWN) {
            r->failed[ev->nodes[i]] = 1;
            r->n_failed++;
        }
    if (r->n_failed > r->max_failed)
        r->max_failed = r->n_failed;
    dc_series_record(r->s_failed, dc_sim_now(sim), (double)r->n_failed);
}

static void on_nodes_up(dc_sim *sim, void *ctx, const void *payload)
{
    radiation *r = ctx;
    const dc_nodes_event *ev = payload;
    bank(r);
    for (size_t i = 0; i < ev->n_nodes; i++)
        if (r->failed[ev->nodes[i]]) { /* repaired by someone (a repair section) */
            r->failed[ev->nodes[i]] = 0;
            r->n_failed--;
        }
    dc_series_record(r->s_failed, dc_sim_now(sim), (double)r->n_failed);
}

static void on_dose(dc_sim *sim, void *ctx, uint64_t day)
{
    radiation *r = ctx;
    double dose = r->dose_per_s * dc_sim_now(sim);
    double a = 1.0 + r->accel_per_krad * fmax(0.0, dose - r->threshold) / 1000.0;
    for (int c = 0; c < dc_cluster_failure_class_count(r->c); c++)
        dc_cluster_set_failure_acceleration(r->c, c, a);
    dc_series_record(r->s_dose, dc_sim_now(sim), dose);
    dc_sim_at(sim, (double)(day + 1) * 86400.0, on_dose, r, day + 1);
}

static void on_launch(dc_sim *sim, void *ctx, uint64_t k)
{
    radiation *r = ctx;
    uint32_t *back = malloc((r->svc_nodes < r->nodes ? r->svc_nodes : r->nodes) * sizeof *back + 1);
    if (!back) {
        dc_sim_fail(sim, DC_ENOMEM, "out of memory servicing");
        return;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < r->nodes && n < r->svc_nodes; i++)
        if (r->failed[i] && dc_cluster_node_state(r->c, i) == DC_NODE_DOWN)
            back[n++] = i;
    double year = r->launch_year + dc_sim_now(sim) / (365.25 * 86400.0);
    double price = dc_orbital_launch_usd_per_kg(r->launch_p0, 2025.0, r->launch_pf, r->launch_yf, year);
    r->n_launches++;
    r->n_serviced += n;
    r->svc_usd += r->svc_fixed + (double)n * (r->svc_kg * price + r->svc_node_usd);
    dc_eventlog_add(dc_sim_eventlog(sim), dc_sim_now(sim), "servicing", "radiation", -1, -1, (double)n);
    if (n > 0) {
        dc_nodes_event ev = {.nodes = back, .n_nodes = n, .class_id = -1, .as_new = true};
        dc_cluster_returned(r->c, &ev);
    }
    free(back);
    dc_sim_at(sim, (double)(k + 1) * r->svc_interval_s, on_launch, r, k + 1);
}

static int rad_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    radiation *r = state;
    r->sim = sim;
    config_setting_t *o = dc_scenario_lookup(sc, "orbital");
    if (!o)
        return DC_OK;
    config_setting_t *g = dc_cfg_member(o, "radiation");
    config_setting_t *sv = dc_cfg_member(o, "servicing");
    r->c = dc_cluster_of(sim);
    r->enabled = true;
    r->nodes = dc_cluster_node_count(r->c);
    r->gpn = dc_cluster_gpus_per_node(r->c);
    r->dose_per_s = g ? fget(g, "dose_rad_per_year", 150) / (365.25 * 86400.0) : 0.0;
    r->rad_per[SDC] = fget(g, "sdc_rad_per_event", 17.5);
    r->rad_per[UCE] = fget(g, "uce_rad_per_event", 47);
    r->rad_per[CRASH] = fget(g, "crash_rad_per_event", 5000);
    r->detect_s = fget(g, "sdc_detect_s", 3600);
    r->reboot_s[UCE] = fget(g, "reboot_s", 300);
    r->reboot_s[CRASH] = fget(g, "crash_reboot_s", 900);
    r->threshold = fget(g, "threshold_rad", 2000);
    /* The progress guarantee (sim.h): each effect's events, over every GPU,
     * at most DC_SIM_MAX_FAILURES_PER_S per simulated second. */
    static const char *const per_keys[N_EFFECT] = {"sdc_rad_per_event", "uce_rad_per_event", "crash_rad_per_event"};
    for (int k = 0; g && k < N_EFFECT; k++) {
        double per_s = (double)r->nodes * r->gpn * r->dose_per_s / r->rad_per[k];
        if (!(per_s <= DC_SIM_MAX_FAILURES_PER_S))
            return dc_scenario_error_at(sc, dc_cfg_member(g, per_keys[k]), err,
                                        "%.3g events per simulated second over the %llu GPUs, more than the limit "
                                        "of %g (a run would do nothing else): a larger dose per event",
                                        per_s, (unsigned long long)r->nodes * r->gpn, DC_SIM_MAX_FAILURES_PER_S);
    }
    r->accel_per_krad = fget(g, "accel_per_krad", 1);
    if (sv) {
        r->service = true;
        int n = 0;
        dc_cfg_lookup_int(sv, "nodes_per_launch", &n);
        r->svc_nodes = (uint32_t)n;
        r->svc_interval_s = fget(sv, "interval_days", 365) * 86400.0;
        r->svc_kg = fget(sv, "kg_per_node", 60);
        r->svc_fixed = fget(sv, "usd_per_launch", 0);
        r->svc_node_usd = fget(sv, "node_usd", 0);
    }
    config_setting_t *cg = dc_cfg_member(o, "cost");
    r->launch_year = fget(cg, "launch_year", 2026);
    r->launch_p0 = fget(cg, "launch_usd_per_kg_today", 3600);
    r->launch_pf = fget(cg, "launch_usd_per_kg_future", 200);
    r->launch_yf = fget(cg, "future_year", 2035);
    r->rebooting = calloc(r->nodes + 1, 1);
    r->failed = calloc(r->nodes + 1, 1);
    r->reboot_reason = dc_cluster_down_reason(r->c, "radiation_reboot");
    for (int k = 0; k < N_EFFECT; k++) {
        char name[64];
        snprintf(name, sizeof name, "orbital.%s", effect_names[k]);
        r->rng[k] = dc_sim_rng(sim, name);
        if (!r->rng[k])
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    r->s_failed = dc_sim_series(sim, "failed_nodes", "nodes", "nodes down for good (failure classes), until serviced");
    r->s_dose = dc_sim_series(sim, "radiation_dose_rad", "rad", "cumulative dose (daily)");
    int sf = dc_sim_signal(sim, "failure"), su = dc_sim_signal(sim, "nodes_up");
    if (!r->rebooting || !r->failed || r->reboot_reason < 0 || !r->s_failed || !r->s_dose || sf < 0 || su < 0
        || dc_sim_subscribe(sim, sf, on_failure, r) != DC_OK || dc_sim_subscribe(sim, su, on_nodes_up, r) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int rad_start(void *state, dc_sim *sim, dc_error *err)
{
    radiation *r = state;
    if (!r->enabled)
        return DC_OK;
    r->up_nodes = count_up(r);
    dc_series_record(r->s_failed, 0.0, 0.0);
    if (r->dose_per_s > 0.0) {
        for (int k = 0; k < N_EFFECT; k++)
            schedule(r, (enum effect)k);
        on_dose(sim, r, 0);
    }
    if (r->service)
        dc_sim_at(sim, r->svc_interval_s, on_launch, r, 1);
    return DC_OK;
}

static void rad_finish(void *state, dc_sim *sim)
{
    radiation *r = state;
    if (!r->enabled)
        return;
    bank(r);
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    static const char *const docs[N_EFFECT] = {"silent data corruptions on up chips (job rolls back)",
                                               "HBM uncorrectable errors on up chips (node reboots)",
                                               "crashes on up chips (node reboots)"};
    for (int k = 0; k < N_EFFECT; k++) {
        char key[64];
        snprintf(key, sizeof key, "radiation.%s", effect_names[k] + strlen("radiation_"));
        dc_summary_set(s, key, (double)r->hits[k], "", docs[k]);
    }
    dc_summary_set(s, "radiation.up_gpu_h", r->up_gpu_s / 3600.0, "GPU-h", "chip-hours exposed while up");
    dc_summary_set(s, "radiation.dose_rad", r->dose_per_s * now, "rad", "cumulative dose at the end");
    dc_summary_set(s, "radiation.failure_acceleration",
                   1.0 + r->accel_per_krad * fmax(0.0, r->dose_per_s * now - r->threshold) / 1000.0, "",
                   "factor on every failure class's rate at the end");
    dc_summary_set(s, "radiation.failed_nodes", (double)r->n_failed, "nodes", "nodes down for good at the end");
    dc_summary_set(s, "radiation.max_failed_nodes", (double)r->max_failed, "nodes", "most nodes down for good at once");
    dc_summary_set(s, "orbital.servicing_launches", (double)r->n_launches, "", "servicing launches");
    dc_summary_set(s, "orbital.serviced_nodes", (double)r->n_serviced, "nodes", "failed nodes replaced by servicing");
    dc_summary_set(s, "orbital.servicing_usd", r->svc_usd, "USD", "cost of the servicing launches");
}

static void rad_destroy(void *state)
{
    radiation *r = state;
    free(r->rebooting);
    free(r->failed);
}

const dc_model_type dc_model_orbital_radiation = {
    .name = "orbital_radiation",
    .state_size = sizeof(radiation),
    .params = dc_orbital_radiation_params,
    .init = rad_init,
    .start = rad_start,
    .finish = rad_finish,
    .destroy = rad_destroy,
};
