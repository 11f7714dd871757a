/* A scenario file as libconfig should read it: @include expanded here, 64-bit integers marked, a line map.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cfgtext.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A scenario file larger than this is refused (the shipped ones are < 20 KB). */
#define MAX_FILE_BYTES (64u << 20)

typedef struct segment {
    unsigned out_start;  /* first line of the expanded text it covers */
    size_t file;         /* index in files */
    unsigned file_start; /* that line's number in the file */
} segment;

struct dc_cfgtext {
    char *text;
    size_t len, cap;
    unsigned out_line; /* the line being written, from 1 */
    segment *seg;
    size_t n_seg, cap_seg;
    char **files;
    size_t n_files, cap_files;
};

typedef struct open_file {
    dev_t dev;
    ino_t ino;
    const char *path;
} open_file;

static bool put(dc_cfgtext *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->text, cap);
        if (!p)
            return false;
        t->text = p;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->len += n;
    t->text[t->len] = '\0';
    for (size_t i = 0; i < n; i++)
        t->out_line += s[i] == '\n';
    return true;
}

static bool add_segment(dc_cfgtext *t, size_t file, unsigned file_line)
{
    if (t->n_seg == t->cap_seg) {
        size_t cap = t->cap_seg ? 2 * t->cap_seg : 8;
        segment *p = realloc(t->seg, cap * sizeof *p);
        if (!p)
            return false;
        t->seg = p;
        t->cap_seg = cap;
    }
    t->seg[t->n_seg++] = (segment){t->out_line, file, file_line};
    return true;
}

static bool add_file(dc_cfgtext *t, const char *path, size_t *index)
{
    if (t->n_files == t->cap_files) {
        size_t cap = t->cap_files ? 2 * t->cap_files : 4;
        char **p = realloc(t->files, cap * sizeof *p);
        if (!p)
            return false;
        t->files = p;
        t->cap_files = cap;
    }
    if (!(t->files[t->n_files] = strdup(path)))
        return false;
    *index = t->n_files++;
    return true;
}

static bool name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '*';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The scanner's state across lines of one file. */
typedef struct scan {
    bool in_block, in_string;
    char pending[64]; /* the last name read */
    char key[64];     /* the last name followed by = or : */
} scan;

/* Copies one number token (s, n) to the text, with an L after an integer
 * past 32 bits; DC_EINPUT for one past 64 bits. */
static int put_number(dc_cfgtext *t, const scan *sc, const char *s, size_t n, const char *file, unsigned line,
                      dc_error *err)
{
    size_t body = n;
    while (body > 0 && s[body - 1] == 'L')
        body--;
    bool has_l = body < n;
    size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    bool hex = body > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    bool is_float = false;
    for (size_t k = i; k < body && !hex; k++)
        is_float = is_float || s[k] == '.' || s[k] == 'e' || s[k] == 'E';
    if (is_float || body == 0 || body >= 80)
        return put(t, s, n) ? DC_OK : dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", file);
    char lit[80];
    memcpy(lit, s, body);
    lit[body] = '\0';
    char *end = NULL;
    errno = 0;
    bool wide;
    if (hex) {
        unsigned long long v = strtoull(lit + i, &end, 16);
        wide = v > 0x7fffffffULL;
    } else {
        long long v = strtoll(lit, &end, 10);
        wide = v < INT_MIN || v > INT_MAX;
    }
    if (errno == ERANGE)
        return dc_error_set(err, DC_EINPUT,
                            "%s:%u: %s: the integer %.*s is outside the 64-bit range (-9223372036854775808 to "
                            "9223372036854775807)",
                            file, line, sc->key[0] ? sc->key : "(value)", (int)n, s);
    if (!put(t, s, n) || (wide && !has_l && !put(t, "L", 1)))
        return dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", file);
    return DC_OK;
}

/* Copies one line (s, n, with its newline if any), rewriting numbers. */
static int put_line(dc_cfgtext *t, scan *sc, const char *s, size_t n, const char *file, unsigned line,
                    dc_error *err)
{
    size_t i = 0, from = 0;
#define FLUSH()                                                                                                    \
    do {                                                                                                       \
        if (i > from && !put(t, s + from, i - from))                                                           \
            return dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", file);                           \
        from = i;                                                                                              \
    } while (0)
    while (i < n) {
        char c = s[i];
        if (sc->in_block) {
            if (c == '*' && i + 1 < n && s[i + 1] == '/') {
                sc->in_block = false;
                i += 2;
            } else {
                i++;
            }
        } else if (sc->in_string) {
            if (c == '\\' && i + 1 < n)
                i += 2;
            else {
                sc->in_string = c != '"';
                i++;
            }
        } else if (c == '#' || (c == '/' && i + 1 < n && s[i + 1] == '/')) {
            i = n; /* the rest of the line */
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            sc->in_block = true;
            i += 2;
        } else if (c == '"') {
            sc->in_string = true;
            i++;
        } else if (name_start(c)) {
            size_t a = i;
            while (i < n && name_char(s[i]))
                i++;
            size_t len = i - a < sizeof sc->pending ? i - a : sizeof sc->pending - 1;
            memcpy(sc->pending, s + a, len);
            sc->pending[len] = '\0';
        } else if (c == '=' || c == ':') {
            memcpy(sc->key, sc->pending, sizeof sc->key);
            i++;
        } else if (digit(c) || ((c == '-' || c == '+' || c == '.') && i + 1 < n && (digit(s[i + 1]) || s[i + 1] == '.'))) {
            FLUSH();
            size_t a = i++;
            while (i < n && (name_char(s[i]) || s[i] == '.' ||
                             ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                              !(s[a] == '0' && a + 1 < n && (s[a + 1] == 'x' || s[a + 1] == 'X')))))
                i++;
            int rc = put_number(t, sc, s + a, i - a, file, line, err);
            if (rc != DC_OK)
                return rc;
            from = i;
        } else {
            i++;
        }
    }
    FLUSH();
#undef FLUSH
    return DC_OK;
}

/* Whether the line is `@include "NAME"` (libconfig's form: at the start of
 * a line); the name's bounds. */
static bool include_line(const char *s, size_t n, const char **name, size_t *len)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (n - i < 8 || strncmp(s + i, "@include", 8) != 0)
        return false;
    i += 8;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || s[i] != '"')
        return false;
    const char *q = memchr(s + i + 1, '"', n - i - 1);
    if (!q)
        return false;
    *name = s + i + 1;
    *len = (size_t)(q - *name);
    return true;
}

static int expand(dc_cfgtext *t, const char *path, open_file *stack, int depth, const char *from_file,
                  unsigned from_line, const char *as_written, dc_error *err)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        int e = errno;
        if (f)
            fclose(f);
        if (depth == 0)
            return dc_error_set(err, DC_EIO, "cannot read scenario '%s': %s", path, strerror(e));
        return dc_error_set(err, DC_EINPUT, "%s:%u: @include \"%s\": cannot open include file '%s': %s", from_file,
                            from_line, as_written, path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        if (depth == 0)
            return dc_error_set(err, DC_EIO, "cannot read scenario '%s': %s", path, strerror(EISDIR));
        return dc_error_set(err, DC_EINPUT, "%s:%u: @include \"%s\": '%s' is a directory, not a scenario file",
                            from_file, from_line, as_written, path);
    }
    for (int k = 0; k < depth; k++)
        if (stack[k].dev == st.st_dev && stack[k].ino == st.st_ino) {
            fclose(f);
            return dc_error_set(err, DC_EINPUT,
                                "%s:%u: @include \"%s\": '%s' is already being read (%s): a file may not include "
                                "itself, directly or through others",
                                from_file, from_line, as_written, path,
                                k == depth - 1 ? "it is the including file" : "it includes this file");
        }
    if (depth >= DC_CFGTEXT_MAX_DEPTH) {
        fclose(f);
        return dc_error_set(err, DC_EINPUT, "%s:%u: @include \"%s\": includes nested more than %d deep", from_file,
                            from_line, as_written, DC_CFGTEXT_MAX_DEPTH);
    }
    if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > MAX_FILE_BYTES) {
        fclose(f);
        return dc_error_set(err, DC_EINPUT, "%s: %jd bytes, more than a scenario file may have (%u MB)", path,
                            (intmax_t)st.st_size, MAX_FILE_BYTES >> 20);
    }
    /* the whole file */
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int rc = DC_OK;
    while (buf) {
        if (n == cap) {
            char *p = cap < MAX_FILE_BYTES ? realloc(buf, 2 * cap) : NULL;
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf)
        return dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", path);
    if (bad) {
        free(buf);
        return dc_error_set(err, depth ? DC_EINPUT : DC_EIO, "cannot read %s '%s': %s",
                            depth ? "include file" : "scenario", path, strerror(EIO));
    }
    size_t fi;
    if (!add_file(t, path, &fi)) {
        free(buf);
        return dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", path);
    }
    stack[depth] = (open_file){st.st_dev, st.st_ino, t->files[fi]};
    const char *fname = t->files[fi];
    size_t at = 0;
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
        at = 3; /* a UTF-8 byte-order mark */
    scan sc = {0};
    unsigned line = 1;
    bool segment_open = false;
    while (at < n && rc == DC_OK) {
        const char *nl = memchr(buf + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (buf + at)) + 1 : n - at;
        const char *name;
        size_t name_len;
        if (!sc.in_block && !sc.in_string && include_line(buf + at, len, &name, &name_len)) {
            char written[4096], resolved[8192];
            if (name_len >= sizeof written) {
                rc = dc_error_set(err, DC_EINPUT, "%s:%u: @include: the file name is too long", fname, line);
                break;
            }
            memcpy(written, name, name_len);
            written[name_len] = '\0';
            const char *slash = strrchr(fname, '/');
            if (written[0] == '/' || !slash)
                snprintf(resolved, sizeof resolved, "%s", written);
            else
                snprintf(resolved, sizeof resolved, "%.*s/%s", (int)(slash - fname), fname, written);
            rc = expand(t, resolved, stack, depth + 1, fname, line, written, err);
            /* an included file that does not end its last line */
            if (rc == DC_OK && t->len > 0 && t->text[t->len - 1] != '\n' && !put(t, "\n", 1))
                rc = dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", path);
            segment_open = false;
        } else {
            if (!segment_open && !add_segment(t, fi, line)) {
                rc = dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", path);
                break;
            }
            segment_open = true;
            rc = put_line(t, &sc, buf + at, len, fname, line, err);
        }
        at += len;
        line++;
    }
    free(buf);
    return rc;
}

int dc_cfgtext_load(const char *path, dc_cfgtext **out, dc_error *err)
{
    dc_cfgtext *t = calloc(1, sizeof *t);
    if (!t || !put(t, "", 0)) {
        free(t);
        return dc_error_set(err, DC_ENOMEM, "out of memory reading '%s'", path);
    }
    t->out_line = 1;
    open_file stack[DC_CFGTEXT_MAX_DEPTH + 1];
    int rc = expand(t, path, stack, 0, NULL, 0, path, err);
    if (rc != DC_OK) {
        dc_cfgtext_destroy(t);
        return rc;
    }
    *out = t;
    return DC_OK;
}

void dc_cfgtext_destroy(dc_cfgtext *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_files; i++)
        free(t->files[i]);
    free(t->files);
    free(t->seg);
    free(t->text);
    free(t);
}

const char *dc_cfgtext_text(const dc_cfgtext *t)
{
    return t->text;
}

bool dc_cfgtext_where(const dc_cfgtext *t, unsigned line, const char **file, unsigned *file_line)
{
    if (!t || line == 0 || line > t->out_line)
        return false;
    size_t lo = 0, hi = t->n_seg; /* the last segment starting at or before line */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->seg[mid].out_start <= line)
            lo = mid;
        else
            hi = mid;
    }
    if (t->n_seg == 0 || t->seg[lo].out_start > line)
        return false;
    *file = t->files[t->seg[lo].file];
    *file_line = t->seg[lo].file_start + (line - t->seg[lo].out_start);
    return true;
}

size_t dc_cfgtext_file_count(const dc_cfgtext *t)
{
    return t ? t->n_files : 0;
}

const char *dc_cfgtext_file(const dc_cfgtext *t, size_t i)
{
    return t && i < t->n_files ? t->files[i] : NULL;
}
