/* Statistics of Monte Carlo replications: mean, sd, Student-t intervals, quantiles, rank
 * correlation.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Statistics of replications (formulas in stats.h). */
#include "stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* The finite values of x[i * stride], sorted; *m their count.  NULL with
 * *m = 0 when there are none (or out of memory: *oom). */
static double *finite_sorted(const double *x, size_t n, size_t stride, size_t *m, bool *oom)
{
    *m = 0;
    *oom = false;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i * stride]))
            v[(*m)++] = x[i * stride];
    if (*m == 0) {
        free(v);
        return NULL;
    }
    gsl_sort(v, 1, *m);
    return v;
}

double dc_stats_quantile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    return gsl_stats_quantile_from_sorted_data(sorted, 1, n, p);
}

int dc_stats_compute(const double *x, size_t n, size_t stride, dc_stats *out)
{
    dc_stats s = {.n = n};
    double nan = NAN;
    s.mean = s.sd = s.ci_lo = s.ci_hi = s.min = s.max = nan;
    s.p5 = s.p50 = s.p90 = s.p95 = s.p99 = nan;
    size_t m;
    bool oom;
    double *v = finite_sorted(x, n, stride, &m, &oom);
    if (oom)
        return DC_ENOMEM;
    s.n_nan = n - m;
    if (m > 0) {
        s.mean = gsl_stats_mean(v, 1, m);
        s.min = v[0];
        s.max = v[m - 1];
        s.p5 = dc_stats_quantile_sorted(v, m, 0.05);
        s.p50 = dc_stats_quantile_sorted(v, m, 0.50);
        s.p90 = dc_stats_quantile_sorted(v, m, 0.90);
        s.p95 = dc_stats_quantile_sorted(v, m, 0.95);
        s.p99 = dc_stats_quantile_sorted(v, m, 0.99);
        if (m > 1) {
            s.sd = gsl_stats_sd_m(v, 1, m, s.mean);
            double half = gsl_cdf_tdist_Pinv(0.975, (double)(m - 1)) * s.sd / sqrt((double)m);
            s.ci_lo = s.mean - half;
            s.ci_hi = s.mean + half;
        }
    }
    free(v);
    *out = s;
    return DC_OK;
}

int dc_stats_var(const double *x, size_t n, size_t stride, double level, double *var, double *cvar)
{
    *var = *cvar = NAN;
    size_t m;
    bool oom;
    double *v = finite_sorted(x, n, stride, &m, &oom);
    if (oom)
        return DC_ENOMEM;
    if (m == 0)
        return DC_OK;
    *var = dc_stats_quantile_sorted(v, m, level);
    double sum = 0.0;
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (v[i] >= *var) {
            sum += v[i];
            k++;
        }
    *cvar = k ? sum / (double)k : *var;
    free(v);
    return DC_OK;
}

void dc_stats_proportion(size_t k, size_t n, double level, double *p, double *lo, double *hi)
{
    if (n == 0) {
        *p = *lo = *hi = NAN;
        return;
    }
    double z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * level);
    double nn = (double)n, ph = (double)k / nn;
    double denom = 1.0 + z * z / nn;
    double centre = (ph + z * z / (2.0 * nn)) / denom;
    double half = z * sqrt(ph * (1.0 - ph) / nn + z * z / (4.0 * nn * nn)) / denom;
    *p = ph;
    *lo = k == 0 || centre - half < 0.0 ? 0.0 : centre - half;
    *hi = k == n || centre + half > 1.0 ? 1.0 : centre + half;
}

double dc_stats_spearman(const double *x, size_t sx, const double *y, size_t sy, size_t n)
{
    double *a = malloc((n ? n : 1) * 4 * sizeof *a);
    if (!a)
        return NAN;
    double *b = a + n, *work = a + 2 * n;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i * sx]) && isfinite(y[i * sy])) {
            a[m] = x[i * sx];
            b[m++] = y[i * sy];
        }
    double r = NAN;
    if (m >= 3 && gsl_stats_variance(a, 1, m) > 0.0 && gsl_stats_variance(b, 1, m) > 0.0)
        r = gsl_stats_spearman(a, 1, b, 1, m, work);
    free(a);
    return r;
}

typedef struct ranked {
    double v;
    size_t i;
} ranked;

static int cmp_ranked(const void *p, const void *q)
{
    double a = ((const ranked *)p)->v, b = ((const ranked *)q)->v;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Average ranks (1..n, ties share their mean rank) of v into r. */
static void ranks(const double *v, size_t n, double *r, ranked *tmp)
{
    for (size_t i = 0; i < n; i++) {
        tmp[i].v = v[i];
        tmp[i].i = i;
    }
    qsort(tmp, n, sizeof *tmp, cmp_ranked);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && tmp[j + 1].v == tmp[i].v)
            j++;
        double avg = 0.5 * (double)(i + j) + 1.0;
        for (size_t k = i; k <= j; k++)
            r[tmp[k].i] = avg;
        i = j + 1;
    }
}

/* Standardises v in place; false when it is constant. */
static bool standardise(double *v, size_t n)
{
    double mean = gsl_stats_mean(v, 1, n), sd = gsl_stats_sd_m(v, 1, n, mean);
    if (!(sd > 0.0))
        return false;
    for (size_t i = 0; i < n; i++)
        v[i] = (v[i] - mean) / sd;
    return true;
}

int dc_stats_rank_regression(const double *x, size_t sx, size_t k, const double *y, size_t sy, size_t n,
                             double *srrc, double *r2)
{
    for (size_t j = 0; j < k; j++)
        srrc[j] = NAN;
    *r2 = NAN;
    /* rows where everything is finite */
    size_t *rows = malloc((n ? n : 1) * sizeof *rows);
    double *col = malloc((n ? n : 1) * (k + 2) * sizeof *col);
    ranked *tmp = malloc((n ? n : 1) * sizeof *tmp);
    bool *used = calloc(k ? k : 1, sizeof *used);
    if (!rows || !col || !tmp || !used) {
        free(rows);
        free(col);
        free(tmp);
        free(used);
        return DC_ENOMEM;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        bool ok = isfinite(y[i * sy]);
        for (size_t j = 0; j < k && ok; j++)
            ok = isfinite(x[i * sx + j]);
        if (ok)
            rows[m++] = i;
    }
    /* columns: ranks, standardised; y last */
    double *ry = col + k * m, *buf = col + (k + 1) * m;
    size_t p = 0;
    for (size_t i = 0; i < m; i++)
        buf[i] = y[rows[i] * sy];
    ranks(buf, m, ry, tmp);
    bool y_ok = m > 1 && standardise(ry, m);
    for (size_t j = 0; j < k && y_ok; j++) {
        for (size_t i = 0; i < m; i++)
            buf[i] = x[rows[i] * sx + j];
        ranks(buf, m, col + p * m, tmp);
        if (standardise(col + p * m, m)) {
            used[j] = true;
            p++;
        } else {
            srrc[j] = 0.0;
        }
    }
    int rc = DC_OK;
    if (y_ok && p > 0 && m >= p + 2) {
        gsl_matrix *X = gsl_matrix_alloc(m, p);
        gsl_vector *Y = gsl_vector_alloc(m), *c = gsl_vector_alloc(p);
        gsl_matrix *cov = gsl_matrix_alloc(p, p);
        gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(m, p);
        if (!X || !Y || !c || !cov || !w) {
            rc = DC_ENOMEM;
        } else {
            for (size_t i = 0; i < m; i++) {
                gsl_vector_set(Y, i, ry[i]);
                for (size_t q = 0; q < p; q++)
                    gsl_matrix_set(X, i, q, col[q * m + i]);
            }
            double chisq;
            if (gsl_multifit_linear(X, Y, c, cov, &chisq, w) == 0) {
                for (size_t j = 0, q = 0; j < k; j++)
                    if (used[j])
                        srrc[j] = gsl_vector_get(c, q++);
                /* y is standardised: total sum of squares n - 1 */
                *r2 = 1.0 - chisq / (double)(m - 1);
            }
        }
        if (w)
            gsl_multifit_linear_free(w);
        if (cov)
            gsl_matrix_free(cov);
        if (c)
            gsl_vector_free(c);
        if (Y)
            gsl_vector_free(Y);
        if (X)
            gsl_matrix_free(X);
    } else if (!y_ok) {
        for (size_t j = 0; j < k; j++)
            srrc[j] = NAN;
    }
    free(rows);
    free(col);
    free(tmp);
    free(used);
    return rc;
}
