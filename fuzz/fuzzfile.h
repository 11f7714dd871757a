/* The shared body of the harnesses whose input is a data file that a scenario names.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* fuzz_tracemap, fuzz_swf and fuzz_failurelog: the input's first byte picks
 * one of the harness's scenario groups (each with a %s for the file), the
 * rest is the file, written to a temporary file because the scenario names
 * it.  The contract (docs/errors.md): the scenario base + group is valid
 * whatever the file holds; it builds and runs, or it is refused with
 * DC_EINPUT and a message that starts with the scenario's name (base.cfg:)
 * and names the file and a line (PATH:LINE), or says the file has no line
 * at all (PATH: no header line); anything else aborts.  fuzz_envcsv writes
 * its file with dc_fuzz_write_temp too.  Header-only: run.sh compiles each
 * harness alone with the core. */
#ifndef DC_FUZZFILE_H
#define DC_FUZZFILE_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "registry.h"
#include "scenario.h"
#include "sim.h"

/* bytes[0..n) into a new temporary file named from the template path
 * (ending in XXXXXX, replaced); false (nothing left behind) when it cannot
 * be made. */
static inline bool dc_fuzz_write_temp(char *path, const uint8_t *bytes, size_t n)
{
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(path);
        return false;
    }
    fwrite(bytes, 1, n, f);
    fclose(f);
    return true;
}

static inline void dc_fuzz_check_refusal(const char *harness, int rc, const char *msg, const char *path)
{
    const char *p = strstr(msg, path);
    if (rc != DC_EINPUT || strncmp(msg, "base.cfg:", 9) != 0 || !p) {
        fprintf(stderr, "%s: status %d, message \"%s\"\n", harness, rc, msg);
        abort();
    }
    p += strlen(path);
    if (!(p[0] == ':' && isdigit((unsigned char)p[1])) && strncmp(p, ": no header line", 16) != 0) {
        fprintf(stderr, "%s: no line in \"%s\"\n", harness, msg);
        abort();
    }
}

/* One input: groups[data[0] % n_groups] after base, the file data[1..size). */
static inline int dc_fuzz_file_run(const char *harness, const uint8_t *data, size_t size, const char *base,
                                   const char *const *groups, size_t n_groups)
{
    if (size < 1)
        return 0;
    char path[128];
    snprintf(path, sizeof path, "/tmp/dcsim-%s-XXXXXX", harness);
    if (!dc_fuzz_write_temp(path, data + 1, size - 1))
        return 0;
    size_t n_text = strlen(base) + strlen(groups[data[0] % n_groups]) + sizeof path + 1;
    char *group = malloc(n_text), *text = malloc(n_text);
    if (!group || !text)
        abort();
    snprintf(group, n_text, groups[data[0] % n_groups], path);
    snprintf(text, n_text, "%s%s", base, group);
    dc_error err = {0};
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(text, "base.cfg", &sc, &err) != DC_OK)
        abort();
    dc_scenario_set_schema(sc, dc_schemas());
    if (dc_scenario_validate(sc, &err) != DC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        abort(); /* the scenario is valid whatever the file holds */
    }
    dc_sim *sim = NULL;
    int rc = dc_build(sc, 1, &sim, &err);
    if (rc == DC_OK)
        dc_sim_run(sim, &err);
    else if (sim)
        abort();
    else
        dc_fuzz_check_refusal(harness, rc, err.msg, path);
    if (getenv("DCSIM_FUZZ_VERBOSE")) /* for replaying an input by hand */
        fprintf(stderr, "%s\n", rc == DC_OK ? "accepted" : err.msg);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    unlink(path);
    free(group);
    free(text);
    return 0;
}

#endif
