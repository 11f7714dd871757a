/* Loading a scenario with --set overrides and reporting errors, for every command that runs one.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

int dc_cli_fail(const dc_error *err)
{
    fprintf(stderr, "dcsim: %s\n", err->msg[0] ? err->msg : "unknown error");
    return err->code == DC_EINPUT || err->code == DC_EIO ? DC_EXIT_INPUT : DC_EXIT_FAILURE;
}

static char *base_name(const char *file)
{
    const char *slash = strrchr(file, '/');
    const char *b = slash ? slash + 1 : file;
    size_t len = strlen(b);
    if (len > 4 && strcmp(b + len - 4, ".cfg") == 0)
        len -= 4;
    char *name = malloc(len + 1);
    if (name) {
        memcpy(name, b, len);
        name[len] = '\0';
    }
    return name;
}

int dc_cli_load(const char *file, const char *const *sets, size_t n_sets,
                dc_scenario **out, char **name, dc_error *err)
{
    dc_scenario *sc = NULL;
    int rc = file ? dc_scenario_load_file(file, &sc, err)
                  : dc_scenario_load_string(dc_default_scenario, "(embedded 10k_gpu.cfg)", &sc, err);
    if (rc != DC_OK)
        return rc;
    dc_scenario_set_schema(sc, dc_schemas());
    for (size_t i = 0; i < n_sets; i++) {
        rc = dc_scenario_set(sc, sets[i], err);
        if (rc != DC_OK)
            goto fail;
    }
    rc = dc_scenario_validate(sc, err);
    if (rc != DC_OK)
        goto fail;
    const char *given = NULL;
    config_lookup_string(dc_scenario_config(sc), "name", &given);
    *name = given ? strdup(given) : file ? base_name(file) : strdup(DC_DEFAULT_SCENARIO_NAME);
    if (!*name) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    *out = sc;
    return DC_OK;
fail:
    dc_scenario_destroy(sc);
    return rc;
}
