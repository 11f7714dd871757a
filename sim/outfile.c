/* Output files: temporary file beside a regular target then rename, devices and standard streams in place, the rest refused.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH (Linux) */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum kind {
    K_NEW,     /* nothing of that name yet */
    K_REGULAR, /* a regular file: replaced by rename */
    K_DEVICE,  /* a character device: written in place */
    K_STDOUT,  /* this process's standard output: its descriptor, in place */
    K_STDERR,
};

struct dc_outfile {
    char *path, *what, *tmp; /* tmp: NULL when written in place, or until commit when anon */
    bool anon;               /* an O_TMPFILE: no name until commit links it */
    char fd_name[32];        /* standard output or error: /dev/fd/N of the copy */
    int fd;
    FILE *stream;
    enum kind kind;
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* 1 or 2 when st is this process's standard output or error, else 0. */
static int std_stream_of(const struct stat *st)
{
    struct stat s;
    for (int fd = 1; fd <= 2; fd++)
        if (fstat(fd, &s) == 0 && same_file(&s, st))
            return fd;
    return 0;
}

static const char *type_name(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO (named pipe)" : S_ISSOCK(m) ? "a socket" : S_ISBLK(m) ? "a block device"
                                                                                      : "not a regular file";
}

/* The directory part of path ("." when there is none); malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return dup_str(".");
    size_t len = (size_t)(slash - path);
    while (len > 0 && path[len - 1] == '/')
        len--;
    if (len == 0)
        return dup_str("/");
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, path, len);
        d[len] = '\0';
    }
    return d;
}

/* Turns errnum from creating a file beside path into a message. */
static int path_error(const char *path, const char *what, int errnum, dc_error *err)
{
    if (errnum == ENOENT || errnum == ENOTDIR) {
        char *dir = dir_of(path);
        if (!dir)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        struct stat st;
        int rc = -1;
        if (stat(dir, &st) != 0) {
            if (errno == ENOENT)
                rc = dc_error_set(err, DC_EIO, "cannot write %s '%s': directory '%s' does not exist", what, path, dir);
            else if (errno == ENOTDIR)
                rc = dc_error_set(err, DC_EIO,
                                  "cannot write %s '%s': directory '%s' does not exist "
                                  "(part of its path is not a directory)",
                                  what, path, dir);
        } else if (!S_ISDIR(st.st_mode)) {
            rc = dc_error_set(err, DC_EIO, "cannot write %s '%s': '%s' is not a directory", what, path, dir);
        }
        free(dir);
        if (rc >= 0)
            return rc;
    }
    return dc_error_set(err, DC_EIO, "cannot write %s '%s': %s", what, path, strerror(errnum));
}

/* What path is as an output; *target its file (following a link) when it
 * exists.  DC_EINPUT for what the rules refuse. */
static int classify(const char *path, const char *what, enum kind *kind, struct stat *target, dc_error *err)
{
    if (!path || !*path)
        return dc_error_set(err, DC_EINPUT, "cannot write %s: no file name given", what);
    struct stat lst, st;
    if (lstat(path, &lst) != 0) {
        int e = errno;
        if (e == ENOENT && path[strlen(path) - 1] != '/') {
            *kind = K_NEW;
            return DC_OK;
        }
        if (e == ENOENT || e == ENOTDIR)
            return path_error(path, what, e, err);
        return dc_error_set(err, DC_EIO, "cannot write %s '%s': %s", what, path, strerror(e));
    }
    bool link = S_ISLNK(lst.st_mode);
    char to[PATH_MAX] = "";
    if (link) {
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = '\0';
        if (stat(path, &st) != 0)
            return dc_error_set(err, DC_EINPUT,
                                "cannot write %s '%s': it is a symbolic link to '%s', which does not exist: "
                                "dcsim does not write through links; give the file's own name",
                                what, path, to);
    } else {
        st = lst;
    }
    *target = st;
    int std = std_stream_of(&st);
    if (std) {
        *kind = std == 1 ? K_STDOUT : K_STDERR;
        return DC_OK;
    }
    if (S_ISCHR(st.st_mode)) {
        *kind = K_DEVICE;
        return DC_OK;
    }
    if (S_ISDIR(st.st_mode))
        return dc_error_set(err, DC_EINPUT, "cannot write %s '%s': it is a directory", what, path);
    if (link)
        return dc_error_set(err, DC_EINPUT,
                            "cannot write %s '%s': it is a symbolic link (to '%s'): dcsim replaces an output "
                            "whole by renaming a new file over its name, which would replace the link, and does not "
                            "write through it; give the name of the file itself",
                            what, path, to);
    if (S_ISREG(st.st_mode)) {
        *kind = K_REGULAR;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINPUT,
                        "cannot write %s '%s': it is %s: dcsim writes an output to a regular file (replaced "
                        "whole), or in place to a character device such as /dev/null or to its standard output "
                        "(/dev/stdout)",
                        what, path, type_name(st.st_mode));
}

static int check_inputs(const char *path, const char *what, const struct stat *target, const char *const *inputs,
                        size_t n, dc_error *err)
{
    for (size_t i = 0; i < n; i++) {
        struct stat in;
        if (!inputs[i] || stat(inputs[i], &in) != 0 || !S_ISREG(in.st_mode) || !same_file(&in, target))
            continue;
        if (strcmp(inputs[i], path) == 0)
            return dc_error_set(err, DC_EINPUT, "cannot write %s '%s': it is also an input of this command, "
                                                "which writing it would destroy: give another name",
                                what, path);
        return dc_error_set(err, DC_EINPUT,
                            "cannot write %s '%s': it is the same file as the input '%s', which writing it "
                            "would destroy: give another name",
                            what, path, inputs[i]);
    }
    return DC_OK;
}

/* Creates the temporary file beside path: O_EXCL (never an existing name,
 * never through a link), mode 0666 less the umask. */
static int create_temp(const char *path, const char *what, char **tmp, int *fd, dc_error *err)
{
    size_t len = strlen(path) + 48;
    char *t = malloc(len);
    if (!t)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    int f = -1, e = 0;
    for (int attempt = 0; attempt < 100 && f < 0; attempt++) {
        snprintf(t, len, "%s.tmp.%ld.%d", path, (long)getpid(), attempt);
        f = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        e = errno;
        if (f < 0 && e != EEXIST)
            break;
    }
    if (f < 0) {
        int rc = e == ENOENT || e == ENOTDIR
                     ? path_error(path, what, e, err)
                     : dc_error_set(err, DC_EIO, "cannot write %s '%s': cannot create temporary file '%s': %s", what,
                                    path, t, strerror(e));
        free(t);
        return rc;
    }
    *tmp = t;
    *fd = f;
    return DC_OK;
}

static int open_anon(const char *path);

int dc_outfile_check(const char *path, const char *what, const char *const *inputs, size_t n, dc_error *err)
{
    enum kind kind;
    struct stat target;
    int rc = classify(path, what, &kind, &target, err);
    if (rc != DC_OK)
        return rc;
    if (kind == K_REGULAR && (rc = check_inputs(path, what, &target, inputs, n, err)) != DC_OK)
        return rc;
    if (kind != K_NEW && kind != K_REGULAR)
        return DC_OK;
    /* The probe: an unnamed file where the system has them, so that a
     * process killed now (SIGKILL) leaves nothing, as the outputs do; else a
     * named one, created and removed (its errors are the messages). */
    int fd = open_anon(path);
    if (fd >= 0) {
        close(fd);
        return DC_OK;
    }
    char *tmp = NULL;
    if ((rc = create_temp(path, what, &tmp, &fd, err)) != DC_OK)
        return rc;
    close(fd);
    unlink(tmp);
    free(tmp);
    return DC_OK;
}

/* An unnamed file in path's directory (O_TMPFILE, Linux 3.11 and the file
 * systems that support it), which commit can name (link_anon); -1 where
 * there is none, or no way to link it (no /proc and no
 * CAP_DAC_READ_SEARCH), and the caller falls back to a named file. */
static int open_anon(const char *path)
{
#if defined(O_TMPFILE) && defined(AT_EMPTY_PATH)
    char *dir = dir_of(path);
    if (!dir)
        return -1;
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    free(dir);
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    if (fd >= 0 && access(self, F_OK) != 0 && errno == ENOENT) {
        close(fd); /* no /proc: linkat through it would fail at the end */
        fd = -1;
    }
    return fd;
#else
    (void)path;
    return -1;
#endif
}

/* Gives the unnamed file o->fd the name `name`: linkat with AT_EMPTY_PATH
 * (needs CAP_DAC_READ_SEARCH), else through /proc/self/fd. 0 or errno. */
static int link_anon(const dc_outfile *o, const char *name)
{
#if defined(O_TMPFILE) && defined(AT_EMPTY_PATH)
    if (linkat(o->fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno == EEXIST)
        return EEXIST;
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", o->fd);
    return linkat(AT_FDCWD, self, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
#else
    (void)o;
    (void)name;
    return ENOTSUP;
#endif
}

/* Names the unnamed file beside o->path (NAME.tmp.PID.N, as create_temp
 * names its files) so that it can be renamed over it; or, when nothing
 * has the final name, that name itself (*done: renamed already). */
static int name_anon(dc_outfile *o, bool *done, dc_error *err)
{
    *done = false;
    if (o->kind == K_NEW) {
        int e = link_anon(o, o->path);
        if (e == 0) {
            *done = true;
            return DC_OK;
        }
        if (e != EEXIST)
            return dc_error_set(err, DC_EIO, "cannot write %s '%s': %s", o->what, o->path, strerror(e));
        /* something took the name meanwhile: checked, then replaced, below */
    }
    size_t len = strlen(o->path) + 48;
    char *t = malloc(len);
    if (!t)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    int e = EEXIST;
    for (int attempt = 0; attempt < 100 && e == EEXIST; attempt++) {
        snprintf(t, len, "%s.tmp.%ld.%d", o->path, (long)getpid(), attempt);
        e = link_anon(o, t);
    }
    if (e != 0) {
        int rc = dc_error_set(err, DC_EIO, "cannot write %s '%s': cannot create temporary file '%s': %s", o->what,
                              o->path, t, strerror(e));
        free(t);
        return rc;
    }
    o->tmp = t;
    return DC_OK;
}

static dc_outfile *open_output(const char *path, const char *what, bool named, dc_error *err)
{
    enum kind kind;
    struct stat target;
    if (classify(path, what, &kind, &target, err) != DC_OK)
        return NULL;
    dc_outfile *o = calloc(1, sizeof *o);
    if (!o || !(o->path = dup_str(path)) || !(o->what = dup_str(what))) {
        if (o)
            free(o->path);
        free(o);
        dc_error_set(err, DC_ENOMEM, "out of memory");
        return NULL;
    }
    o->kind = kind;
    o->fd = -1;
    int rc = DC_OK;
    if (kind == K_STDOUT || kind == K_STDERR) {
        fflush(kind == K_STDOUT ? stdout : stderr);
        /* dup leaves the copy open across exec: a child (gnuplot) given
         * /dev/fd/N writes there too. */
        o->fd = dup(kind == K_STDOUT ? 1 : 2);
        if (o->fd < 0)
            rc = dc_error_set(err, DC_EIO, "cannot write %s '%s': %s", what, path, strerror(errno));
        else
            snprintf(o->fd_name, sizeof o->fd_name, "/dev/fd/%d", o->fd);
    } else if (kind == K_DEVICE) {
        o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (o->fd < 0)
            rc = dc_error_set(err, DC_EIO, "cannot write %s '%s': %s", what, path, strerror(errno));
    } else {
        if (!named && (o->fd = open_anon(path)) >= 0)
            o->anon = true;
        else
            rc = create_temp(path, what, &o->tmp, &o->fd, err);
        /* A file replaced keeps its permissions. */
        if (rc == DC_OK && kind == K_REGULAR)
            (void)fchmod(o->fd, target.st_mode & 07777);
    }
    if (rc != DC_OK) {
        free(o->path);
        free(o->what);
        free(o);
        return NULL;
    }
    return o;
}

dc_outfile *dc_outfile_open(const char *path, const char *what, dc_error *err)
{
    return open_output(path, what, false, err);
}

dc_outfile *dc_outfile_open_named(const char *path, const char *what, dc_error *err)
{
    return open_output(path, what, true, err);
}

int dc_outfile_fd(const dc_outfile *o) { return o->fd; }
const char *dc_outfile_name(const dc_outfile *o) { return o->tmp ? o->tmp : o->fd_name[0] ? o->fd_name : o->path; }
const char *dc_outfile_temp_name(const dc_outfile *o) { return o->anon ? NULL : o->tmp; }
const char *dc_outfile_path(const dc_outfile *o) { return o->path; }
bool dc_outfile_in_place(const dc_outfile *o) { return o->kind != K_NEW && o->kind != K_REGULAR; }
bool dc_outfile_is_stdout(const dc_outfile *o) { return o->kind == K_STDOUT; }

FILE *dc_outfile_stream(dc_outfile *o)
{
    if (!o->stream)
        o->stream = fdopen(o->fd, "w");
    return o->stream;
}

/* "cannot write trace 'o.h5': cannot write 'o.h5.tmp.1.0': why" */
static int write_error(const dc_outfile *o, int errnum, dc_error *err)
{
    if (o->tmp && !o->anon)
        return dc_error_set(err, DC_EIO, "cannot write %s '%s': cannot write '%s': %s", o->what, o->path, o->tmp,
                            strerror(errnum));
    return dc_error_set(err, DC_EIO, "cannot write %s '%s': %s", o->what, o->path, strerror(errnum));
}

int dc_outfile_write(dc_outfile *o, const void *data, size_t n, dc_error *err)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return write_error(o, w < 0 ? errno : ENOSPC, err);
        p += w;
        n -= (size_t)w;
    }
    return DC_OK;
}

/* Closes the stream or the descriptor; the first error's errno, else 0. */
static int close_all(dc_outfile *o)
{
    int e = 0;
    if (o->stream) {
        if (ferror(o->stream))
            e = errno ? errno : EIO;
        if (fclose(o->stream) != 0 && !e)
            e = errno;
    } else if (o->fd >= 0 && close(o->fd) != 0) {
        e = errno;
    }
    o->stream = NULL;
    o->fd = -1;
    return e;
}

static void release(dc_outfile *o)
{
    free(o->path);
    free(o->what);
    free(o->tmp);
    free(o);
}

int dc_outfile_commit(dc_outfile *o, dc_error *err)
{
    if (!o)
        return dc_error_set(err, DC_EINTERNAL, "dc_outfile_commit: no file");
    int rc = DC_OK, e = 0;
    if (o->anon) {
        /* Named only once complete (the stream flushed, its errors seen),
         * and before the descriptor closes (that would free it). */
        if (o->stream && (fflush(o->stream) != 0 || ferror(o->stream)))
            e = errno ? errno : EIO;
        if (e)
            rc = write_error(o, e, err);
        bool done = false;
        if (rc == DC_OK)
            rc = name_anon(o, &done, err);
        e = close_all(o);
        if (e && rc == DC_OK) {
            rc = write_error(o, e, err);
            if (done)
                unlink(o->path); /* the new name is ours: nothing had it */
        }
        if (done || rc != DC_OK) {
            if (rc != DC_OK && o->tmp)
                unlink(o->tmp);
            release(o);
            return rc;
        }
    } else if ((e = close_all(o)) != 0) {
        rc = write_error(o, e, err);
    }
    if (rc == DC_OK && o->tmp) {
        /* What took the name meanwhile must not be replaced either. */
        enum kind kind;
        struct stat target;
        dc_error why;
        if (classify(o->path, o->what, &kind, &target, &why) != DC_OK)
            rc = dc_error_set(err, why.code, "%s", why.msg);
        else if (kind != K_NEW && kind != K_REGULAR)
            rc = dc_error_set(err, DC_EINPUT, "cannot write %s '%s': it is no longer a regular file", o->what,
                              o->path);
        else if (rename(o->tmp, o->path) != 0)
            rc = dc_error_set(err, DC_EIO, "cannot write %s '%s': cannot rename '%s' to it: %s", o->what, o->path,
                              o->tmp, strerror(errno));
    }
    if (rc != DC_OK && o->tmp)
        unlink(o->tmp);
    release(o);
    return rc;
}

void dc_outfile_abort(dc_outfile *o)
{
    if (!o)
        return;
    close_all(o);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}

bool dc_outfile_close_stdout(int *errnum)
{
    *errnum = 0;
    errno = 0;
    bool bad = ferror(stdout) != 0;
    int e = errno;
    /* fclose flushes: a full disk shows here at the latest. */
    if (fclose(stdout) != 0) {
        /* Nothing was ever written and the descriptor was closed: fine. */
        if (errno == EBADF && !bad)
            return true;
        bad = true;
        e = errno;
    }
    if (bad)
        *errnum = e;
    return !bad;
}
