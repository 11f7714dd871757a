/* Lookups of a libconfig group's members by name, without libconfig's per-character path tests.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The same answers as libconfig 1.5's config_setting_get_member and
 * config_setting_lookup_{float,int,int64,bool,string}, for the same
 * arguments (tests/test_core checks every type against them, with and
 * without CONFIG_OPTION_AUTOCONVERT).
 *
 * Why: libconfig compares a member's name character by character with two
 * strchr calls per character (its path tokens ":./"), so a lookup in a
 * validated group (defaults filled in: 20 to 60 members) costs 0.5 to 1.5 k
 * instructions, some 600 lookups a flagship build.  Here a plain name is
 * matched by its first character, then strcmp; a name holding a path token
 * goes to libconfig, whose rules apply to it. */
#ifndef DC_CFGGET_H
#define DC_CFGGET_H

#include <libconfig.h>

config_setting_t *dc_cfg_member(const config_setting_t *group, const char *name);
int dc_cfg_lookup_float(const config_setting_t *group, const char *name, double *value);
int dc_cfg_lookup_int(const config_setting_t *group, const char *name, int *value);
int dc_cfg_lookup_int64(const config_setting_t *group, const char *name, long long *value);
int dc_cfg_lookup_bool(const config_setting_t *group, const char *name, int *value);
int dc_cfg_lookup_string(const config_setting_t *group, const char *name, const char **value);

#endif
