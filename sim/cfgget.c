/* Lookups of a libconfig group's members by name, without libconfig's per-character path tests.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cfgget.h"

#include <string.h>

config_setting_t *dc_cfg_member(const config_setting_t *group, const char *name)
{
    if (!group || !name || group->type != CONFIG_TYPE_GROUP)
        return NULL;
    if (name[strcspn(name, ":./")] != '\0')
        return config_setting_get_member(group, name); /* a path: libconfig's rules */
    const config_list_t *list = group->value.list;
    if (!list)
        return NULL;
    char c = name[0];
    for (unsigned int i = 0; i < list->length; i++) {
        config_setting_t *m = list->elements[i];
        if (m->name && m->name[0] == c && strcmp(m->name, name) == 0)
            return m;
    }
    return NULL;
}

int dc_cfg_lookup_float(const config_setting_t *group, const char *name, double *value)
{
    const config_setting_t *m = dc_cfg_member(group, name);
    if (!m)
        return CONFIG_FALSE;
    switch (m->type) {
    case CONFIG_TYPE_FLOAT:
        *value = m->value.fval;
        return CONFIG_TRUE;
    case CONFIG_TYPE_INT:
        if (!config_get_auto_convert(m->config))
            return CONFIG_FALSE;
        *value = (double)m->value.ival;
        return CONFIG_TRUE;
    case CONFIG_TYPE_INT64:
        if (!config_get_auto_convert(m->config))
            return CONFIG_FALSE;
        *value = (double)m->value.llval;
        return CONFIG_TRUE;
    default:
        return CONFIG_FALSE;
    }
}

/* The integer lookups take libconfig's own conversions (ranges, floats
 * under AUTOCONVERT) once the member is found: config_setting_lookup_*
 * on the member's own name in its parent would search again, so these
 * convert here only what is plainly the same and leave the rest to it. */
int dc_cfg_lookup_int(const config_setting_t *group, const char *name, int *value)
{
    const config_setting_t *m = dc_cfg_member(group, name);
    if (!m)
        return CONFIG_FALSE;
    if (m->type == CONFIG_TYPE_INT) {
        *value = m->value.ival;
        return CONFIG_TRUE;
    }
    return config_setting_lookup_int(group, name, value);
}

int dc_cfg_lookup_int64(const config_setting_t *group, const char *name, long long *value)
{
    const config_setting_t *m = dc_cfg_member(group, name);
    if (!m)
        return CONFIG_FALSE;
    if (m->type == CONFIG_TYPE_INT64) {
        *value = m->value.llval;
        return CONFIG_TRUE;
    }
    if (m->type == CONFIG_TYPE_INT) {
        *value = (long long)m->value.ival;
        return CONFIG_TRUE;
    }
    return config_setting_lookup_int64(group, name, value);
}

int dc_cfg_lookup_bool(const config_setting_t *group, const char *name, int *value)
{
    const config_setting_t *m = dc_cfg_member(group, name);
    if (!m || m->type != CONFIG_TYPE_BOOL)
        return CONFIG_FALSE;
    *value = m->value.ival;
    return CONFIG_TRUE;
}

int dc_cfg_lookup_string(const config_setting_t *group, const char *name, const char **value)
{
    const config_setting_t *m = dc_cfg_member(group, name);
    if (!m || m->type != CONFIG_TYPE_STRING)
        return CONFIG_FALSE;
    *value = m->value.sval;
    return CONFIG_TRUE;
}
