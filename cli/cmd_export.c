/* dcsim export: one dataset of a trace as CSV.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim export: one dataset of a trace as CSV (analysis/export.h), on
 * standard output or into a file written under a temporary name and
 * renamed when complete. */
#include "cli.h"
#include "plotcli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"

static const char export_usage[] =
    "usage: dcsim export TRACE.h5 PATH [-o FILE.csv]\n"
    "       dcsim export TRACE.h5 --list\n"
    "Writes one dataset of a trace as CSV (standard output unless -o): /summary (key,value,unit),\n"
    "/summary/KEY, /events, /series/NAME, or any other dataset; --list shows them.\n";

static int write_file(dc_trace_file *t, const char *path, const char *output, dc_error *err)
{
    size_t len = strlen(output) + 48;
    char *tmp = malloc(len);
    if (!tmp)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    /* A new file with the permissions the umask gives (mkstemp's are 0600). */
    int fd = -1, e = 0;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, len, "%s.tmp.%ld.%d", output, (long)getpid(), attempt);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        e = errno;
        if (fd < 0 && e != EEXIST)
            break;
    }
    if (fd < 0) {
        free(tmp);
        return dc_error_set(err, DC_EIO, "cannot write '%s': %s", output,
                            e == ENOENT ? "its directory does not exist" : strerror(e));
    }
    FILE *f = fdopen(fd, "w");
    int rc = f ? dc_export_csv(t, path, f, err) : dc_error_set(err, DC_EIO, "cannot write '%s'", output);
    if (f && fclose(f) != 0 && rc == DC_OK)
        rc = dc_error_set(err, DC_EIO, "cannot write '%s': %s", output, strerror(errno));
    if (!f)
        close(fd);
    if (rc == DC_OK && rename(tmp, output) != 0)
        rc = dc_error_set(err, DC_EIO, "cannot write '%s': %s", output, strerror(errno));
    if (rc != DC_OK)
        unlink(tmp);
    free(tmp);
    return rc;
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
