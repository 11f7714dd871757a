/* The strict CSV reader: whole input in memory, fields addressed by offsets.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The CSV reader (see csv.h).  The whole input is read into one buffer
 * and parsed line by line in place: each field is cut there (a NUL after
 * it, a quoted one unquoted where it stands: never longer than its text),
 * addressed by offsets (rows x columns), the arrays of offsets and line
 * numbers sized once from the count of line ends.
 * Messages quote at most 40 characters of a field and show anything that
 * is not printable ASCII as '?', so that fuzzed input gives readable
 * errors. */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct dc_csv {
    char *name;
    char *text;          /* the input, its fields cut in place */
    size_t *off;         /* header fields, then rows x columns */
    size_t n_off, off_cap;
    size_t *lines;       /* line of each data row */
    size_t n_rows, lines_cap;
    size_t n_cols;
    size_t header_line;
};

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2 / elem)
            return false;
        cap2 *= 2;
    }
    void *g = realloc(*p, cap2 * elem);
    if (!g)
        return false;
    *p = g;
    *cap = cap2;
    return true;
}

void dc_csv_destroy(dc_csv *csv)
{
    if (!csv)
        return;
    free(csv->name);
    free(csv->text);
    free(csv->off);
    free(csv->lines);
    free(csv);
}

const char *dc_csv_name(const dc_csv *csv) { return csv->name; }
size_t dc_csv_column_count(const dc_csv *csv) { return csv->n_cols; }
size_t dc_csv_row_count(const dc_csv *csv) { return csv->n_rows; }
size_t dc_csv_header_line(const dc_csv *csv) { return csv->header_line; }
size_t dc_csv_line(const dc_csv *csv, size_t row) { return csv->lines[row]; }
const char *dc_csv_header(const dc_csv *csv, size_t col) { return csv->text + csv->off[col]; }

const char *dc_csv_cell(const dc_csv *csv, size_t row, size_t col)
{
    return csv->text + csv->off[(row + 1) * csv->n_cols + col];
}

/* A short printable rendering of s for messages. */
static void show(const char *s, size_t len, char *buf, size_t size)
{
    size_t n = 0, max = size - 4;
    for (size_t i = 0; i < len && n < max; i++)
        buf[n++] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    if (len > max && size >= 4) {
        buf[n++] = '.';
        buf[n++] = '.';
        buf[n++] = '.';
    }
    buf[n] = '\0';
}

static bool add_off(dc_csv *csv, size_t off)
{
    if (!grow((void **)&csv->off, &csv->off_cap, csv->n_off + 1, sizeof *csv->off))
        return false;
    csv->off[csv->n_off++] = off;
    return true;
}

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* Parses one line [p, end) of csv->text into fields appended to csv;
 * returns the field count, or -1 with err set.  The fields are cut in
 * place: a NUL after each (trailing blanks cut; at end, which the caller
 * may overwrite), a quoted field unquoted where it stands. */
static long parse_line(dc_csv *csv, char *p, char *end, size_t line, dc_error *err)
{
    char *q = p, *stop = end;
    long n = 0;
    for (;;) {
        while (q < stop && blank(*q))
            q++;
        char *start = q, *cut;
        if (q < stop && *q == '"') {
            char *w = q++;
            for (;;) {
                if (q == stop) {
                    dc_error_set(err, DC_EINPUT, "%s:%zu: unterminated quote in field %ld", csv->name, line, n + 1);
                    return -1;
                }
                if (*q == '"') {
                    if (q + 1 < stop && q[1] == '"') {
                        *w++ = '"';
                        q += 2;
                        continue;
                    }
                    q++;
                    break;
                }
                *w++ = *q++;
            }
            cut = w;
            while (q < stop && blank(*q))
                q++;
            if (q < stop && *q != ',') {
                char shown[48];
                show(q, (size_t)(stop - q), shown, sizeof shown);
                dc_error_set(err, DC_EINPUT, "%s:%zu: text after the closing quote of field %ld (\"%s\")", csv->name,
                             line, n + 1, shown);
                return -1;
            }
        } else {
            while (q < stop && *q != ',') {
                if (*q == '"') {
                    dc_error_set(err, DC_EINPUT, "%s:%zu: a quote inside unquoted field %ld", csv->name, line, n + 1);
                    return -1;
                }
                q++;
            }
            cut = q;
            while (cut > start && blank(cut[-1]))
                cut--;
        }
        bool more = q < stop && *q == ','; /* (before the cut, which may fall on the comma) */
        *cut = '\0';
        if (!add_off(csv, (size_t)(start - csv->text))) {
            dc_error_set(err, DC_ENOMEM, "%s: out of memory reading line %zu", csv->name, line);
            return -1;
        }
        n++;
        if (!more)
            break;
        q++;
    }
    return n;
}

/* The number of line ends in [p, end). */
static size_t count_lines(const char *p, const char *end)
{
    size_t n = 0;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
    return n;
}

/* Parses text[0, len) (text: malloc'd, len + 1 bytes, owned from here on)
 * into *out. */
static int parse_text(char *text, size_t len, const char *display_name, dc_csv **out, dc_error *err)
{
    *out = NULL;
    dc_csv *csv = calloc(1, sizeof *csv);
    if (!csv || !(csv->name = strdup(display_name ? display_name : "(csv)"))) {
        free(csv);
        free(text);
        return dc_error_set(err, DC_ENOMEM, "out of memory reading %s", display_name ? display_name : "(csv)");
    }
    csv->text = text;
    text[len] = '\0';
    char *p = text, *end = text + len;
    /* A UTF-8 byte-order mark (spreadsheets write one) is not part of the
     * first column's name: it showed as "???time_h". */
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    /* the first NUL byte, an error on its line (end: none) */
    const char *nul = memchr(p, '\0', (size_t)(end - p));
    if (!nul)
        nul = end;
    size_t n_lines = count_lines(p, end) + 1; /* at most this many rows, header included */
    size_t line = 0;
    int rc = DC_OK;
    while (p < end) {
        line++;
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *le = nl ? nl : end;
        char *next = nl ? nl + 1 : end;
        if (nul < le) {
            rc = dc_error_set(err, DC_EINPUT, "%s:%zu: a NUL byte (is this a text file?)", csv->name, line);
            goto fail;
        }
        if (le > p && le[-1] == '\r')
            le--;
        const char *q = p;
        while (q < le && blank(*q))
            q++;
        if (q == le || *q == '#') {
            p = next;
            continue;
        }
        size_t before = csv->n_off;
        long n = parse_line(csv, p, le, line, err);
        if (n < 0) {
            rc = err ? err->code : DC_EINPUT;
            goto fail;
        }
        if (csv->header_line == 0) {
            csv->header_line = line;
            csv->n_cols = (size_t)n;
            for (size_t i = 0; i < csv->n_cols; i++) {
                const char *h = csv->text + csv->off[i];
                if (!h[0]) {
                    rc = dc_error_set(err, DC_EINPUT, "%s:%zu: column %zu of the header has no name", csv->name, line,
                                      i + 1);
                    goto fail;
                }
                for (size_t k = 0; k < i; k++)
                    if (strcmp(h, csv->text + csv->off[k]) == 0) {
                        char shown[48];
                        show(h, strlen(h), shown, sizeof shown);
                        rc = dc_error_set(err, DC_EINPUT, "%s:%zu: column \"%s\" is named twice in the header",
                                          csv->name, line, shown);
                        goto fail;
                    }
            }
            /* the rows' offsets and lines at once (the lines left after the
             * header bound the rows; a doubling's copies otherwise) */
            size_t rows = n_lines - line;
            if (csv->n_cols > 0 && rows <= SIZE_MAX / sizeof(size_t) / csv->n_cols - 1
                && (!grow((void **)&csv->off, &csv->off_cap, (rows + 1) * csv->n_cols, sizeof *csv->off)
                    || !grow((void **)&csv->lines, &csv->lines_cap, rows, sizeof *csv->lines))) {
                rc = dc_error_set(err, DC_ENOMEM, "%s: out of memory at line %zu", csv->name, line);
                goto fail;
            }
        } else {
            if ((size_t)n != csv->n_cols) {
                rc = dc_error_set(err, DC_EINPUT, "%s:%zu: expected %zu field%s as in the header (line %zu), got %ld",
                                  csv->name, line, csv->n_cols, csv->n_cols == 1 ? "" : "s", csv->header_line, n);
                goto fail;
            }
            if (!grow((void **)&csv->lines, &csv->lines_cap, csv->n_rows + 1, sizeof *csv->lines)) {
                csv->n_off = before;
                rc = dc_error_set(err, DC_ENOMEM, "%s: out of memory at line %zu", csv->name, line);
                goto fail;
            }
            csv->lines[csv->n_rows++] = line;
        }
        p = next;
    }
    if (csv->header_line == 0) {
        rc = dc_error_set(err, DC_EINPUT, "%s: no header line (the file is empty or all comments)", csv->name);
        goto fail;
    }
    *out = csv;
    return DC_OK;
fail:
    dc_csv_destroy(csv);
    return rc;
}

int dc_csv_read_string(const char *text, size_t len, const char *display_name,
                       dc_csv **out, dc_error *err)
{
    *out = NULL;
    char *copy = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (!copy)
        return dc_error_set(err, DC_ENOMEM, "out of memory reading %s", display_name ? display_name : "(csv)");
    memcpy(copy, text, len);
    return parse_text(copy, len, display_name, out, err);
}

int dc_csv_read_file(const char *path, dc_csv **out, dc_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return dc_error_set(err, DC_EIO, "cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return dc_error_set(err, DC_EIO, "cannot read %s: %s", path, strerror(EISDIR));
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (!grow((void **)&buf, &cap, len + 65536, 1)) {
            free(buf);
            fclose(f);
            return dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return dc_error_set(err, DC_EIO, "cannot read %s: read error", path);
    }
    if (len == cap && !grow((void **)&buf, &cap, len + 1, 1)) { /* (room for the last NUL) */
        free(buf);
        return dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
    }
    return parse_text(buf, len, path, out, err);
}

int dc_csv_find_column(const dc_csv *csv, const char *name, size_t *col, dc_error *err)
{
    for (size_t i = 0; i < csv->n_cols; i++)
        if (strcmp(dc_csv_header(csv, i), name) == 0) {
            *col = i;
            return DC_OK;
        }
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < csv->n_cols && used < sizeof list - 8; i++) {
        char shown[48];
        const char *h = dc_csv_header(csv, i);
        show(h, strlen(h), shown, sizeof shown);
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", shown);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return dc_error_set(err, DC_EINPUT, "%s:%zu: no column \"%s\" (columns: %s)", csv->name, csv->header_line, name,
                        list);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

static int bitlen128(u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
    return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

/* The double nearest v 2^e2 (v > 0; sticky: v was cut and more nonzero
 * bits followed), ties to even: its top 53 bits, rounded by the rest.  The
 * callers keep v 2^e2 within the normal range, where ldexp is exact. */
static double round128(u128 v, int e2, bool sticky)
{
    int len = bitlen128(v);
    if (len < 64) { /* room for the rounding bits */
        v <<= 64 - len;
        e2 -= 64 - len;
        len = 64;
    }
    int shift = len - 53;
    u128 top = v >> shift, rest = v & (((u128)1 << shift) - 1), half = (u128)1 << (shift - 1);
    if (rest > half || (rest == half && (sticky || (top & 1)))) {
        top++;
        if (top >> 53) {
            top >>= 1;
            shift++;
        }
    }
    return ldexp((double)(uint64_t)top, e2 + shift);
}

/* m 10^scale exactly rounded, m < 10^19, |scale| <= 19, in integers:
 * m 10^scale < 2^128 as it stands; for scale < 0, m shifted to fill 128
 * bits and divided by 10^-scale < 2^64 leaves a quotient of 64 bits or
 * more, the remainder its sticky bit. */
static double exact_decimal(uint64_t m, int scale)
{
    static const uint64_t p10[20] = {1u,
                                     10u,
                                     100u,
                                     1000u,
                                     10000u,
                                     100000u,
                                     1000000u,
                                     10000000u,
                                     100000000u,
                                     1000000000u,
                                     10000000000u,
                                     100000000000u,
                                     1000000000000u,
                                     10000000000000u,
                                     100000000000000u,
                                     1000000000000000u,
                                     10000000000000000u,
                                     100000000000000000u,
                                     1000000000000000000u,
                                     10000000000000000000u};
    if (scale >= 0)
        return round128((u128)m * p10[scale], 0, false);
    int s = 128 - bitlen128(m);
    u128 n = (u128)m << s, d = p10[-scale];
    return round128(n / d, -s, n % d != 0);
}
#endif

/* Clinger's fast path (W. D. Clinger, "How to read floating point numbers
 * accurately", PLDI 1990): a decimal whose significant digits make an
 * integer m <= 2^53 and whose exponent e has |e| <= 22 is m * 10^e or
 * m / 10^-e, both operands exact doubles, so the one rounding of the
 * product or quotient is the correctly rounded value, strtod's.  Up to 19
 * digits (the 17 of a shortest round-trip double, Python's repr) with
 * |e| <= 19, where m is past 2^53, the value is rounded from exact 128-bit
 * integer arithmetic (exact_decimal; compilers with __int128).  Any other
 * text (more digits, a larger exponent, hex, inf, blanks, anything after
 * the number) goes to strtod itself. */
double dc_csv_strtod(const char *s, char **end)
{
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    uint64_t m = 0;
    int digits = 0, scale = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        m = m * 10 + (uint64_t)(*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, digits++, scale--)
            m = m * 10 + (uint64_t)(*p - '0');
    /* 19 digits cannot overflow 64 bits */
    if (digits == 0 || digits > 19)
        return strtod(s, end);
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        bool eneg = *q == '-';
        if (*q == '-' || *q == '+')
            q++;
        int x = 0, xd = 0;
        for (; *q >= '0' && *q <= '9' && xd < 4; q++, xd++)
            x = x * 10 + (*q - '0');
        if (xd == 0 || (*q >= '0' && *q <= '9'))
            return strtod(s, end);
        scale += eneg ? -x : x;
        p = q;
    }
    /* only a whole string: what follows ("0x1p3", "1.5junk") is strtod's to judge */
    if (*p != '\0')
        return strtod(s, end);
    double v;
    if (m <= (UINT64_C(1) << 53) && scale >= -22 && scale <= 22)
        v = scale >= 0 ? (double)m * pow10[scale] : (double)m / pow10[-scale];
#ifdef __SIZEOF_INT128__
    else if (scale >= -19 && scale <= 19)
        v = exact_decimal(m, scale);
#endif
    else
        return strtod(s, end);
    if (end)
        *end = (char *)p;
    return neg ? -v : v;
}

int dc_csv_number(const dc_csv *csv, size_t row, size_t col, double *out, dc_error *err)
{
    const char *s = dc_csv_cell(csv, row, col);
    char *end = NULL;
    errno = 0;
    double v = s[0] ? dc_csv_strtod(s, &end) : NAN;
    if (!s[0] || *end != '\0' || !isfinite(v)) {
        char shown[48];
        show(s, strlen(s), shown, sizeof shown);
        return dc_csv_error_at(csv, row, col, err, "expected a number (got \"%s\")", shown);
    }
    *out = v;
    return DC_OK;
}

int dc_csv_error_at(const dc_csv *csv, size_t row, size_t col, dc_error *err, const char *fmt, ...)
{
    char msg[DC_ERROR_MSG_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char shown[48];
    const char *h = dc_csv_header(csv, col);
    show(h, strlen(h), shown, sizeof shown);
    return dc_error_set(err, DC_EINPUT, "%s:%zu: column %s: %s", csv->name, dc_csv_line(csv, row), shown, msg);
}

bool dc_csv_resolve_path(const char *base_file, const char *name, char *buf, size_t size)
{
    const char *slash = base_file ? strrchr(base_file, '/') : NULL;
    int w;
    if (name[0] == '/' || !slash)
        w = snprintf(buf, size, "%s", name);
    else
        w = snprintf(buf, size, "%.*s/%s", (int)(slash - base_file), base_file, name);
    return w >= 0 && (size_t)w < size;
}
