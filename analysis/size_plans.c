/* The seed's three capacity plans as targets and assumptions, each sized by the search (size.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

void dc_size_plan_defaults(dc_size_plan plans[DC_SIZE_PLANS], double confidence)
{
    plans[0] = (dc_size_plan){"conservative", 0.5, 1.0, 1.0, 1.0, 1.0};
    plans[1] = (dc_size_plan){"balanced", confidence, 1.0, 1.0, 1.0, 1.0};
    plans[2] = (dc_size_plan){"aggressive", confidence, 0.8, 1.0, 1.0, 1.0};
}

int dc_size_plan_override(dc_size_plan plans[DC_SIZE_PLANS], const char *a, dc_error *err)
{
    const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
    if (!dot || !eq || eq < dot)
        return dc_error_set(err, DC_EINPUT,
                            "--plan %s: expected PLAN.KEY=VALUE (PLAN: conservative, balanced, aggressive; KEY: "
                            "confidence, deadline_share, mfu, failures, price)",
                            a);
    dc_size_plan *p = NULL;
    for (size_t i = 0; i < DC_SIZE_PLANS && !p; i++)
        if (strlen(plans[i].name) == (size_t)(dot - a) && strncmp(plans[i].name, a, (size_t)(dot - a)) == 0)
            p = &plans[i];
    if (!p)
        return dc_error_set(err, DC_EINPUT, "--plan %s: no plan named '%.*s' (conservative, balanced, aggressive)", a,
                            (int)(dot - a), a);
    char key[32];
    snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
    char *end;
    errno = 0;
    double v = strtod(eq + 1, &end);
    if (errno || end == eq + 1 || *end || !isfinite(v))
        return dc_error_set(err, DC_EINPUT, "--plan %s: expected a number after '='", a);
    struct {
        const char *name;
        double *field, lo, hi;
        bool lo_open;
    } keys[] = {
        {"confidence", &p->confidence, 0.0, 1.0, true},
        {"deadline_share", &p->deadline_share, 0.0, 10.0, true},
        {"mfu", &p->mfu, 0.0, 100.0, true},
        {"failures", &p->failures, 0.0, 1e6, true},
        {"price", &p->price, 0.0, 1e6, false},
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (strcmp(keys[k].name, key) != 0)
            continue;
        if (!(v > keys[k].lo || (!keys[k].lo_open && v == keys[k].lo)) || v > keys[k].hi)
            return dc_error_set(err, DC_EINPUT, "--plan %s: %s must be %s %g and at most %g", a, key,
                                keys[k].lo_open ? "above" : "at least", keys[k].lo, keys[k].hi);
        *keys[k].field = v;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINPUT,
                        "--plan %s: no plan key '%s' (confidence, deadline_share, mfu, failures, price)", a, key);
}

int dc_sizer_plan(dc_sizer *s, const dc_size_plan *p, dc_size_plan_result *out, dc_error *err)
{
    memset(out, 0, sizeof *out);
    char **sets = NULL;
    size_t n = 0, cap = 0;
    int rc = dc_size_assumptions(dc_sizer_scenario(s), p->mfu, p->failures, p->price, &sets, &n, &cap, err);
    if (rc == DC_OK)
        rc = dc_sizer_assume(s, (const char *const *)sets, n, &out->assumptions, err);
    for (size_t i = 0; i < n; i++)
        free(sets[i]);
    free(sets);
    if (rc != DC_OK) {
        dc_error_prefix(err, "plan %s", p->name);
        return rc;
    }
    out->target_days = p->deadline_share * dc_sizer_deadline(s);
    rc = dc_sizer_search(s, out->assumptions, out->target_days, p->confidence, &out->answer, err);
    if (rc != DC_OK && rc != DC_ENOMEM && strcmp(err->msg, "interrupted") != 0)
        dc_error_prefix(err, "plan %s", p->name);
    return rc;
}
