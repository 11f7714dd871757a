/* Running the dcsim program (or any program) from a test: a child process with its output captured.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Every test that runs the dcsim binary goes through this module, so that
 * each child is started the same way: standard output and error captured
 * into files outside the test's directories (read back whole), an optional
 * working directory, environment changes and file-size limit, and an alarm
 * so that a hang fails the test instead of blocking it.  Nothing here uses
 * CUnit: a failure to start a child is a status, not an assertion.
 *
 *   dc_runner_dcsim(args, opts)  runs $DCSIM (the built program) with args
 *   dc_runner_run(prog, args, opts)  the same for any program
 *   dc_runner_start / dc_runner_wait  the two halves, for a test that acts
 *                    on the running child (sends it a signal)
 *   dc_runner_shell(cmd, &status)  a shell command's standard output
 *   dc_runner_slurp, dc_runner_write, dc_runner_count_entries  files
 *
 * Status: the child's exit status, or 128 + the signal that killed it
 * (with `signaled` set); 127 when it could not be executed. */
#ifndef DC_TEST_RUNNER_H
#define DC_TEST_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct dc_runner_opts {
    const char *dir;          /* the child's working directory (NULL: the test's) */
    const char *const *env;   /* "NAME=VALUE" set in the child (NULL-terminated; NULL: none) */
    const char *const *unset; /* names removed from the child's environment (NULL-terminated) */
    long long fsize_limit;    /* RLIMIT_FSIZE of the child in bytes (0: none) */
    unsigned timeout_s;       /* SIGALRM after this many seconds (0: 120) */
    const char *stdout_to;    /* the child's standard output goes to this file (opened for writing; for
                               * /dev/full), not captured (NULL: captured) */
} dc_runner_opts;

typedef struct dc_runner_result {
    int status;       /* exit status, or 128 + signal number */
    bool signaled;    /* killed by a signal (SIGALRM: it hung) */
    int signal;       /* that signal, else 0 */
    char *out, *err;  /* standard output and error, NUL-terminated ("" if none) */
    size_t out_len, err_len;
} dc_runner_result;

typedef struct dc_runner_child {
    pid_t pid;
    char out_path[512], err_path[512];
} dc_runner_child;

/* The dcsim program under test ($DCSIM), or NULL when it is not set. */
const char *dc_runner_dcsim_path(void);

/* Starts prog with args (args[0] is the first argument, not the program;
 * NULL-terminated, may be NULL).  Returns 0, or -1 if no child started. */
int dc_runner_start(dc_runner_child *ch, const char *prog, const char *const *args,
                    const dc_runner_opts *opts);
/* Waits for the child and reads its output (the capture files are removed). */
dc_runner_result dc_runner_wait(dc_runner_child *ch);

dc_runner_result dc_runner_run(const char *prog, const char *const *args, const dc_runner_opts *opts);
/* dc_runner_run of $DCSIM; status 127 and a message in err if $DCSIM is unset. */
dc_runner_result dc_runner_dcsim(const char *const *args, const dc_runner_opts *opts);
void dc_runner_free(dc_runner_result *r);

/* The standard output of `sh -c cmd` (NULL if it could not start), its exit
 * status in *status (-1 if it did not exit). */
char *dc_runner_shell(const char *cmd, int *status);

/* A whole file, NUL-terminated; "" (and *len = 0) when it cannot be read.
 * len may be NULL.  Never NULL unless memory runs out. */
char *dc_runner_slurp(const char *path, size_t *len);
/* Writes n bytes to path (created or truncated); 0, or -1 on any error. */
int dc_runner_write(const char *path, const char *data, size_t n);
/* Entries of a directory but . and .., or -1 if it cannot be read. */
int dc_runner_count_entries(const char *dir);
/* Whether path came to exist within 120 s (polled every 10 ms): a child's
 * DCSIM_READY_FILE, written once its signal handlers are installed. */
bool dc_runner_wait_for_file(const char *path);

#endif
