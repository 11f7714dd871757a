/* The HDF5 writer of sweep files.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The HDF5 writer of sweeps (layout in sweep_write.h).  Like the trace writer
 * (sim/trace.c): file format pinned to HDF5 1.8, no object times, tables
 * chunked (about 64 KiB per chunk) with an unlimited row dimension, HDF5's
 * error printing off during the write, the output by sim/outfile.h's rules
 * (temporary name then rename).  Called
 * from one thread only (the HDF5 library here is not thread-safe). */
#include "sweep_write.h"
#include "h5image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "uncertain.h"

typedef struct writer {
    const char *path;
    dc_error *err;
    hid_t file, str_type, scalar;
} writer;

static int fail(writer *w, const char *what)
{
    if (w->err && w->err->code != DC_OK)
        return w->err->code;
    return dc_error_set(w->err, DC_EIO, "cannot write sweep '%s': %s", w->path, what);
}

/* ---- tables ------------------------------------------------------------------- */

typedef enum { C_I32, C_U64, C_F64, C_STR } ctype;

typedef struct col {
    const char *name;
    ctype type;
    const void *data; /* int32_t, uint64_t, double or const char * elements */
    size_t stride;    /* in elements */
} col;

static size_t col_size(const col *c, size_t n)
{
    switch (c->type) {
    case C_I32:
        return 4;
    case C_U64:
    case C_F64:
        return 8;
    case C_STR: {
        size_t m = 1;
        const char *const *s = c->data;
        for (size_t i = 0; i < n; i++) {
            size_t len = s[i * c->stride] ? strlen(s[i * c->stride]) + 1 : 1;
            if (len > m)
                m = len;
        }
        return m;
    }
    }
    return 0;
}

static hid_t compound(const col *cols, const size_t *off, const size_t *size, size_t k, size_t row, bool native)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, row);
    bool ok = t >= 0;
    for (size_t j = 0; j < k && ok; j++) {
        hid_t m;
        switch (cols[j].type) {
        case C_I32:
            ok = H5Tinsert(t, cols[j].name, off[j], native ? H5T_NATIVE_INT32 : H5T_STD_I32LE) >= 0;
            break;
        case C_U64:
            ok = H5Tinsert(t, cols[j].name, off[j], native ? H5T_NATIVE_UINT64 : H5T_STD_U64LE) >= 0;
            break;
        case C_F64:
            ok = H5Tinsert(t, cols[j].name, off[j], native ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE) >= 0;
            break;
        case C_STR:
            m = H5Tcopy(H5T_C_S1);
            ok = m >= 0 && H5Tset_size(m, size[j]) >= 0 && H5Tset_strpad(m, H5T_STR_NULLPAD) >= 0 &&
                 H5Tinsert(t, cols[j].name, off[j], m) >= 0;
            if (m >= 0)
                H5Tclose(m);
            break;
        }
    }
    if (!ok && t >= 0) {
        H5Tclose(t);
        t = -1;
    }
    return t;
}

/* Writes table name of n rows; *dset gets the open dataset (for attributes)
 * when dset is not NULL. */
static int write_table(writer *w, const char *name, const col *cols, size_t k, size_t n, hid_t *dset)
{
    size_t *off = calloc(k ? k : 1, sizeof *off), *size = calloc(k ? k : 1, sizeof *size);
    if (!off || !size) {
        free(off);
        free(size);
        return dc_error_set(w->err, DC_ENOMEM, "out of memory");
    }
    size_t row = 0;
    for (size_t j = 0; j < k; j++) {
        off[j] = row;
        size[j] = col_size(&cols[j], n);
        row += size[j];
    }
    unsigned char *buf = calloc(n ? n : 1, row ? row : 1);
    hid_t mem = compound(cols, off, size, k, row, true), file = compound(cols, off, size, k, row, false);
    int rc = DC_OK;
    char what[256];
    if (!buf) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = buf + i * row;
        for (size_t j = 0; j < k; j++) {
            const col *c = &cols[j];
            switch (c->type) {
            case C_I32:
                memcpy(p + off[j], (const int32_t *)c->data + i * c->stride, 4);
                break;
            case C_U64:
                memcpy(p + off[j], (const uint64_t *)c->data + i * c->stride, 8);
                break;
            case C_F64:
                memcpy(p + off[j], (const double *)c->data + i * c->stride, 8);
                break;
            case C_STR: {
                const char *s = ((const char *const *)c->data)[i * c->stride];
                if (s)
                    memcpy(p + off[j], s, strlen(s));
                break;
            }
            }
        }
    }
    hsize_t dims[1] = {n}, maxdims[1] = {H5S_UNLIMITED};
    size_t chunk_rows = row ? 65536 / row : 1;
    if (chunk_rows < 1)
        chunk_rows = 1;
    if (chunk_rows > n)
        chunk_rows = n ? n : 1;
    hsize_t chunk[1] = {chunk_rows};
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    snprintf(what, sizeof what, "could not write /%s", name);
    if (mem < 0 || file < 0 || space < 0 || dcpl < 0 || H5Pset_obj_track_times(dcpl, 0) < 0 ||
        H5Pset_chunk(dcpl, 1, chunk) < 0 ||
        (d = H5Dcreate2(w->file, name, file, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0 ||
        (n > 0 && H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0))
        rc = fail(w, what);
    if (d >= 0) {
        if (rc == DC_OK && dset)
            *dset = d;
        else
            H5Dclose(d);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
done:
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    free(buf);
    free(off);
    free(size);
    return rc;
}

static int attr_str(writer *w, hid_t obj, const char *name, const char *value)
{
    const char *v = value ? value : "";
    hid_t a = H5Acreate2(obj, name, w->str_type, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
    bool ok = a >= 0 && H5Awrite(a, w->str_type, &v) >= 0;
    if (a >= 0 && H5Aclose(a) < 0)
        ok = false;
    return ok ? DC_OK : fail(w, "could not write an attribute");
}

static int attr_num(writer *w, hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
    hid_t a = H5Acreate2(obj, name, ftype, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
    bool ok = a >= 0 && H5Awrite(a, mtype, value) >= 0;
    if (a >= 0 && H5Aclose(a) < 0)
        ok = false;
    return ok ? DC_OK : fail(w, "could not write an attribute");
}

static int attr_strings(writer *w, hid_t obj, const char *name, const char *const *v, size_t n)
{
    hsize_t dim = n;
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t a = sp >= 0 ? H5Acreate2(obj, name, w->str_type, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    bool ok = a >= 0 && (n == 0 || H5Awrite(a, w->str_type, v) >= 0);
    if (a >= 0 && H5Aclose(a) < 0)
        ok = false;
    if (sp >= 0)
        H5Sclose(sp);
    return ok ? DC_OK : fail(w, "could not write an attribute");
}

/* ---- the parts --------------------------------------------------------------- */

static int write_runs(writer *w, const dc_sweep *sw, const dc_sweep_table *t)
{
    size_t n = t->n_rows, k = t->n_cols + 3, reps = dc_sweep_reps(sw);
    int32_t *gp = malloc((n ? n : 1) * sizeof *gp), *rep = malloc((n ? n : 1) * sizeof *rep);
    uint64_t *seed = malloc((n ? n : 1) * sizeof *seed);
    col *cols = calloc(k, sizeof *cols);
    const char **units = calloc(k, sizeof *units);
    int rc = DC_OK;
    if (!gp || !rep || !seed || !cols || !units) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        gp[i] = (int32_t)(i / reps);
        rep[i] = (int32_t)(i % reps);
        seed[i] = dc_sweep_seed(sw, i % reps);
    }
    cols[0] = (col){"grid_point", C_I32, gp, 1};
    cols[1] = (col){"replication", C_I32, rep, 1};
    cols[2] = (col){"seed", C_U64, seed, 1};
    units[0] = units[1] = units[2] = "";
    for (size_t j = 0; j < t->n_cols; j++) {
        cols[j + 3] = (col){t->names[j], C_F64, t->values + j, t->n_cols};
        units[j + 3] = t->units[j];
    }
    hid_t d = -1;
    rc = write_table(w, "runs", cols, k, n, &d);
    if (rc == DC_OK) {
        rc = attr_strings(w, d, "units", units, k);
        if (rc == DC_OK)
            rc = attr_str(w, d, "doc",
                          "one row per grid point and replication (row = grid_point x reps + replication): the "
                          "grid point's values (param.*), the inputs drawn (input.*) and every summary figure");
        H5Dclose(d);
    }
done:
    free(gp);
    free(rep);
    free(seed);
    free(cols);
    free(units);
    return rc;
}

static int write_params(writer *w, const dc_sweep *sw)
{
    size_t np = dc_sweep_points(sw), na = dc_sweep_axes(sw);
    int32_t *gp = malloc(np * sizeof *gp);
    double *num = malloc((np * (na ? na : 1)) * sizeof *num);
    char **assign = calloc(np, sizeof *assign);
    col *cols = calloc(na + 2, sizeof *cols);
    int rc = DC_OK;
    if (!gp || !num || !assign || !cols) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < np && rc == DC_OK; g++) {
        gp[g] = (int32_t)g;
        size_t len = 0;
        for (size_t a = 0; a < na; a++)
            len += strlen(dc_sweep_axis_key(sw, a)) + strlen(dc_sweep_point_value(sw, g, a)) + 3;
        if (!(assign[g] = calloc(len + 1, 1))) {
            rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
            break;
        }
        for (size_t a = 0; a < na; a++) {
            num[g * na + a] = dc_sweep_point_number(sw, g, a);
            size_t at = strlen(assign[g]);
            snprintf(assign[g] + at, len + 1 - at, "%s%s=%s", a ? ", " : "", dc_sweep_axis_key(sw, a),
                     dc_sweep_point_value(sw, g, a));
        }
    }
    if (rc == DC_OK) {
        cols[0] = (col){"grid_point", C_I32, gp, 1};
        for (size_t a = 0; a < na; a++)
            cols[a + 1] = (col){dc_sweep_axis_key(sw, a), C_F64, num + a, na};
        cols[na + 1] = (col){"assignment", C_STR, assign, 1};
        rc = write_table(w, "params", cols, na + 2, np, NULL);
    }
done:
    for (size_t g = 0; assign && g < np; g++)
        free(assign[g]);
    free(assign);
    free(gp);
    free(num);
    free(cols);
    return rc;
}

static int write_inputs(writer *w, const dc_sweep *sw)
{
    const dc_scenario *sc = dc_sweep_scenario(sw, 0);
    size_t n = dc_scenario_uncertain_count(sc), m = n ? n : 1;
    const char **key = calloc(m, sizeof *key), **stream = calloc(m, sizeof *stream), **unit = calloc(m, sizeof *unit);
    char **dist = calloc(m, sizeof *dist);
    double *q = malloc(3 * m * sizeof *q);
    int rc = DC_OK;
    if (!key || !stream || !unit || !dist || !q) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n && rc == DC_OK; i++) {
        const dc_uncertain *u = dc_scenario_uncertain(sc, i);
        key[i] = u->path;
        stream[i] = u->stream + strlen("uncertain.");
        unit[i] = u->unit;
        if (!(dist[i] = malloc(256))) {
            rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
            break;
        }
        dc_uncertain_describe(u, dist[i], 256);
        q[3 * i] = dc_uncertain_quantile(u, 0.05);
        q[3 * i + 1] = dc_uncertain_quantile(u, 0.5);
        q[3 * i + 2] = dc_uncertain_quantile(u, 0.95);
    }
    if (rc == DC_OK) {
        col cols[] = {{"key", C_STR, key, 1},        {"stream", C_STR, stream, 1}, {"distribution", C_STR, dist, 1},
                      {"unit", C_STR, unit, 1},      {"p5", C_F64, q, 3},          {"p50", C_F64, q + 1, 3},
                      {"p95", C_F64, q + 2, 3}};
        rc = write_table(w, "inputs", cols, sizeof cols / sizeof cols[0], n, NULL);
    }
done:
    for (size_t i = 0; dist && i < n; i++)
        free(dist[i]);
    free(dist);
    free(key);
    free(stream);
    free(unit);
    free(q);
    return rc;
}

static int write_stats(writer *w, const dc_sweep_table *t, const dc_sweep_report *r)
{
    size_t nc = t->n_cols, n = r->points * nc;
    int32_t *gp = malloc((n ? n : 1) * 2 * sizeof *gp), *cnt = gp ? gp + (n ? n : 1) : NULL;
    const char **fig = calloc(n ? n : 1, sizeof *fig), **unit = calloc(n ? n : 1, sizeof *unit);
    double *v = malloc((n ? n : 1) * 9 * sizeof *v);
    int rc = DC_OK;
    if (!gp || !fig || !unit || !v) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < r->points; g++)
        for (size_t j = 0; j < nc; j++) {
            size_t i = g * nc + j;
            const dc_stats *s = &r->pt[g].stats[j];
            gp[i] = (int32_t)g;
            fig[i] = t->names[j];
            unit[i] = t->units[j];
            cnt[i] = (int32_t)(s->n - s->n_nan);
            double row[9] = {s->mean, s->sd, s->ci_lo, s->ci_hi, s->p5, s->p50, s->p90, s->p95, s->p99};
            memcpy(v + 9 * i, row, sizeof row);
        }
    col cols[] = {{"grid_point", C_I32, gp, 1}, {"figure", C_STR, fig, 1}, {"unit", C_STR, unit, 1},
                  {"n", C_I32, cnt, 1},         {"mean", C_F64, v, 9},     {"sd", C_F64, v + 1, 9},
                  {"ci95_lo", C_F64, v + 2, 9}, {"ci95_hi", C_F64, v + 3, 9}, {"p5", C_F64, v + 4, 9},
                  {"p50", C_F64, v + 5, 9},     {"p90", C_F64, v + 6, 9},  {"p95", C_F64, v + 7, 9},
                  {"p99", C_F64, v + 8, 9}};
    rc = write_table(w, "stats", cols, sizeof cols / sizeof cols[0], n, NULL);
done:
    free(gp);
    free(fig);
    free(unit);
    free(v);
    return rc;
}

static int write_risk(writer *w, const dc_sweep_table *t, const dc_sweep_report *r)
{
    size_t n = r->points;
    int32_t *iv = malloc(3 * n * sizeof *iv);
    double *v = malloc(5 * n * sizeof *v);
    int rc = DC_OK;
    if (!iv || !v) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < n; g++) {
        const dc_sweep_point_report *p = &r->pt[g];
        iv[3 * g] = (int32_t)g;
        iv[3 * g + 1] = (int32_t)p->miss_k;
        iv[3 * g + 2] = (int32_t)p->miss_n;
        double row[5] = {p->miss_p, p->miss_lo, p->miss_hi, p->var, p->cvar};
        memcpy(v + 5 * g, row, sizeof row);
    }
    col cols[] = {{"grid_point", C_I32, iv, 3},     {"missed", C_I32, iv + 1, 3},     {"counted", C_I32, iv + 2, 3},
                  {"p_missed", C_F64, v, 5},        {"p_missed_lo", C_F64, v + 1, 5}, {"p_missed_hi", C_F64, v + 2, 5},
                  {"var", C_F64, v + 3, 5},         {"cvar", C_F64, v + 4, 5}};
    hid_t d = -1;
    rc = write_table(w, "risk", cols, sizeof cols / sizeof cols[0], n, &d);
    if (rc == DC_OK) {
        double level = r->var_level;
        rc = attr_str(w, d, "risk_figure", r->risk_col >= 0 ? t->names[r->risk_col] : "");
        if (rc == DC_OK)
            rc = attr_num(w, d, "var_level", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &level);
        if (rc == DC_OK)
            rc = attr_str(w, d, "missed_means",
                          r->has_deadline ? "deadline.missed = 1: the job did not finish within deadline.days"
                          : r->has_miss   ? "job.completed = 0: the job did not finish within the horizon"
                                          : "");
        H5Dclose(d);
    }
done:
    free(iv);
    free(v);
    return rc;
}

static int write_sensitivity(writer *w, const dc_sweep_table *t, const dc_sweep_report *r)
{
    size_t nm = r->n_metrics, ni = r->n_inputs, n = r->points * nm * ni, m = n ? n : 1;
    int32_t *iv = malloc(2 * m * sizeof *iv);
    const char **fig = calloc(m, sizeof *fig), **in = calloc(m, sizeof *in);
    double *v = malloc(3 * m * sizeof *v);
    int rc = DC_OK;
    if (!iv || !fig || !in || !v) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    size_t i = 0;
    for (size_t g = 0; g < r->points; g++)
        for (size_t a = 0; a < nm; a++)
            for (size_t k = 0; k < ni; k++, i++) {
                iv[2 * i] = (int32_t)g;
                iv[2 * i + 1] = (int32_t)r->input_keys[k];
                fig[i] = t->names[r->metric_cols[a]];
                in[i] = r->input_names[k];
                v[3 * i] = r->pt[g].rho[a * ni + k];
                v[3 * i + 1] = r->pt[g].srrc[a * ni + k];
                v[3 * i + 2] = r->pt[g].r2[a];
            }
    col cols[] = {{"grid_point", C_I32, iv, 2}, {"figure", C_STR, fig, 1}, {"input", C_STR, in, 1},
                  {"keys", C_I32, iv + 1, 2},   {"spearman", C_F64, v, 3}, {"srrc", C_F64, v + 1, 3},
                  {"r2", C_F64, v + 2, 3}};
    rc = write_table(w, "sensitivity", cols, sizeof cols / sizeof cols[0], n, NULL);
done:
    free(iv);
    free(fig);
    free(in);
    free(v);
    return rc;
}

static int write_tornado(writer *w, const dc_tornado *tn)
{
    size_t nm = tn->n_metrics, ni = tn->n_inputs, n = tn->points * nm * ni, m = n ? n : 1;
    int32_t *gp = malloc(m * sizeof *gp);
    const char **fig = calloc(m, sizeof *fig), **in = calloc(m, sizeof *in);
    double *v = malloc(6 * m * sizeof *v);
    int rc = DC_OK;
    if (!gp || !fig || !in || !v) {
        rc = dc_error_set(w->err, DC_ENOMEM, "out of memory");
        goto done;
    }
    size_t i = 0;
    for (size_t g = 0; g < tn->points; g++)
        for (size_t a = 0; a < nm; a++)
            for (size_t k = 0; k < ni; k++, i++) {
                size_t c = (g * ni + k) * nm + a;
                gp[i] = (int32_t)g;
                fig[i] = tn->metrics[a];
                in[i] = tn->inputs[k];
                double row[6] = {tn->p_lo, tn->p_hi, tn->base[g * nm + a], tn->lo[c], tn->hi[c],
                                 dc_tornado_swing(tn, g, k, a)};
                memcpy(v + 6 * i, row, sizeof row);
            }
    col cols[] = {{"grid_point", C_I32, gp, 1}, {"figure", C_STR, fig, 1}, {"input", C_STR, in, 1},
                  {"p_lo", C_F64, v, 6},        {"p_hi", C_F64, v + 1, 6}, {"base", C_F64, v + 2, 6},
                  {"at_lo", C_F64, v + 3, 6},   {"at_hi", C_F64, v + 4, 6}, {"swing", C_F64, v + 5, 6}};
    hid_t d = -1;
    rc = write_table(w, "tornado", cols, sizeof cols / sizeof cols[0], n, &d);
    if (rc == DC_OK) {
        uint64_t reps = tn->reps;
        rc = attr_num(w, d, "reps", H5T_STD_U64LE, H5T_NATIVE_UINT64, &reps);
        H5Dclose(d);
    }
done:
    free(gp);
    free(fig);
    free(in);
    free(v);
    return rc;
}

static int write_root(writer *w, const dc_sweep_meta *m, const dc_sweep *sw, const dc_sweep_table *t,
                      const dc_sweep_report *r)
{
    /* metrics: the figures dcsim sweep printed, comma-separated, in order
     * (what dcsim plot draws by default). */
    size_t len = 1;
    for (size_t i = 0; i < r->n_metrics; i++)
        len += strlen(t->names[r->metric_cols[i]]) + 1;
    char *metrics = malloc(len);
    if (!metrics)
        return fail(w, "out of memory");
    metrics[0] = '\0';
    for (size_t i = 0; i < r->n_metrics; i++) {
        if (i)
            strcat(metrics, ",");
        strcat(metrics, t->names[r->metric_cols[i]]);
    }
    int mrc = attr_str(w, w->file, "metrics", metrics);
    free(metrics);
    if (mrc != DC_OK)
        return mrc;
    int version = DC_SWEEP_FORMAT_VERSION;
    uint64_t seed = dc_sweep_seed(sw, 0), reps = dc_sweep_reps(sw), points = dc_sweep_points(sw);
    uint64_t rows_done = dc_sweep_rows_done(sw);
    int complete = m->incomplete ? 0 : 1;
    int rc;
    if ((rc = attr_str(w, w->file, "dcsim_version", m->dcsim_version)) != DC_OK ||
        (rc = attr_num(w, w->file, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT, &version)) != DC_OK ||
        (rc = attr_str(w, w->file, "kind", "sweep")) != DC_OK ||
        (rc = attr_str(w, w->file, "scenario", m->scenario_text)) != DC_OK ||
        (rc = attr_str(w, w->file, "scenario_file", m->scenario_file)) != DC_OK ||
        (rc = attr_str(w, w->file, "command", m->command)) != DC_OK ||
        (rc = attr_num(w, w->file, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &seed)) != DC_OK ||
        (rc = attr_num(w, w->file, "reps", H5T_STD_U64LE, H5T_NATIVE_UINT64, &reps)) != DC_OK ||
        (rc = attr_num(w, w->file, "grid_points", H5T_STD_U64LE, H5T_NATIVE_UINT64, &points)) != DC_OK ||
        (rc = attr_str(w, w->file, "started_at", m->started_at)) != DC_OK ||
        (rc = attr_num(w, w->file, "complete", H5T_STD_I32LE, H5T_NATIVE_INT, &complete)) != DC_OK ||
        (rc = attr_num(w, w->file, "rows_done", H5T_STD_U64LE, H5T_NATIVE_UINT64, &rows_done)) != DC_OK)
        return rc;
    return DC_OK;
}

/* In memory, written with write(2) (sim/h5image.h): libhdf5 1.10 does not
 * survive a full disk.  The core driver's buffer is kept when the file
 * closes and written from there (dc_h5image_fapl_keep), as the trace's:
 * no copy of the image. */
static hid_t create_file(const char *tmp, dc_h5image *img)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE), fapl = dc_h5image_fapl_keep(img);
    hid_t f = -1;
    if (fcpl >= 0 && fapl >= 0 && H5Pset_obj_track_times(fcpl, 0) >= 0 &&
        H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0)
        f = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return f;
}

int dc_sweep_write_to(dc_outfile *out, const dc_sweep_meta *meta, const dc_sweep *sw, const dc_sweep_table *t,
                      const dc_sweep_report *r, const dc_tornado *tornado, dc_error *err)
{
    const char *path = dc_outfile_path(out);
    H5E_auto2_t old_func;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_func, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (err)
        dc_error_clear(err);
    writer w = {.path = path, .err = err, .file = -1, .str_type = -1, .scalar = -1};
    int rc = DC_OK;
    dc_h5image *img = dc_h5image_create();
    w.str_type = H5Tcopy(H5T_C_S1);
    if (!img)
        rc = dc_error_set(err, DC_ENOMEM, "cannot write sweep '%s': out of memory", path);
    else if (w.str_type < 0 || H5Tset_size(w.str_type, H5T_VARIABLE) < 0 ||
             H5Tset_cset(w.str_type, H5T_CSET_UTF8) < 0 || (w.scalar = H5Screate(H5S_SCALAR)) < 0)
        rc = fail(&w, "could not set up HDF5 types");
    else if ((w.file = create_file(dc_outfile_name(out), img)) < 0)
        rc = fail(&w, "could not create the file in memory");
    if (rc == DC_OK)
        rc = write_root(&w, meta, sw, t, r);
    if (rc == DC_OK)
        rc = write_runs(&w, sw, t);
    if (rc == DC_OK)
        rc = write_params(&w, sw);
    if (rc == DC_OK)
        rc = write_inputs(&w, sw);
    if (rc == DC_OK)
        rc = write_stats(&w, t, r);
    if (rc == DC_OK)
        rc = write_risk(&w, t, r);
    if (rc == DC_OK)
        rc = write_sensitivity(&w, t, r);
    if (rc == DC_OK && tornado)
        rc = write_tornado(&w, tornado);
    if (w.file >= 0 && H5Fclose(w.file) < 0 && rc == DC_OK)
        rc = fail(&w, "could not finish the file");
    char why[512];
    if (rc == DC_OK && dc_h5image_write(img, out, why, sizeof why) != 0)
        rc = dc_error_set(err, DC_EIO, "cannot write sweep '%s': %s", path, why);
    dc_h5image_destroy(img);
    if (w.scalar >= 0)
        H5Sclose(w.scalar);
    if (w.str_type >= 0)
        H5Tclose(w.str_type);
    H5Eset_auto2(H5E_DEFAULT, old_func, old_data);
    return rc;
}

int dc_sweep_write(const char *path, const dc_sweep_meta *meta, const dc_sweep *sw, const dc_sweep_table *t,
                   const dc_sweep_report *r, const dc_tornado *tornado, dc_error *err)
{
    dc_outfile *out = dc_outfile_open(path, "sweep", err);
    if (!out)
        return err ? err->code : DC_EIO;
    int rc = dc_sweep_write_to(out, meta, sw, t, r, tornado, err);
    if (rc != DC_OK) {
        dc_outfile_abort(out);
        return rc;
    }
    return dc_outfile_commit(out, err);
}
