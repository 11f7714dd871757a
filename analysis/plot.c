/* The machinery of dcsim plot: what a kind needs, data directory, running gnuplot, placing the
 * figure.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The machinery of dcsim plot (plot.h): checking what a kind needs, the
 * data directory and setup.gp, running gnuplot, putting the figure in
 * place.  gnuplot runs as a child process (posix_spawn, so a missing
 * program is an error code here, not an exit in a forked child) with its
 * input from /dev/null and its output in a log that a failure quotes. */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libconfig.h>

#include "outfile.h"
#include "scenario.h"

extern char **environ;

struct dc_plot_data {
    char *dir; /* ends with '/' */
    char **files;
    size_t n_files, cap_files;
    FILE *vars;
    char *vars_text;
    size_t vars_len;
    int height_px;
    const char *metric;
};

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

const dc_plot_kind *dc_plot_kind_find(const char *name)
{
    for (size_t i = 0; name && i < dc_plot_kind_count; i++)
        if (strcmp(dc_plot_kinds[i].name, name) == 0)
            return &dc_plot_kinds[i];
    return NULL;
}

/* ---- what a kind needs ----------------------------------------------------------- */

static bool summary_has(const dc_summary *s, const char *key)
{
    size_t len = strlen(key);
    if (len > 0 && key[len - 1] == '*') {
        for (size_t i = 0; i < dc_summary_count(s); i++)
            if (strncmp(dc_summary_key(s, i), key, len - 1) == 0)
                return true;
        return false;
    }
    double v;
    return dc_summary_get(s, key, &v);
}

static const char *run_name(const dc_plot_run *r)
{
    return r->trace ? dc_trace_filename(r->trace) : r->label;
}

int dc_plot_check(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_error *err)
{
    if (!k || !runs || n == 0)
        return dc_error_set(err, DC_EINPUT, "no trace to plot");
    if ((k->input == DC_PLOT_ONE || k->input == DC_PLOT_SWEEP) && n != 1)
        return dc_error_set(err, DC_EINPUT, "the figure '%s' draws one trace (got %zu)", k->name, n);
    for (size_t i = 0; i < n; i++) {
        const dc_plot_run *r = &runs[i];
        for (size_t j = 0; j < DC_PLOT_MAX_NEEDS && k->needs[j]; j++) {
            const char *need = k->needs[j];
            if (strncmp(need, "/summary/", 9) == 0) {
                if (r->summary && summary_has(r->summary, need + 9))
                    continue;
                return dc_error_set(err, DC_EINPUT, "%s '%s' has no dataset %s, which the figure '%s' needs",
                                    r->trace ? "trace" : "run", run_name(r), need, k->name);
            }
            if (!r->trace)
                return dc_error_set(err, DC_EINPUT,
                                    "the figure '%s' needs the dataset %s of a trace; run '%s' has only a summary",
                                    k->name, need, r->label);
            /* "PATH+": the table must have a row */
            char path[256];
            size_t len = strlen(need);
            bool rows = len > 1 && need[len - 1] == '+';
            snprintf(path, sizeof path, "%.*s", (int)(rows ? len - 1 : len), need);
            bool has = false;
            int rc = dc_trace_has_dataset(r->trace, path, &has, err);
            if (rc != DC_OK)
                return rc;
            if (!has)
                return dc_error_set(err, DC_EINPUT, "%s '%s' has no dataset %s, which the figure '%s' needs",
                                    k->input == DC_PLOT_SWEEP ? "file" : "trace", dc_trace_filename(r->trace), path,
                                    k->name);
            if (rows) {
                dc_table *tab = dc_table_create();
                if (!tab)
                    return dc_error_set(err, DC_ENOMEM, "out of memory");
                rc = dc_trace_read_table(r->trace, path, tab, err);
                size_t n_rows = rc == DC_OK ? dc_table_rows(tab) : 0;
                dc_table_destroy(tab);
                if (rc != DC_OK)
                    return rc;
                if (n_rows == 0)
                    return dc_error_set(err, DC_EINPUT, "%s '%s' has no rows in %s%s, which the figure '%s' needs",
                                        k->input == DC_PLOT_SWEEP ? "file" : "trace", dc_trace_filename(r->trace),
                                        path,
                                        strcmp(path, "/inputs") == 0
                                            ? " (no uncertain input: the scenario has no distribution)"
                                            : "",
                                        k->name);
            }
        }
    }
    return DC_OK;
}

/* ---- data directory and variables ---------------------------------------------- */

static int remember(dc_plot_data *d, const char *path)
{
    if (d->n_files == d->cap_files) {
        size_t cap = d->cap_files ? 2 * d->cap_files : 8;
        char **f = realloc(d->files, cap * sizeof *f);
        if (!f)
            return DC_ENOMEM;
        d->files = f;
        d->cap_files = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return DC_ENOMEM;
    d->files[d->n_files++] = copy;
    return DC_OK;
}

static char *join(const char *a, const char *b)
{
    size_t len = strlen(a) + strlen(b) + 1;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s", a, b);
    return s;
}

FILE *dc_plot_data_open(dc_plot_data *d, const char *name, dc_error *err)
{
    if (!name[0] || strchr(name, '/')) {
        dc_error_set(err, DC_EINTERNAL, "bad data file name '%s'", name);
        return NULL;
    }
    char *path = join(d->dir, name);
    if (!path || remember(d, path) != DC_OK) {
        free(path);
        nomem(err);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        dc_error_set(err, DC_EIO, "cannot write '%s': %s", path, strerror(errno));
    free(path);
    return f;
}

int dc_plot_data_close(dc_plot_data *d, FILE *f, dc_error *err)
{
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return dc_error_set(err, DC_EIO, "cannot write the data of the figure in '%s'", d->dir);
    return DC_OK;
}

/* A gnuplot single-quoted string: '' stands for a quote; control
 * characters become spaces. */
static void gp_string(FILE *out, const char *s)
{
    fputc('\'', out);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if (*p == '\'')
            fputs("''", out);
        else if (*p < 0x20 || *p == 0x7f)
            fputc(' ', out);
        else
            fputc(*p, out);
    }
    fputc('\'', out);
}

static void gp_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("NaN", out);
}

void dc_plot_var_string(dc_plot_data *d, const char *name, const char *value)
{
    fprintf(d->vars, "%s = ", name);
    gp_string(d->vars, value ? value : "");
    fputc('\n', d->vars);
}

void dc_plot_var_number(dc_plot_data *d, const char *name, double value)
{
    fprintf(d->vars, "%s = ", name);
    gp_number(d->vars, value);
    fputc('\n', d->vars);
}

void dc_plot_var_strings(dc_plot_data *d, const char *name, const char *const *values, size_t n)
{
    fprintf(d->vars, "array %s[%zu] = [", name, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", d->vars);
        gp_string(d->vars, values[i]);
    }
    if (n == 0)
        fputs("''", d->vars);
    fputs("]\n", d->vars);
}

void dc_plot_var_numbers(dc_plot_data *d, const char *name, const double *values, size_t n)
{
    fprintf(d->vars, "array %s[%zu] = [", name, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", d->vars);
        gp_number(d->vars, values[i]);
    }
    if (n == 0)
        fputs("NaN", d->vars);
    fputs("]\n", d->vars);
}

const char *dc_plot_metric(const dc_plot_data *d)
{
    return d->metric;
}

void dc_plot_set_height(dc_plot_data *d, int height_px)
{
    if (height_px > 0)
        d->height_px = height_px;
}

void dc_plot_time_unit(double end_s, double *scale_s, const char **unit)
{
    bool hours = !(end_s > 4 * 86400.0);
    *scale_s = hours ? 3600.0 : 86400.0;
    *unit = hours ? "hours" : "days";
}

const char *dc_plot_terminal(const char *output, const char **fmt)
{
    const char *dot = output ? strrchr(output, '.') : NULL;
    const char *slash = output ? strrchr(output, '/') : NULL;
    if (!dot || (slash && dot < slash))
        return NULL;
    static const struct {
        const char *ext, *fmt, *term;
    } terms[] = {
        {".png", "png", "pngcairo"},
        {".svg", "svg", "svg"},
        {".pdf", "pdf", "pdfcairo"},
    };
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        if (strcasecmp(dot, terms[i].ext) == 0) {
            if (fmt)
                *fmt = terms[i].fmt;
            return terms[i].term;
        }
    return NULL;
}

/* ---- rendering ------------------------------------------------------------------ */

static void write_terminal(FILE *f, const char *term, int w, int h)
{
    fputs("set encoding utf8\n", f);
    if (strcmp(term, "pngcairo") == 0)
        fprintf(f, "set terminal pngcairo size %d,%d font 'Sans,10' noenhanced background '#ffffff'\n", w, h);
    else if (strcmp(term, "svg") == 0)
        fprintf(f, "set terminal svg size %d,%d dynamic font 'Sans,10' noenhanced background '#ffffff'\n", w, h);
    else
        fprintf(f, "set terminal pdfcairo size %.2fin,%.2fin font 'Sans,7' noenhanced\n", w / 100.0,
                h / 100.0);
}

/* The last part of gnuplot's log, for an error message. */
static void log_tail(const char *log_path, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(log_path, "r");
    if (!f)
        return;
    char all[4096];
    size_t n = fread(all, 1, sizeof all - 1, f);
    fclose(f);
    all[n] = '\0';
    /* Trim blank lines; keep the end, where gnuplot says what went wrong. */
    while (n > 0 && (all[n - 1] == '\n' || all[n - 1] == ' '))
        all[--n] = '\0';
    const char *start = n + 1 > size ? all + n - (size - 1) : all;
    size_t len = strlen(start);
    memcpy(buf, start, len + 1);
}

/* Quotes s for a POSIX shell (for the plot.sh kept with the data). */
static void sh_quote(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

static bool cancelled(const dc_plot_opts *o)
{
    return o->cancel && *o->cancel;
}

static int interrupted(dc_error *err)
{
    return dc_error_set(err, DC_EINTERNAL, "interrupted");
}

/* SIGINT and SIGTERM held (with a guard: see dc_plot_guard), the mask
 * before in *old; hold_end restores it. */
static void hold(const dc_plot_opts *o, sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    if (o->guard) {
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
    }
    pthread_sigmask(SIG_BLOCK, &block, old);
}

static void hold_end(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void tell_temp(const dc_plot_opts *o, const char *path, bool dir, bool made)
{
    if (o->guard && o->guard->temp && path)
        o->guard->temp(path, dir, made);
}

static void tell_child(const dc_plot_opts *o, pid_t pid)
{
    if (o->guard && o->guard->child)
        o->guard->child(pid);
}

static int run_gnuplot(const dc_plot_opts *o, char *const argv[], const char *log_path,
                       const char *script, dc_error *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return nomem(err);
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return nomem(err);
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    /* gnuplot told to the guard before a signal can end dcsim, and started
     * with the mask dcsim had before the hold */
    sigset_t old;
    hold(o, &old);
    posix_spawnattr_setsigmask(&attr, &old);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int e = posix_spawn(&pid, o->gnuplot, &fa, &attr, argv, environ);
    if (e == 0)
        tell_child(o, pid);
    hold_end(&old);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0)
        return dc_error_set(err, DC_EINPUT,
                            "cannot run gnuplot '%s': %s; install gnuplot (Debian: apt-get install "
                            "gnuplot-nox) or set DCSIM_GNUPLOT to the program",
                            o->gnuplot, strerror(e));
    int status = 0;
    for (;;) {
        /* With a cancel flag, polled every 10 ms (a signal that came just
         * before a blocking wait would not interrupt it). */
        pid_t w = waitpid(pid, &status, o->cancel ? WNOHANG : 0);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            tell_child(o, 0);
            return dc_error_set(err, DC_EINTERNAL, "waiting for gnuplot: %s", strerror(errno));
        }
        if (cancelled(o)) {
            kill(pid, SIGKILL); /* it writes only the temporary figure, which goes */
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            tell_child(o, 0);
            return interrupted(err);
        }
        if (w == 0)
            nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    }
    tell_child(o, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return DC_OK;
    char tail[700];
    log_tail(log_path, tail, sizeof tail);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !tail[0])
        return dc_error_set(err, DC_EINPUT,
                            "cannot run gnuplot '%s'; install gnuplot (Debian: apt-get install "
                            "gnuplot-nox) or set DCSIM_GNUPLOT to the program",
                            o->gnuplot);
    if (WIFSIGNALED(status))
        return dc_error_set(err, DC_EINPUT, "gnuplot '%s' was killed by signal %d while drawing %s%s%s",
                            o->gnuplot, WTERMSIG(status), script, tail[0] ? ":\n" : "", tail);
    return dc_error_set(err, DC_EINPUT, "gnuplot '%s' failed (exit status %d) on %s%s%s", o->gnuplot,
                        WEXITSTATUS(status), script, tail[0] ? ":\n" : "", tail);
}

/* Whether the figure gnuplot wrote is whole: a full disk or a file-size
 * limit truncates it without gnuplot noticing (its drivers ignore write
 * errors and it exits 0).  Each format ends with a known trailer: PNG its
 * IEND chunk, PDF "%%EOF", SVG "</svg>". */
static bool figure_complete(const char *path, const char *fmt)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char tail[64];
    size_t n = 0;
    if (fseek(f, -(long)sizeof tail, SEEK_END) != 0)
        rewind(f);
    n = fread(tail, 1, sizeof tail, f);
    fclose(f);
    if (strcmp(fmt, "png") == 0)
        return n >= 12 && memcmp(tail + n - 12, "\0\0\0\0IEND\xae\x42\x60\x82", 12) == 0;
    const char *end = strcmp(fmt, "pdf") == 0 ? "%%EOF" : strcmp(fmt, "svg") == 0 ? "</svg>" : NULL;
    if (!end)
        return true;
    size_t m = strlen(end);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(tail + i, end, m) == 0)
            return true;
    return false;
}

static int make_data_dir(const dc_plot_opts *o, char **dir, dc_error *err)
{
    if (o->keep_dir) {
        if (mkdir(o->keep_dir, 0755) != 0 && errno != EEXIST)
            return dc_error_set(err, DC_EIO, "cannot create directory '%s': %s", o->keep_dir,
                                strerror(errno));
        char *abs = realpath(o->keep_dir, NULL);
        if (!abs)
            return dc_error_set(err, DC_EIO, "cannot use directory '%s': %s", o->keep_dir,
                                strerror(errno));
        *dir = join(abs, "/");
        free(abs);
        return *dir ? DC_OK : nomem(err);
    }
    const char *base = o->tmp_dir ? o->tmp_dir : getenv("TMPDIR");
    if (!base || !base[0])
        base = "/tmp";
    char *tmpl = join(base, "/dcsim-plot-XXXXXX");
    if (!tmpl)
        return nomem(err);
    sigset_t old;
    hold(o, &old);
    if (!mkdtemp(tmpl)) {
        int e = errno;
        hold_end(&old);
        free(tmpl);
        return dc_error_set(err, DC_EIO, "cannot create a temporary directory in '%s': %s", base,
                            strerror(e));
    }
    tell_temp(o, tmpl, true, true);
    hold_end(&old);
    *dir = join(tmpl, "/");
    free(tmpl);
    return *dir ? DC_OK : nomem(err);
}

static int check_readable(const char *path, dc_error *err)
{
    if (access(path, R_OK) == 0)
        return DC_OK;
    return dc_error_set(err, DC_EIO,
                        "cannot read the gnuplot script '%s': %s (set DCSIM_PLOTS to dcsim's plots/ "
                        "directory)",
                        path, strerror(errno));
}

int dc_plot_render(const dc_plot_kind *k, const dc_plot_run *runs, size_t n,
                   const dc_plot_opts *o, dc_error *err)
{
    if (!k || !o || !o->output || !o->gnuplot || !o->script_dir)
        return dc_error_set(err, DC_EINTERNAL, "dc_plot_render: bad arguments");
    const char *fmt = NULL;
    const char *term = dc_plot_terminal(o->output, &fmt);
    if (!term)
        return dc_error_set(err, DC_EINPUT,
                            "cannot tell the format of '%s': name the figure .png, .svg or .pdf", o->output);
    int rc = dc_plot_check(k, runs, n, err);
    if (rc != DC_OK)
        return rc;

    char *style = NULL, *script = NULL, *setup = NULL, *log = NULL, *setout = NULL;
    dc_outfile *out = NULL;
    const char *tmp_out = NULL;
    char *sh = NULL, *temp_fig = NULL; /* the temporary figure's name, told to the guard */
    dc_plot_data d = {.height_px = k->height_px > 0 ? k->height_px : 600, .metric = o->metric};
    bool keep = o->keep_dir != NULL;
    style = join(o->script_dir, "/style.gp");
    script = join(o->script_dir, k->script[0] == '/' ? "" : "/");
    if (script) {
        char *s = join(script, k->script);
        free(script);
        script = s;
    }
    if (!style || !script) {
        rc = nomem(err);
        goto done;
    }
    if ((rc = check_readable(style, err)) != DC_OK || (rc = check_readable(script, err)) != DC_OK)
        goto done;
    {
        const char *inputs[64];
        size_t n_in = 0;
        for (size_t i = 0; i < n && n_in < 64; i++)
            if (runs[i].trace)
                inputs[n_in++] = dc_trace_filename(runs[i].trace);
        if ((rc = dc_outfile_check(o->output, "figure", inputs, n_in, err)) != DC_OK)
            goto done;
    }
    if (cancelled(o)) {
        rc = interrupted(err);
        goto done;
    }
    sigset_t old;
    hold(o, &old);
    out = dc_outfile_open_named(o->output, "figure", err); /* gnuplot writes it by name */
    if (out)
        tell_temp(o, dc_outfile_temp_name(out), false, true);
    hold_end(&old);
    if (!out) {
        rc = err ? err->code : DC_EIO;
        goto done;
    }
    tmp_out = dc_outfile_name(out);
    temp_fig = dc_outfile_temp_name(out) ? strdup(dc_outfile_temp_name(out)) : NULL;
    if ((rc = make_data_dir(o, &d.dir, err)) != DC_OK)
        goto done;
    d.vars = open_memstream(&d.vars_text, &d.vars_len);
    if (!d.vars) {
        rc = nomem(err);
        goto done;
    }

    /* Variables every script gets, then the kind's own. */
    const dc_plot_run *r0 = &runs[0];
    double tscale;
    const char *tunit;
    dc_plot_time_unit(r0->end_s, &tscale, &tunit);
    dc_plot_var_string(&d, "datadir", d.dir);
    dc_plot_var_string(&d, "scenario", r0->scenario ? r0->scenario : "");
    dc_plot_var_string(&d, "label", r0->label ? r0->label : "");
    dc_plot_var_number(&d, "seed", (double)r0->seed);
    dc_plot_var_number(&d, "nruns", (double)n);
    dc_plot_var_string(&d, "fmt", fmt);
    dc_plot_var_number(&d, "tscale", tscale);
    dc_plot_var_string(&d, "tunit", tunit);
    dc_plot_var_number(&d, "tend", r0->end_s / tscale);
    rc = k->export_fn(k, runs, n, &d, err);
    fclose(d.vars);
    d.vars = NULL;
    if (rc != DC_OK)
        goto done;

    setup = join(d.dir, "setup.gp");
    log = join(d.dir, "gnuplot.log");
    if (!setup || !log || remember(&d, setup) != DC_OK || remember(&d, log) != DC_OK) {
        rc = nomem(err);
        goto done;
    }
    FILE *f = fopen(setup, "w");
    if (!f) {
        rc = dc_error_set(err, DC_EIO, "cannot write '%s': %s", setup, strerror(errno));
        goto done;
    }
    fprintf(f, "# written by dcsim plot --kind %s: terminal and data of the figure\n", k->name);
    write_terminal(f, term, k->width_px, d.height_px);
    fwrite(d.vars_text, 1, d.vars_len, f);
    if (ferror(f) | (fclose(f) != 0)) {
        rc = dc_error_set(err, DC_EIO, "cannot write '%s'", setup);
        goto done;
    }
    if (keep) {
        /* The command that redraws the figure from the kept data. */
        sh = join(d.dir, "plot.sh");
        FILE *s = sh ? fopen(sh, "w") : NULL;
        if (s) {
            char *abs_out = realpath(".", NULL);
            fputs("#!/bin/sh\n# Redraws the figure from this directory's data (written by dcsim plot).\n", s);
            fputs("exec ", s);
            sh_quote(s, o->gnuplot);
            fputc(' ', s);
            sh_quote(s, setup);
            fputs(" -e \"set output '", s);
            if (o->output[0] != '/' && abs_out) {
                fputs(abs_out, s);
                fputc('/', s);
            }
            fputs(o->output, s);
            fputs("'\" ", s);
            sh_quote(s, style);
            fputc(' ', s);
            sh_quote(s, script);
            fputc('\n', s);
            free(abs_out);
            fclose(s);
            chmod(sh, 0755);
        }
    }

    {
        size_t len = strlen(tmp_out) * 2 + 32;
        setout = malloc(len);
        if (!setout) {
            rc = nomem(err);
            goto done;
        }
        char *p = setout + snprintf(setout, len, "set output '");
        for (const char *q = tmp_out; *q; q++) {
            if (*q == '\'')
                *p++ = '\'';
            *p++ = *q;
        }
        snprintf(p, len - (size_t)(p - setout), "'");
    }
    char *argv[] = {(char *)o->gnuplot, setup, "-e", setout, style, script, NULL};
    rc = run_gnuplot(o, argv, log, script, err);
    if (rc == DC_OK && !dc_outfile_in_place(out)) {
        struct stat st;
        if (stat(tmp_out, &st) != 0 || st.st_size == 0)
            rc = dc_error_set(err, DC_EINPUT, "gnuplot '%s' wrote nothing for %s", o->gnuplot, script);
        else if (!figure_complete(tmp_out, fmt))
            rc = dc_error_set(err, DC_EIO,
                              "cannot write figure '%s': gnuplot '%s' left it incomplete (%lld bytes, no %s "
                              "trailer): is the disk full or a file-size limit (ulimit -f) reached?",
                              o->output, o->gnuplot, (long long)st.st_size, fmt);
    }
    if (rc == DC_OK && cancelled(o))
        rc = interrupted(err); /* after gnuplot, before the rename: no figure either */
    if (rc == DC_OK) {
        rc = dc_outfile_commit(out, err);
        out = NULL;
    }

done:
    if (d.vars)
        fclose(d.vars);
    dc_outfile_abort(out); /* NULL after a commit */
    tell_temp(o, temp_fig, false, false);
    for (size_t i = 0; i < d.n_files; i++) {
        if (!keep)
            unlink(d.files[i]);
        free(d.files[i]);
    }
    if (d.dir && !keep) {
        rmdir(d.dir);
        size_t len = strlen(d.dir);
        d.dir[len - 1] = '\0'; /* as made and told, without its '/' */
        tell_temp(o, d.dir, true, false);
    }
    if (keep && log)
        unlink(log);
    free(d.files);
    free(d.vars_text);
    free(d.dir);
    free(style);
    free(script);
    free(setup);
    free(log);
    free(setout);
    free(sh);
    free(temp_fig);
    return rc;
}

char *dc_plot_scenario_name(const char *scenario_text, const char *scenario_file)
{
    char *name = NULL;
    if (scenario_text) {
        config_t cfg;
        config_init(&cfg);
        const char *given = NULL;
        if (config_read_string(&cfg, scenario_text) == CONFIG_TRUE &&
            config_lookup_string(&cfg, "name", &given) == CONFIG_TRUE && given[0])
            name = strdup(given);
        config_destroy(&cfg);
        if (name)
            return name;
    }
    const char *f = scenario_file && scenario_file[0] ? scenario_file : "dcsim";
    const char *slash = strrchr(f, '/');
    const char *b = slash ? slash + 1 : f;
    size_t len = strlen(b);
    if (len > 4 && strcmp(b + len - 4, ".cfg") == 0)
        len -= 4;
    /* "(embedded 10k_gpu.cfg)" */
    if (b[0] == '(' && strchr(b, ' ')) {
        b = strchr(b, ' ') + 1;
        len = strcspn(b, ".)");
    }
    name = malloc(len + 1);
    if (name) {
        memcpy(name, b, len);
        name[len] = '\0';
    }
    return name;
}

int dc_plot_scenario_number(const char *scenario_text, const char *key, double *value)
{
    if (!scenario_text)
        return DC_EINPUT;
    config_t cfg;
    config_init(&cfg);
    int rc = DC_EINPUT;
    if (config_read_string(&cfg, scenario_text) == CONFIG_TRUE) {
        const config_setting_t *s = config_lookup(&cfg, key);
        if (dc_scenario_number(s, value))
            rc = DC_OK;
    }
    config_destroy(&cfg);
    return rc;
}
