/* SIGINT and SIGTERM during run and sweep: the handler that records them.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#define _GNU_SOURCE /* getdents64 */
#include "interrupt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
/* 1 while the handlers are installed */
static bool installed;
/* The temporary file being written, removed by a second signal. */
static char cleanup_path[4096];
static volatile sig_atomic_t cleanup_set;
/* 1 once an output is complete and being given its name: the command then
 * ends by itself, with the status that says the file was written. */
static volatile sig_atomic_t finishing;
/* The other temporary files and directories (dc_cli_interrupt_temp), a
 * slot's path read only while its state is 1 (a file) or 2 (a directory),
 * and the child killed before they are removed. */
#define TEMP_SLOTS 8
static char temp_path[TEMP_SLOTS][4096];
static volatile sig_atomic_t temp_state[TEMP_SLOTS];
static volatile sig_atomic_t child_pid;
static char dirent_buf[8192];

/* Empties directory path (its files, and directories already empty) and
 * removes it, with calls a signal handler may make (getdents64 is the
 * system call itself).  Passes until one finds nothing more to remove. */
static void remove_dir(const char *path)
{
    for (int pass = 0; pass < 64; pass++) {
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            break;
        bool removed = false;
        for (ssize_t n; (n = getdents64(fd, dirent_buf, sizeof dirent_buf)) > 0;) {
            for (ssize_t at = 0; at < n;) {
                const struct dirent64 *e = (const struct dirent64 *)(void *)(dirent_buf + at);
                at += e->d_reclen;
                const char *name = e->d_name;
                if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                    continue;
                if (unlinkat(fd, name, 0) == 0 || unlinkat(fd, name, AT_REMOVEDIR) == 0)
                    removed = true;
            }
        }
        close(fd);
        if (!removed)
            break;
    }
    rmdir(path);
}

/* What a second signal removes before it kills: the child first (it would
 * write again), then the temporary files and directories, last told first,
 * then the output being written. */
static void remove_temps(void)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, SIGKILL);
    for (int i = TEMP_SLOTS - 1; i >= 0; i--) {
        if (temp_state[i] == 1)
            unlink(temp_path[i]);
        else if (temp_state[i] == 2)
            remove_dir(temp_path[i]);
    }
    if (cleanup_set)
        unlink(cleanup_path);
}

static void on_signal(int sig)
{
    if (caught) {
        /* Past the rename a kill would end dcsim by the signal with the new
         * file in place, the status saying nothing was written. */
        if (finishing)
            return;
        /* The second signal: kill at once, but leave no temporary file. */
        remove_temps();
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
    installed = true;
}

bool dc_cli_signals_caught(void)
{
    return installed;
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

int dc_cli_interrupt_temp(const char *path, bool dir, bool made)
{
    if (!path)
        return -1;
    if (!made) {
        for (int i = TEMP_SLOTS - 1; i >= 0; i--)
            if (temp_state[i] && strcmp(temp_path[i], path) == 0) {
                temp_state[i] = 0;
                return 0;
            }
        return -1;
    }
    /* the lowest free slot: what is made inside a directory told earlier
     * lies above it, and goes first */
    size_t len = strlen(path);
    for (int i = 0; i < TEMP_SLOTS && len < sizeof temp_path[i]; i++)
        if (!temp_state[i]) {
            memcpy(temp_path[i], path, len + 1);
            temp_state[i] = dir ? 2 : 1;
            return 0;
        }
    return -1;
}

void dc_cli_interrupt_child(pid_t pid)
{
    child_pid = pid > 0 ? (sig_atomic_t)pid : 0;
}

static void guard_temp(const char *path, bool dir, bool made)
{
    dc_cli_interrupt_temp(path, dir, made);
}

static const dc_plot_guard plot_guard = {.temp = guard_temp, .child = dc_cli_interrupt_child};

const dc_plot_guard *dc_cli_plot_guard(void)
{
    return &plot_guard;
}

void dc_cli_default_signals(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    installed = false;
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
