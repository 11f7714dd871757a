/* Error reporting below the CLI: codes and a message a person can act on.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Error reporting below the CLI: functions return one of the codes and fill a
 * dc_error with a message a person can act on.  Nothing below cli/ prints or
 * exits; the CLI maps codes to exit statuses (DC_EINPUT and DC_EIO -> 2). */
#ifndef DC_ERROR_H
#define DC_ERROR_H

#include <stddef.h>

enum dc_status {
    DC_OK = 0,
    DC_EINPUT = 1,    /* bad scenario, command line or data file */
    DC_EIO = 2,       /* a file could not be read or written */
    DC_ENOMEM = 3,    /* allocation failed */
    DC_EINTERNAL = 4, /* a library call failed where it should not */
};

#define DC_ERROR_MSG_MAX 1024

typedef struct dc_error {
    int code;
    char msg[DC_ERROR_MSG_MAX];
} dc_error;

/* Sets code and message (printf format) unless err is NULL; returns code so
 * that callers can write `return dc_error_set(err, DC_EINPUT, ...)`. */
int dc_error_set(dc_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to an already set message (context from an outer layer). */
void dc_error_prefix(dc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void dc_error_clear(dc_error *err);

#endif
