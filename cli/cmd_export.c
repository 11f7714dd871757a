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

#include "export.h"
#include "outfile.h"

static const char export_usage[] =
    "usage: dcsim export TRACE.h5 PATH [-o FILE.csv]\n"
    "       dcsim export TRACE.h5 --list\n"
    "Writes one dataset of a trace as CSV (standard output unless -o): /summary (key,value,unit),\n"
    "/summary/KEY, /events, /series/NAME, or any other dataset; --list shows them.\n";

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
    const char *trace = NULL, *path = NULL, *output = NULL;
    bool list = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "dcsim export: option %s needs a value\n", argv[i]);
                return DC_EXIT_INPUT;
            }
            output = argv[++i];
        } else if (strcmp(argv[i], "--list") == 0) {
            list = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(export_usage, stdout);
            return DC_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "dcsim export: unknown option '%s'\n%s", argv[i], export_usage);
            return DC_EXIT_INPUT;
        } else if (!trace) {
            trace = argv[i];
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "dcsim export: one dataset at a time (got '%s' and '%s')\n", path, argv[i]);
            return DC_EXIT_INPUT;
        }
    }
    if (!trace) {
        fprintf(stderr, "dcsim export: which trace?\n%s", export_usage);
        return DC_EXIT_INPUT;
    }
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
