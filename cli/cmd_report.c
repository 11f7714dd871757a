/* dcsim report (the summary stored in a trace), dcsim validate and dcsim keys.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "summary.h"
#include "trace_read.h"

int dc_cmd_report(int argc, char **argv)
{
    bool json = false, jobs = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--jobs") == 0) {
            jobs = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: dcsim report TRACE.h5 [--json | --jobs]\nPrints the summary stored in a trace, or with "
                 "--jobs its /jobs table (one line per job).");
            return DC_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "dcsim report: unknown option '%s'\n", argv[i]);
            return DC_EXIT_INPUT;
        } else if (path) {
            fprintf(stderr, "dcsim report: one trace at a time (got '%s' and '%s')\n", path, argv[i]);
            return DC_EXIT_INPUT;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fputs("dcsim report: which trace? usage: dcsim report TRACE.h5 [--json | --jobs]\n", stderr);
        return DC_EXIT_INPUT;
    }
    if (json && jobs) {
        fputs("dcsim report: --json and --jobs do not go together (dcsim export TRACE.h5 /jobs gives the table "
              "as CSV)\n", stderr);
        return DC_EXIT_INPUT;
    }
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(path, &err);
    if (!t)
        return dc_cli_fail(&err);
    dc_summary *s = dc_summary_create();
    char *file = NULL, *version = NULL;
    uint64_t seed = 0;
    double horizon_s = 0, end_s = 0;
    int status = DC_EXIT_OK;
    if (!s) {
        dc_error_set(&err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    char *kind = NULL;
    dc_error kind_err = {0};
    if (dc_trace_attr_string(t, "kind", &kind, &kind_err) == DC_OK && strcmp(kind, "sweep") == 0) {
        free(kind);
        dc_error_set(&err, DC_EINPUT,
                     "'%s' holds the results of a sweep (dcsim sweep -o), not the trace of a run: read it with "
                     "h5dump or h5py (/runs, /stats)", path);
        goto fail;
    }
    free(kind);
    if (dc_trace_read_summary(t, s, &err) != DC_OK || dc_trace_attr_string(t, "scenario_file", &file, &err) != DC_OK
        || dc_trace_attr_string(t, "dcsim_version", &version, &err) != DC_OK
        || dc_trace_attr_uint64(t, "seed", &seed, &err) != DC_OK
        || dc_trace_attr_double(t, "horizon_s", &horizon_s, &err) != DC_OK
        || dc_trace_attr_double(t, "end_s", &end_s, &err) != DC_OK)
        goto fail;
    if (jobs) {
        if (dc_report_jobs(t, path, &err) != DC_OK)
            goto fail;
    } else if (json) {
        dc_summary_write_json(s, stdout);
    } else {
        printf("trace %s: scenario %s, seed %" PRIu64 ", dcsim %s, %.1f of %.0f days simulated\n\n", path, file, seed,
               version, end_s / 86400.0, horizon_s / 86400.0);
        dc_summary_write_text(s, stdout);
    }
    goto done;
fail:
    status = dc_cli_fail(&err);
done:
    free(file);
    free(version);
    dc_summary_destroy(s);
    dc_trace_close(t);
    return status;
}

int dc_cmd_validate(int argc, char **argv)
{
    const char *file = NULL;
    const char *sets[256];
    size_t n_sets = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--set") == 0 && i + 1 < argc && n_sets < 256) {
            sets[n_sets++] = argv[++i];
        } else if (strncmp(argv[i], "--set=", 6) == 0 && n_sets < 256) {
            sets[n_sets++] = argv[i] + 6;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: dcsim validate FILE [--set KEY=VALUE]...\n"
                 "Checks a scenario (keys, types, ranges, consistency) without running it.");
            return DC_EXIT_OK;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "dcsim validate: unknown option or missing value '%s'\n", argv[i]);
            return DC_EXIT_INPUT;
        } else if (file) {
            fprintf(stderr, "dcsim validate: one file at a time (got '%s' and '%s')\n", file, argv[i]);
            return DC_EXIT_INPUT;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fputs("dcsim validate: which file? usage: dcsim validate FILE [--set KEY=VALUE]...\n", stderr);
        return DC_EXIT_INPUT;
    }
    dc_error err = {0};
    dc_scenario *sc = NULL;
    char *name = NULL;
    if (dc_cli_load(file, sets, n_sets, &sc, &name, &err) != DC_OK)
        return dc_cli_fail(&err);
    /* Building runs the models' own cross-checks (a job larger than the cluster...). */
    dc_sim *sim = NULL;
    int rc = dc_build(sc, -1, &sim, &err);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    if (rc != DC_OK) {
        free(name);
        return dc_cli_fail(&err);
    }
    printf("%s: scenario %s is valid\n", file, name);
    free(name);
    return DC_EXIT_OK;
}

int dc_cmd_keys(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("# Scenario keys\n\n"
          "Every key a dcsim scenario may contain, generated by `dcsim keys` (regenerate this file with\n"
          "`./dcsim keys > docs/scenario.md`; a test checks that it is current).  Units are in the key\n"
          "names; `[]` stands for any element of a list.  A key outside this list, a value of the wrong\n"
          "type or out of its range stops `dcsim run` and `dcsim validate` with exit status 2 and a\n"
          "message naming the file, line and key.  Time laws (`law`, `mean_h`, `median_h`, `scale_h`,\n"
          "`shape`, `sigma`) are described in sim/dist.h.\n\n",
          stdout);
    dc_scenario_write_reference(dc_schemas(), stdout);
    return DC_EXIT_OK;
}
