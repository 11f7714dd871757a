/* The site's environment: outdoor temperature, electricity price and carbon intensity over time.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "environment.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"
#include "csv.h"

#define MAX_PERIODS 96
#define PRICE_MAX 100.0
#define CARBON_MAX 5.0

const dc_param dc_environment_params[] = {
    {"environment", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "outdoor temperature, electricity price and carbon intensity; absent: 15 C, no price"},
    {"environment.start_day_of_year", DC_PARAM_FLOAT, DC_PARAM_MAX_EXCLUSIVE, "day", 1, NULL, 1, 367, NULL,
     "calendar day the run starts (1 = 1 January 00:00 local time; a fraction is a time of day)"},
    {"environment.ambient", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "outdoor (ambient) temperature"},
    {"environment.ambient.source", DC_PARAM_STRING, 0, "", 0, "sinusoid", 0, 0, "sinusoid|csv",
     "a seasonal plus daily sinusoid, or a CSV file (columns time_h, temp_c)"},
    {"environment.ambient.mean_c", DC_PARAM_FLOAT, 0, "C", 15, NULL, -60, 60, NULL, "annual mean temperature"},
    {"environment.ambient.seasonal_amplitude_c", DC_PARAM_FLOAT, 0, "C", 0, NULL, 0, 40, NULL,
     "half the swing between the warmest and coldest days' means"},
    {"environment.ambient.daily_amplitude_c", DC_PARAM_FLOAT, 0, "C", 0, NULL, 0, 25, NULL,
     "half the swing between a day's maximum and minimum"},
    {"environment.ambient.warmest_day", DC_PARAM_FLOAT, 0, "day", 200, NULL, 1, 366, NULL,
     "day of the year of the seasonal maximum (200: 19 July)"},
    {"environment.ambient.warmest_hour", DC_PARAM_FLOAT, DC_PARAM_MAX_EXCLUSIVE, "h", 15, NULL, 0, 24, NULL,
     "hour of the day of the daily maximum"},
    {"environment.ambient.file", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT | DC_PARAM_FILE, "", 0, NULL, 0, 0, NULL,
     "CSV with columns time_h (from 0, increasing, covering the horizon) and temp_c, linearly interpolated (source = \"csv\")"},
    {"environment.price", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "electricity price; absent: no energy cost is computed"},
    {"environment.price.source", DC_PARAM_STRING, 0, "", 0, "flat", 0, 0, "flat|tou|csv",
     "one price, time-of-use periods of the day, or a CSV file (columns time_h, usd_per_kwh)"},
    {"environment.price.usd_per_kwh", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "USD/kWh", 0, NULL, 0, PRICE_MAX, NULL,
     "the price (source = \"flat\")"},
    {"environment.price.periods", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL,
     "time-of-use periods, each holding until the next one's from_hour, every day (source = \"tou\")"},
    {"environment.price.periods.[].from_hour", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MAX_EXCLUSIVE, "h", 0,
     NULL, 0, 24, NULL, "hour of the day the period starts (increasing along the list)"},
    {"environment.price.periods.[].usd_per_kwh", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "USD/kWh", 0, NULL, 0,
     PRICE_MAX, NULL, "price in this period"},
    {"environment.price.file", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT | DC_PARAM_FILE, "", 0, NULL, 0, 0, NULL,
     "CSV with columns time_h and usd_per_kwh; each price holds until the next row (source = \"csv\")"},
    {"environment.carbon", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "carbon intensity of the electricity; absent: no carbon figure"},
    {"environment.carbon.source", DC_PARAM_STRING, 0, "", 0, "flat", 0, 0, "flat|csv",
     "one intensity, or a CSV file (columns time_h, kg_per_kwh)"},
    {"environment.carbon.kg_per_kwh", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "kg/kWh", 0, NULL, 0, CARBON_MAX, NULL,
     "kg CO2 per kWh drawn from the grid (source = \"flat\")"},
    {"environment.carbon.file", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT | DC_PARAM_FILE, "", 0, NULL, 0, 0, NULL,
     "CSV with columns time_h and kg_per_kwh; each value holds until the next row (source = \"csv\")"},
    {0},
};

/* A step function of time: value v[i] from t[i] (s) to t[i+1]. */
typedef struct steps {
    double *t, *v;
    size_t n;
} steps;

typedef struct tou_period {
    double from_h, usd_per_kwh;
} tou_period;

enum tariff_kind { TARIFF_NONE, TARIFF_FLAT, TARIFF_TOU, TARIFF_CSV };

typedef struct tariff {
    enum tariff_kind kind;
    double value;       /* current */
    steps csv;
    tou_period periods[MAX_PERIODS];
    size_t n_periods;
} tariff;

#define DAILY_MEMO 256 /* (a power of two) */

struct dc_environment {
    dc_sim *sim;
    double offset_h; /* hours from 1 January 00:00 to the start of the run */
    bool ambient_csv;
    double mean_c, seasonal_c, daily_c, warmest_day, warmest_hour;
    steps ambient; /* csv: points, linearly interpolated */
    /* The daily cosine by the hour of day it was computed at (h in
     * dc_environment_ambient_c, the key NaN while a slot is empty): hourly
     * steps come back to some 150 distinct hours of day over a flagship's
     * run, and cos gives the same bits for the same argument. */
    struct daily_memo {
        double h, cos_v;
    } daily[DAILY_MEMO];
    tariff price, carbon;
    int sig_tariff;
    dc_series *series_price, *series_carbon;
};

dc_environment *dc_environment_of(dc_sim *sim) { return dc_sim_model(sim, "environment"); }
double dc_environment_price(const dc_environment *e) { return e->price.kind == TARIFF_NONE ? NAN : e->price.value; }
double dc_environment_carbon(const dc_environment *e) { return e->carbon.kind == TARIFF_NONE ? NAN : e->carbon.value; }

bool dc_environment_ambient_varies(const dc_environment *e)
{
    return e->ambient_csv || e->seasonal_c > 0.0 || e->daily_c > 0.0;
}

/* Index of the last point with t[i] <= t (0 if none). */
static size_t find(const steps *s, double t)
{
    size_t lo = 0, hi = s->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double dc_environment_ambient_c(dc_environment *e, double t_s)
{
    if (e->ambient_csv) {
        const steps *a = &e->ambient;
        size_t i = find(a, t_s);
        if (i + 1 >= a->n)
            return a->v[a->n - 1];
        double w = (t_s - a->t[i]) / (a->t[i + 1] - a->t[i]);
        w = w < 0.0 ? 0.0 : w;
        return a->v[i] + w * (a->v[i + 1] - a->v[i]);
    }
    double d = (e->offset_h + t_s / 3600.0) / 24.0;
    double h = 24.0 * (d - floor(d));
    uint64_t bits;
    memcpy(&bits, &h, sizeof bits);
    struct daily_memo *dm = &e->daily[(bits ^ bits >> 32 ^ bits >> 45) & (DAILY_MEMO - 1)];
    if (!(dm->h == h)) {
        dm->h = h;
        dm->cos_v = cos(2.0 * M_PI * (h - e->warmest_hour) / 24.0);
    }
    return e->mean_c + e->seasonal_c * cos(2.0 * M_PI * (d - (e->warmest_day - 0.5)) / 365.25)
           + e->daily_c * dm->cos_v;
}

/* Reads a time series file (time_h plus one value column) into s, checking
 * every row.  The file covers up to its last time plus the spacing before
 * it (the last row holds that long), which must reach the horizon; a
 * single row holds for ever. */
static int read_series(const dc_scenario *sc, const config_setting_t *file_s, const char *column, double lo,
                       double hi, double horizon_s, steps *s, dc_error *err)
{
    const char *name = config_setting_get_string(file_s);
    char path[4096];
    if (!dc_csv_resolve_path(dc_scenario_file(sc), name, path, sizeof path))
        return dc_scenario_error_at(sc, file_s, err, "file name too long");
    dc_csv *csv = NULL;
    int rc = dc_csv_read_file(path, &csv, err);
    size_t ct = 0, cv = 0;
    if (rc == DC_OK)
        rc = dc_csv_find_column(csv, "time_h", &ct, err);
    if (rc == DC_OK)
        rc = dc_csv_find_column(csv, column, &cv, err);
    if (rc == DC_OK && dc_csv_row_count(csv) == 0)
        rc = dc_error_set(err, DC_EINPUT, "%s: no data rows after the header", path);
    size_t n = rc == DC_OK ? dc_csv_row_count(csv) : 0;
    if (rc == DC_OK) {
        s->t = malloc(n * sizeof *s->t);
        s->v = malloc(n * sizeof *s->v);
        if (!s->t || !s->v)
            rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
    }
    for (size_t i = 0; rc == DC_OK && i < n; i++) {
        double th, v;
        rc = dc_csv_number(csv, i, ct, &th, err);
        if (rc == DC_OK)
            rc = dc_csv_number(csv, i, cv, &v, err);
        if (rc != DC_OK)
            break;
        if (i == 0 && th != 0.0)
            rc = dc_csv_error_at(csv, i, ct, err, "the series must start at time 0 (got %g)", th);
        else if (i > 0 && !(th * 3600.0 > s->t[i - 1]))
            rc = dc_csv_error_at(csv, i, ct, err, "times must increase (got %g after %g)", th, s->t[i - 1] / 3600.0);
        else if (v < lo || v > hi)
            rc = dc_csv_error_at(csv, i, cv, err, "out of range [%g, %g] (got %g)", lo, hi, v);
        s->t[i] = th * 3600.0;
        s->v[i] = v;
        s->n = i + 1;
    }
    if (rc == DC_OK && n > 1) {
        double end_s = s->t[n - 1] + (s->t[n - 1] - s->t[n - 2]);
        if (end_s < horizon_s)
            rc = dc_csv_error_at(csv, n - 1, ct, err,
                                 "the series covers %g h but the run lasts %g h (horizon_days); add rows up to the horizon",
                                 end_s / 3600.0, horizon_s / 3600.0);
    }
    if (rc == DC_EINPUT || rc == DC_EIO) {
        char key[256];
        dc_scenario_setting_path(file_s, key, sizeof key);
        const char *where = dc_scenario_file(sc);
        unsigned line = 0;
        dc_scenario_where(sc, file_s, &where, &line);
        dc_error_prefix(err, "%s:%u: %s", where, line, key);
    }
    dc_csv_destroy(csv);
    return rc;
}

static int no_key_unless(const dc_scenario *sc, const config_setting_t *g, const char *key, const char *source,
                         const char *need, dc_error *err)
{
    config_setting_t *s = dc_cfg_member(g, key);
    if (s && strcmp(source, need) != 0)
        return dc_scenario_error_at(sc, s, err, "only read when source = \"%s\" (source is \"%s\")", need, source);
    return DC_OK;
}

static int read_tariff(const dc_scenario *sc, const char *group, const char *value_key, const char *column,
                       double max, double horizon_s, tariff *tf, dc_error *err)
{
    config_setting_t *g = dc_scenario_lookup(sc, group);
    if (!g)
        return DC_OK;
    const char *source = "flat";
    dc_cfg_lookup_string(g, "source", &source);
    int rc = no_key_unless(sc, g, "file", source, "csv", err);
    if (rc == DC_OK)
        rc = no_key_unless(sc, g, value_key, source, "flat", err);
    if (rc == DC_OK && dc_cfg_member(g, "periods"))
        rc = no_key_unless(sc, g, "periods", source, "tou", err);
    if (rc != DC_OK)
        return rc;
    if (strcmp(source, "flat") == 0) {
        if (!dc_cfg_lookup_float(g, value_key, &tf->value))
            return dc_scenario_error_at(sc, g, err, "source \"flat\" needs %s", value_key);
        tf->kind = TARIFF_FLAT;
    } else if (strcmp(source, "csv") == 0) {
        config_setting_t *f = dc_cfg_member(g, "file");
        if (!f)
            return dc_scenario_error_at(sc, g, err, "source \"csv\" needs file");
        rc = read_series(sc, f, column, 0.0, max, horizon_s, &tf->csv, err);
        if (rc != DC_OK)
            return rc;
        tf->kind = TARIFF_CSV;
    } else {
        config_setting_t *list = dc_cfg_member(g, "periods");
        int n = list ? config_setting_length(list) : 0;
        if (n == 0)
            return dc_scenario_error_at(sc, list ? list : g, err, "source \"tou\" needs at least one period");
        if (n > MAX_PERIODS)
            return dc_scenario_error_at(sc, list, err, "at most %d periods (got %d)", MAX_PERIODS, n);
        for (int i = 0; i < n; i++) {
            config_setting_t *p = config_setting_get_elem(list, (unsigned)i);
            tou_period *tp = &tf->periods[i];
            dc_cfg_lookup_float(p, "from_hour", &tp->from_h);
            dc_cfg_lookup_float(p, "usd_per_kwh", &tp->usd_per_kwh);
            if (i > 0 && !(tp->from_h > tf->periods[i - 1].from_h))
                return dc_scenario_error_at(sc, dc_cfg_member(p, "from_hour"), err,
                                            "periods must start at increasing hours (got %g after %g)", tp->from_h,
                                            tf->periods[i - 1].from_h);
        }
        tf->n_periods = (size_t)n;
        tf->kind = TARIFF_TOU;
    }
    return DC_OK;
}

static void on_tariff_event(dc_sim *sim, void *ctx, uint64_t arg);

/* TOU events carry (day << 8 | period): the period that starts then. */
static void schedule_tou(dc_environment *e, tariff *tf, uint64_t day, size_t k, uint64_t which)
{
    double at_h = (double)day * 24.0 + tf->periods[k].from_h - e->offset_h;
    uint64_t arg = (day << 8 | k) << 1 | which;
    dc_sim_at(e->sim, at_h * 3600.0, on_tariff_event, e, arg);
}

static void tou_next(dc_environment *e, tariff *tf, uint64_t day, size_t k, uint64_t which)
{
    if (k + 1 < tf->n_periods)
        schedule_tou(e, tf, day, k + 1, which);
    else
        schedule_tou(e, tf, day + 1, 0, which);
}

static void publish(dc_environment *e)
{
    double now = dc_sim_now(e->sim);
    if (e->price.kind != TARIFF_NONE)
        dc_series_record(e->series_price, now, e->price.value);
    if (e->carbon.kind != TARIFF_NONE)
        dc_series_record(e->series_carbon, now, e->carbon.value);
    dc_sim_publish(e->sim, e->sig_tariff, NULL);
}

/* arg: bit 0 = which tariff (0 price, 1 carbon); the rest is the CSV row
 * or the TOU (day, period). */
static void on_tariff_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_environment *e = ctx;
    tariff *tf = (arg & 1) ? &e->carbon : &e->price;
    uint64_t rest = arg >> 1;
    double old = tf->value;
    if (tf->kind == TARIFF_CSV) {
        size_t i = (size_t)rest;
        tf->value = tf->csv.v[i];
        if (i + 1 < tf->csv.n)
            dc_sim_at(sim, tf->csv.t[i + 1], on_tariff_event, e, (uint64_t)(i + 1) << 1 | (arg & 1));
    } else {
        uint64_t day = rest >> 8;
        size_t k = (size_t)(rest & 0xff);
        tf->value = tf->periods[k].usd_per_kwh;
        tou_next(e, tf, day, k, arg & 1);
    }
    if (tf->value != old)
        publish(e);
}

static void tariff_start(dc_environment *e, tariff *tf, uint64_t which)
{
    switch (tf->kind) {
    case TARIFF_NONE:
    case TARIFF_FLAT:
        break;
    case TARIFF_CSV:
        tf->value = tf->csv.v[0];
        if (tf->csv.n > 1)
            dc_sim_at(e->sim, tf->csv.t[1], on_tariff_event, e, (uint64_t)1 << 1 | which);
        break;
    case TARIFF_TOU: {
        double day = floor(e->offset_h / 24.0);
        double x = e->offset_h - 24.0 * day;
        size_t k = tf->n_periods - 1; /* before the first period: the last one, from the day before */
        for (size_t i = 0; i < tf->n_periods; i++)
            if (tf->periods[i].from_h <= x)
                k = i;
        tf->value = tf->periods[k].usd_per_kwh;
        uint64_t d = (uint64_t)day;
        if (tf->periods[0].from_h > x && k == tf->n_periods - 1)
            schedule_tou(e, tf, d, 0, which);
        else
            tou_next(e, tf, d, k, which);
        break;
    }
    }
}

static int env_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_environment *e = state;
    e->sim = sim;
    e->mean_c = DC_ENVIRONMENT_DEFAULT_AMBIENT_C;
    for (size_t i = 0; i < DAILY_MEMO; i++)
        e->daily[i].h = NAN;
    config_setting_t *g = dc_scenario_lookup(sc, "environment");
    if (!g)
        return DC_OK; /* 15 C, no price, no carbon */
    double start_day = 1.0;
    dc_cfg_lookup_float(g, "start_day_of_year", &start_day);
    e->offset_h = (start_day - 1.0) * 24.0;
    double horizon_s = dc_sim_horizon(sim);

    config_setting_t *a = dc_cfg_member(g, "ambient");
    if (a) {
        const char *source = "sinusoid";
        dc_cfg_lookup_string(a, "source", &source);
        int rc = no_key_unless(sc, a, "file", source, "csv", err);
        if (rc != DC_OK)
            return rc;
        if (strcmp(source, "csv") == 0) {
            config_setting_t *f = dc_cfg_member(a, "file");
            if (!f)
                return dc_scenario_error_at(sc, a, err, "source \"csv\" needs file");
            rc = read_series(sc, f, "temp_c", -90.0, 70.0, horizon_s, &e->ambient, err);
            if (rc != DC_OK)
                return rc;
            e->ambient_csv = true;
        } else {
            dc_cfg_lookup_float(a, "mean_c", &e->mean_c);
            dc_cfg_lookup_float(a, "seasonal_amplitude_c", &e->seasonal_c);
            dc_cfg_lookup_float(a, "daily_amplitude_c", &e->daily_c);
            dc_cfg_lookup_float(a, "warmest_day", &e->warmest_day);
            dc_cfg_lookup_float(a, "warmest_hour", &e->warmest_hour);
        }
    }
    int rc = read_tariff(sc, "environment.price", "usd_per_kwh", "usd_per_kwh", PRICE_MAX, horizon_s, &e->price, err);
    if (rc == DC_OK)
        rc = read_tariff(sc, "environment.carbon", "kg_per_kwh", "kg_per_kwh", CARBON_MAX, horizon_s, &e->carbon,
                         err);
    if (rc != DC_OK)
        return rc;
    if (e->carbon.kind == TARIFF_TOU)
        return dc_error_set(err, DC_EINTERNAL, "carbon cannot be time-of-use");
    e->sig_tariff = dc_sim_signal(sim, "tariff");
    if (e->price.kind != TARIFF_NONE)
        e->series_price = dc_sim_series(sim, "price_usd_per_kwh", "USD/kWh", "electricity price");
    if (e->carbon.kind != TARIFF_NONE)
        e->series_carbon = dc_sim_series(sim, "carbon_kg_per_kwh", "kg/kWh", "carbon intensity of the electricity");
    if (e->sig_tariff < 0 || (e->price.kind != TARIFF_NONE && !e->series_price)
        || (e->carbon.kind != TARIFF_NONE && !e->series_carbon))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int env_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_environment *e = state;
    tariff_start(e, &e->price, 0);
    tariff_start(e, &e->carbon, 1);
    if (e->series_price || e->series_carbon)
        publish(e);
    return DC_OK;
}

static void env_destroy(void *state)
{
    dc_environment *e = state;
    free(e->ambient.t);
    free(e->ambient.v);
    free(e->price.csv.t);
    free(e->price.csv.v);
    free(e->carbon.csv.t);
    free(e->carbon.csv.v);
}

const dc_model_type dc_model_environment = {
    .name = "environment",
    .state_size = sizeof(dc_environment),
    .params = dc_environment_params,
    .init = env_init,
    .start = env_start,
    .destroy = env_destroy,
};
