/* Running the dcsim program (or any program) from a test: a child process with its output captured.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

const char *dc_runner_dcsim_path(void)
{
    const char *p = getenv("DCSIM");
    return p && *p ? p : NULL;
}

/* All of a stream, NUL-terminated (NULL if memory runs out). */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (cap - n - 1 == 0) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                return NULL;
            }
            buf = grown;
            cap *= 2;
        }
    }
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = n;
    }
    return buf;
}

char *dc_runner_slurp(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    char *buf = read_all(f, len);
    fclose(f);
    return buf;
}

int dc_runner_write(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(data, 1, n, f);
    return fclose(f) == 0 && put == n ? 0 : -1;
}

bool dc_runner_wait_for_file(const char *path)
{
    for (int i = 0; i < 12000; i++) {
        if (access(path, F_OK) == 0)
            return true;
        usleep(10000);
    }
    return false;
}

int dc_runner_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* A capture file outside every directory a test inspects. */
static int capture_file(char *path, size_t size, const char *what)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, size, "%s/dcsim_runner_%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
    int fd = mkstemp(path);
    if (fd < 0 && tmp) { /* a test may point TMPDIR somewhere unwritable */
        snprintf(path, size, "/tmp/dcsim_runner_%s.XXXXXX", what);
        fd = mkstemp(path);
    }
    return fd;
}

int dc_runner_start(dc_runner_child *ch, const char *prog, const char *const *args,
                    const dc_runner_opts *opts)
{
    static const dc_runner_opts none = {0};
    const dc_runner_opts *o = opts ? opts : &none;
    ch->pid = -1;
    int fo = capture_file(ch->out_path, sizeof ch->out_path, "out");
    int fe = fo < 0 ? -1 : capture_file(ch->err_path, sizeof ch->err_path, "err");
    if (fe < 0) {
        if (fo >= 0) {
            close(fo);
            unlink(ch->out_path);
        }
        return -1;
    }
    const char *argv[128];
    size_t n = 0;
    argv[n++] = prog;
    for (size_t i = 0; args && args[i] && n < 127; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (o->stdout_to) {
            close(fo);
            fo = open(o->stdout_to, O_WRONLY);
            if (fo < 0)
                _exit(126);
        }
        dup2(fo, 1);
        dup2(fe, 2);
        close(fo);
        close(fe);
        if (o->dir && chdir(o->dir) != 0)
            _exit(126);
        for (size_t i = 0; o->unset && o->unset[i]; i++)
            unsetenv(o->unset[i]);
        for (size_t i = 0; o->env && o->env[i]; i++) {
            const char *eq = strchr(o->env[i], '=');
            if (!eq)
                _exit(126);
            char name[256];
            size_t len = (size_t)(eq - o->env[i]);
            if (len >= sizeof name)
                _exit(126);
            memcpy(name, o->env[i], len);
            name[len] = '\0';
            setenv(name, eq + 1, 1);
        }
        if (o->fsize_limit > 0) {
            struct rlimit rl = {(rlim_t)o->fsize_limit, (rlim_t)o->fsize_limit};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        alarm(o->timeout_s ? o->timeout_s : 120); /* a hang fails, never blocks */
        execv(prog, (char *const *)argv);
        _exit(127);
    }
    close(fo);
    close(fe);
    if (pid < 0) {
        unlink(ch->out_path);
        unlink(ch->err_path);
        return -1;
    }
    ch->pid = pid;
    return 0;
}

dc_runner_result dc_runner_wait(dc_runner_child *ch)
{
    dc_runner_result r = {127, false, 0, NULL, NULL, 0, 0};
    if (ch->pid > 0) {
        int st = 0;
        while (waitpid(ch->pid, &st, 0) < 0) {
        }
        if (WIFSIGNALED(st)) {
            r.signaled = true;
            r.signal = WTERMSIG(st);
            r.status = 128 + r.signal;
        } else {
            r.status = WEXITSTATUS(st);
        }
        r.out = dc_runner_slurp(ch->out_path, &r.out_len);
        r.err = dc_runner_slurp(ch->err_path, &r.err_len);
        unlink(ch->out_path);
        unlink(ch->err_path);
    }
    if (!r.out)
        r.out = strdup("");
    if (!r.err)
        r.err = strdup("could not start the program\n");
    ch->pid = -1;
    return r;
}

dc_runner_result dc_runner_run(const char *prog, const char *const *args, const dc_runner_opts *opts)
{
    dc_runner_child ch;
    dc_runner_start(&ch, prog, args, opts);
    return dc_runner_wait(&ch);
}

dc_runner_result dc_runner_dcsim(const char *const *args, const dc_runner_opts *opts)
{
    const char *prog = dc_runner_dcsim_path();
    if (!prog) {
        dc_runner_result r = {127, false, 0, strdup(""), strdup("DCSIM is not set\n"), 0, 17};
        return r;
    }
    return dc_runner_run(prog, args, opts);
}

void dc_runner_free(dc_runner_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *dc_runner_shell(const char *cmd, int *status)
{
    *status = -1;
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    char *buf = read_all(p, NULL);
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}
