/* dcsim export: one dataset of a trace as CSV.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim export: one dataset of a trace as CSV (analysis/export.h), on
 * standard output or into a file written by sim/outfile.h's rules
 * (temporary name, renamed when complete). */
#include "cli.h"
#include "plotcli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "export.h"
#include "outfile.h"

enum { O_LIST = 256 };

static const dc_cli_opt export_opts[] = {
    {"output", 'o', "FILE.csv", 0, "write the CSV into FILE.csv (under a temporary name, renamed when complete) "
                                   "instead of standard output"},
    {"list", O_LIST, NULL, 0, "list the datasets of the trace"},
    {0},
};

static const dc_cli_cmd export_cmd = {
    .name = "export",
    .operands = "TRACE.h5 PATH\nTRACE.h5 --list",
    .doc = "Writes one dataset of a trace as CSV, every number in its shortest form that reads back exactly:\n"
           "/summary (key,value,unit), /summary/KEY, /events, /series/NAME, or any other dataset.\n",
    .opts = export_opts,
};

typedef struct export_args {
    const char *output;
    bool list;
} export_args;

static int export_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    export_args *a = ctx;
    if (key == 'o')
        a->output = arg;
    else if (key == O_LIST)
        a->list = true;
    else
        return dc_error_set(err, DC_EINTERNAL, "export: option %d not handled", key);
    return DC_OK;
}

static int write_file(dc_trace_file *t, const char *path, const char *output, dc_error *err)
{
    dc_outfile *out = dc_outfile_open(output, "CSV", err);
    if (!out)
        return err->code;
    FILE *f = dc_outfile_stream(out);
    int rc = f ? dc_export_csv(t, path, f, err) : dc_error_set(err, DC_ENOMEM, "out of memory");
    /* A write that failed (a full disk): the commit says so, naming the file. */
    if (rc != DC_OK && f && ferror(f))
        return dc_outfile_commit(out, err);
    if (rc != DC_OK) {
        dc_outfile_abort(out);
        return rc;
    }
    return dc_outfile_commit(out, err);
}

int dc_cmd_export(int argc, char **argv)
{
    export_args a = {0};
    int first = 0;
    int pr = dc_cli_parse(&export_cmd, argc, argv, export_opt, &a, false, &first);
    if (pr != DC_CLI_RUN)
        return pr;
    if (first == argc)
        return dc_cli_usage_error(&export_cmd, "which trace?");
    if (argc - first > 2)
        return dc_cli_usage_error(&export_cmd, "one dataset at a time (got '%s' and '%s')", argv[first + 1],
                                  argv[first + 2]);
    const char *trace = argv[first], *path = first + 1 < argc ? argv[first + 1] : NULL, *output = a.output;
    bool list = a.list;
    dc_error err = {0};
    /* Before reading: -o must not be the trace itself, a link, a FIFO... */
    if (output && path && !list && dc_outfile_check(output, "CSV", &trace, 1, &err) != DC_OK)
        return dc_cli_fail(&err);
    dc_trace_file *t = dc_trace_open(trace, &err);
    if (!t)
        return dc_cli_fail(&err);
    int rc;
    if (list) {
        rc = dc_export_list(t, stdout, &err);
    } else if (!path) {
        /* Say what there is to export. */
        char *paths = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&paths, &len);
        rc = m ? dc_export_list(t, m, &err) : dc_error_set(&err, DC_ENOMEM, "out of memory");
        if (m)
            fclose(m);
        if (rc == DC_OK) {
            for (char *p = paths; p && *p; p++)
                if (*p == '\n' && p[1])
                    *p = ' ';
            if (len > 0 && paths[len - 1] == '\n')
                paths[len - 1] = '\0';
            rc = dc_error_set(&err, DC_EINPUT, "export: which dataset of '%s'? It has: %s", trace, paths);
        }
        free(paths);
    } else if (output) {
        rc = write_file(t, path, output, &err);
    } else {
        rc = dc_export_csv(t, path, stdout, &err);
        if (rc == DC_OK && fflush(stdout) != 0)
            rc = dc_error_set(&err, DC_EIO, "cannot write to standard output: %s", strerror(errno));
    }
    dc_trace_close(t);
    return rc == DC_OK ? DC_EXIT_OK : dc_cli_fail(&err);
}
