/* Where dcsim finds its shipped files (plot scripts, scenarios), scenarios by name, and dcsim scenarios.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The data directory of a kind of file (plots, scenarios): the source
 * tree's for the dcsim of the build tree (so that a build runs with the
 * files next to it, uninstalled), else the installed DATADIR/KIND (from
 * configure's --prefix: /usr/local/share/dcsim), else the source tree's
 * (a build tree moved away from its own binary).  $DCSIM_PLOTS overrides
 * the plots' directory.
 *
 * A scenario argument that is not a file is looked up as a name in the
 * scenarios' directory: "10k_gpu" is DIR/10k_gpu.cfg, "power/air_hot" is
 * DIR/power/air_hot.cfg.  A name that is neither stays as given, so that
 * the loader's "cannot read scenario 'x'" names what was typed. */
#include "cli.h"
#include "plotcli.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "config.h"

static bool has_file(const char *dir, const char *file)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
        return false;
    return access(path, R_OK) == 0;
}

/* The directory DIR/kind holding probe; malloc'd, never NULL unless out of memory. */
static char *data_dir(const char *kind, const char *probe)
{
    char dir[PATH_MAX];
#if defined(DC_SRCDIR) && defined(DC_BUILDDIR)
    /* The dcsim of the build tree uses the files of its sources. */
    char *self = realpath("/proc/self/exe", NULL);
    char *built = realpath(DC_BUILDDIR "/dcsim", NULL);
    bool in_tree = self && built && strcmp(self, built) == 0;
    free(self);
    free(built);
    snprintf(dir, sizeof dir, "%s/%s", DC_SRCDIR, kind);
    if (in_tree && has_file(dir, probe))
        return strdup(dir);
#endif
    snprintf(dir, sizeof dir, "%s/%s", DC_DATADIR, kind);
    if (has_file(dir, probe))
        return strdup(dir);
#ifdef DC_SRCDIR
    char src[PATH_MAX];
    snprintf(src, sizeof src, "%s/%s", DC_SRCDIR, kind);
    if (has_file(src, probe))
        return strdup(src);
#endif
    return strdup(dir);
}

char *dc_cli_plot_dir(void)
{
    const char *env = getenv("DCSIM_PLOTS");
    if (env && env[0])
        return strdup(env);
    return data_dir("plots", "style.gp");
}

char *dc_cli_scenario_dir(void)
{
    return data_dir("scenarios", "10k_gpu.cfg");
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int dc_cli_scenario_path(const char *arg, char **path, dc_error *err)
{
    *path = NULL;
    size_t len = strlen(arg);
    bool cfg = len > 4 && strcmp(arg + len - 4, ".cfg") == 0;
    if (!is_file(arg) && arg[0] != '/' && strncmp(arg, "./", 2) != 0 && strncmp(arg, "../", 3) != 0) {
        char *dir = dc_cli_scenario_dir();
        if (!dir)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        size_t size = strlen(dir) + len + 8;
        char *named = malloc(size);
        if (named)
            snprintf(named, size, "%s/%s%s", dir, arg, cfg ? "" : ".cfg");
        free(dir);
        if (!named)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        if (is_file(named)) {
            *path = named;
            return DC_OK;
        }
        free(named);
    }
    if (!(*path = strdup(arg)))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

/* ---- dcsim scenarios ------------------------------------------------------------- */

typedef struct found {
    char **names; /* relative, without .cfg */
    size_t n, cap;
} found;

static int add_name(found *f, const char *rel)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        char **p = realloc(f->names, cap * sizeof *p);
        if (!p)
            return DC_ENOMEM;
        f->names = p;
        f->cap = cap;
    }
    size_t len = strlen(rel) - 4;
    if (!(f->names[f->n] = strndup(rel, len)))
        return DC_ENOMEM;
    f->n++;
    return DC_OK;
}

/* The .cfg files of dir/rel and of its subdirectories (one level: the sets). */
static int walk(const char *dir, const char *rel, int depth, found *f)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s%s%s", dir, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d)
        return DC_OK;
    int rc = DC_OK;
    struct dirent *e;
    while (rc == DC_OK && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[PATH_MAX], full[PATH_MAX * 2];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(full, sizeof full, "%s/%s", dir, sub);
        size_t len = strlen(e->d_name);
        struct stat st;
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth == 0)
            rc = walk(dir, sub, depth + 1, f);
        else if (S_ISREG(st.st_mode) && len > 4 && strcmp(e->d_name + len - 4, ".cfg") == 0)
            rc = add_name(f, sub);
    }
    closedir(d);
    return rc;
}

/* Top-level scenarios first, then the sets, each alphabetically. */
static int by_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    bool xs = strchr(x, '/') != NULL, ys = strchr(y, '/') != NULL;
    if (xs != ys)
        return xs ? 1 : -1;
    return strcmp(x, y);
}

/* The first sentence of the file's opening comment, cut to fit max - 1
 * characters at a word, with " ..." where it was cut. */
static void describe(const char *path, char *out, size_t max)
{
    char text[1024] = "";
    size_t len = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        char line[512];
        while (len < sizeof text - 1 && fgets(line, sizeof line, f) && line[0] == '#') {
            char *t = line + 1;
            while (*t == ' ')
                t++;
            t[strcspn(t, "\n")] = '\0';
            if (!*t) {
                if (len)
                    break;
                continue;
            }
            int w = snprintf(text + len, sizeof text - len, "%s%s", len ? " " : "", t);
            len = w > 0 && (size_t)w < sizeof text - len ? len + (size_t)w : sizeof text - 1;
            if (strstr(text, ". "))
                break;
        }
        fclose(f);
    }
    char *stop = strstr(text, ". ");
    if (stop)
        stop[1] = '\0';
    if (strlen(text) >= max) {
        text[max - 5] = '\0';
        char *sp = strrchr(text, ' ');
        strcpy(sp ? sp : text + max - 5, " ...");
    }
    snprintf(out, max, "%s", text);
}

static const dc_cli_cmd scenarios_cmd = {
    .name = "scenarios",
    .operands = "",
    .doc = "Lists the shipped scenarios: the name that dcsim run, validate, mttf and sweep accept in place of\n"
           "a file (run 10k_gpu, sweep invest/programme), and the first line of each file's description.\n",
};

static int no_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    (void)ctx;
    (void)arg;
    return dc_error_set(err, DC_EINTERNAL, "scenarios: option %d not handled", key);
}

int dc_cmd_scenarios(int argc, char **argv)
{
    int first = 0;
    int pr = dc_cli_parse(&scenarios_cmd, argc, argv, no_opt, NULL, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (first < argc)
        return dc_cli_usage_error(&scenarios_cmd, "takes no operand (got '%s')", argv[first]);
    char *dir = dc_cli_scenario_dir();
    found f = {0};
    dc_error err = {0};
    int rc = dir ? walk(dir, "", 0, &f) : DC_ENOMEM;
    if (rc != DC_OK) {
        dc_error_set(&err, DC_ENOMEM, "out of memory");
    } else if (f.n == 0) {
        dc_error_set(&err, DC_EIO, "no scenarios in '%s' (is dcsim installed? make install)", dir);
    } else {
        qsort(f.names, f.n, sizeof *f.names, by_name);
        int w = 0;
        for (size_t i = 0; i < f.n; i++)
            w = (int)strlen(f.names[i]) > w ? (int)strlen(f.names[i]) : w;
        printf("Scenarios in %s (dcsim run NAME):\n\n", dir);
        for (size_t i = 0; i < f.n; i++) {
            char path[PATH_MAX], what[80];
            snprintf(path, sizeof path, "%s/%s.cfg", dir, f.names[i]);
            describe(path, what, sizeof what - (size_t)w);
            printf("  %-*s  %s\n", w, f.names[i], what);
        }
    }
    for (size_t i = 0; i < f.n; i++)
        free(f.names[i]);
    free(f.names);
    free(dir);
    return err.code ? dc_cli_fail(&err) : DC_EXIT_OK;
}
