/* SIGINT and SIGTERM during run and sweep: the handler that records them.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "interrupt.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
/* The temporary file being written, removed by a second signal. */
static char cleanup_path[4096];
static volatile sig_atomic_t cleanup_set;
/* 1 once an output is complete and being given its name: the command then
 * ends by itself, with the status that says the file was written. */
static volatile sig_atomic_t finishing;

static void on_signal(int sig)
{
    if (caught) {
        /* Past the rename a kill would end dcsim by the signal with the new
         * file in place, the status saying nothing was written. */
        if (finishing)
            return;
        /* The second signal: kill at once, but leave no temporary file. */
        if (cleanup_set)
            unlink(cleanup_path);
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    caught = sig;
}

void dc_cli_catch_signals(void)
{
    dc_cli_install_signals();
    dc_cli_announce_ready();
}

void dc_cli_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void dc_cli_announce_ready(void)
{
    /* For tests that signal dcsim (tests/test_errors.c): the handlers are
     * in place from here on, so a signal now is a clean interruption.  A
     * file (not a delay, which a loaded machine or valgrind outlasts). */
    const char *ready = getenv("DCSIM_READY_FILE");
    if (ready && *ready) {
        int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
    }
}

void dc_cli_interrupt_cleanup(const char *path)
{
    /* The handler reads the path only while cleanup_set is 1: clear it
     * first, then the path, then set it. */
    cleanup_set = 0;
    if (path && strlen(path) < sizeof cleanup_path) {
        memcpy(cleanup_path, path, strlen(path) + 1);
        cleanup_set = 1;
    }
}

int dc_cli_write_guarded(const char *path, const char *what, dc_cli_writer write, void *ctx, dc_error *err)
{
    /* SIGINT and SIGTERM wait while the temporary file is created and
     * registered: a second signal between the two killed dcsim with the
     * file left behind (an empty NAME.tmp.PID.N). */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    dc_outfile *out = dc_outfile_open(path, what, err);
    if (out)
        dc_cli_interrupt_cleanup(dc_outfile_temp_name(out)); /* none for an unnamed file */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!out)
        return err->code;
    int rc = write(out, ctx, err);
    if (rc == DC_OK) {
        /* Set before the rename, so that no signal falls between the two
         * (nor on another thread, which the mask above does not cover). */
        finishing = 1;
        rc = dc_outfile_commit(out, err);
        if (rc != DC_OK)
            finishing = 0; /* nothing renamed: a second signal kills again */
    } else {
        dc_outfile_abort(out);
    }
    dc_cli_interrupt_cleanup(NULL);
    return rc;
}

int dc_cli_interrupted(void)
{
    return caught;
}

const volatile sig_atomic_t *dc_cli_interrupt_flag(void)
{
    return &caught;
}

int dc_cli_signal_status(int sig)
{
    return 128 + sig;
}

const char *dc_cli_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}
