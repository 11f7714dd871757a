/* The HDF5 trace writer.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The HDF5 trace writer (layout in trace.h).
 *
 * Choices beyond the header:
 * - The file format is pinned to HDF5 1.8 (libver bounds V18..V18): every
 *   reader since 2008 (h5py, pandas, h5dump) reads it, attributes larger than
 *   64 KiB (a long scenario text) go to dense storage, and creation order can
 *   be tracked.
 * - Object modification times are not recorded, so two identical runs give
 *   identical files except for the started_at attribute.
 * - String attributes are variable-length UTF-8 (h5py reads them as str);
 *   /series has the attribute "columns" = ["time_s", "value"].
 * - Fewer, larger datasets (format 2): the summary is one table (/summary)
 *   and every series' points one array (/series) indexed by /series_index,
 *   instead of a scalar dataset per figure and a dataset per series, each
 *   with its attributes (format 1): creating a dataset or an attribute
 *   costs libhdf5 tens of thousands of instructions, writing a row a few.
 * - Tables' rows are written as they lie in memory: the memory type has
 *   the file type's offsets, so libhdf5 copies them instead of converting
 *   member by member.  Their strings are fixed-length and NUL-padded
 *   (/summary's and /series_index's UTF-8).
 * - A dataset written whole at the end (the summary, /series_index,
 *   /series, and /events and the tables when they were not streamed),
 *   uncompressed and not empty, is contiguous and of fixed size: libhdf5
 *   then writes its rows in one piece, where a chunk costs it some 17,000
 *   instructions (the flagship's 30 chunks of /series, its /events, its
 *   summary's two chunks: 0.84 M of 75.6 M; the file 5% smaller).  The
 *   others are chunked in 64 KiB chunks (/series: 4096 rows, fewer when it
 *   is shorter, at least 1) with an unlimited row dimension, so an empty
 *   table is a valid dataset and streamed rows can be appended; with
 *   compression_level > 0 they are shuffled and deflated.  No fill value
 *   is ever written (fill time "never"): every row is written once; the
 *   part of a last chunk past the rows, which no reader can address, is
 *   zeroed by libhdf5 (the files stay byte for byte reproducible).
 * - A compound type is built once: on a little-endian machine the rows'
 *   memory type is the file type itself (a reference more), not a second
 *   type of native members nor a copy (/jobs: 38 members, 2,500
 *   instructions each to build).
 * - /events is always written, empty when the log is disabled or NULL.
 * - HDF5's automatic error printing is off during the write (and restored
 *   after); every failure becomes DC_EIO "cannot write trace 'NAME': ...".
 *   A summary key or series name that is not a valid HDF5 link name (empty,
 *   ".", or containing '/') fails the write with DC_EINTERNAL.
 * - The file is built in memory and its image written with write(2)
 *   (sim/h5image.h): a full disk or a file-size limit is an errno we
 *   report, never a failure inside libhdf5 (which 1.10 does not survive);
 *   a 512-byte user block in front carries a checksum of the rest.  The
 *   image written is the core driver's own buffer, kept as the file closes
 *   (dc_h5image_fapl_keep): no copy of it is made.
 * - The output follows sim/outfile.h (temporary file then rename, devices
 *   in place, links, FIFOs and inputs refused).  The temporary file is not
 *   fsync'ed before the rename: a crash of dcsim never leaves a half file
 *   under NAME, but a power cut right after the run may (the kernel has the
 *   data, the disk may not yet). */
#include "trace.h"
#include "trace_format.h"
#include "h5image.h"
#include "h5quiet.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

/* 64 KiB chunks: /series rows of two float64, tables rows of their size. */
#define SERIES_CHUNK_ROWS 4096
#define TABLE_CHUNK_BYTES 65536
/* Rows streamed during a run reach the file 16 chunks (1 MiB) at a time:
 * an H5Dwrite costs some 45,000 instructions whatever it writes (its type
 * set-up, H5D__typeinfo_init, alone 25,000: the compound types compared
 * member by member) and a chunk some 17,000 more; one call per chunk was
 * 63,000 instructions a chunk (ITP cluster08: 117 flushes, 7.4 M). */
#define STREAM_BLOCK_CHUNKS 16

int dc_trace_check_writable(const char *path, dc_error *err)
{
    return dc_outfile_check(path, "trace", NULL, 0, err);
}

/* ---- HDF5 helpers --------------------------------------------------------- */

/* A table being written: its dataset, its rows' memory type, the rows
 * written so far; key: the rowtable or event log whose rows it takes. */
typedef struct table_out {
    const void *key;
    char path[64];
    hid_t d, mem;
    size_t rows;
} table_out;

#define MAX_STREAMED 16

typedef struct writer {
    const char *path;
    dc_error *err;
    hid_t file;
    hid_t str_type; /* variable-length UTF-8 string */
    hid_t scalar;   /* scalar dataspace */
    hid_t dapl;     /* tables: no chunk cache (each chunk is written once, whole) */
    int level;      /* deflate level, 0 = none */
    dc_h5image *img;
    /* tables streamed during the run (dc_trace_stream) */
    table_out streamed[MAX_STREAMED];
    size_t n_streamed;
} writer;

#define DETAIL_MAX 256

static herr_t innermost_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    char *buf = data;
    if (n == 0 && e->desc)
        snprintf(buf, DETAIL_MAX, "%s", e->desc);
    return 0;
}

/* The most specific message on HDF5's error stack, shortened: for a failed
 * system call it is the system's message ("No space left on device"). */
static void h5_detail(char *buf)
{
    buf[0] = '\0';
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost_cb, buf);
    const char *tag = "error message = '";
    char *p = strstr(buf, tag);
    if (p) {
        p += strlen(tag);
        char *end = strchr(p, '\'');
        if (end)
            *end = '\0';
        memmove(buf, p, strlen(p) + 1);
    }
}

/* Records an HDF5 failure while doing what (a printf format). */
static int fail(writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(writer *w, const char *fmt, ...)
{
    char detail[DETAIL_MAX];
    char what[DC_ERROR_MSG_MAX / 2];
    h5_detail(detail);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (detail[0])
        return dc_error_set(w->err, DC_EIO, "cannot write trace '%s': %s (HDF5: %s)", w->path,
                            what, detail);
    return dc_error_set(w->err, DC_EIO, "cannot write trace '%s': %s", w->path, what);
}

static bool valid_link_name(const char *name)
{
    return name && name[0] && strcmp(name, ".") != 0 && !strchr(name, '/');
}

static int write_attr_str(writer *w, hid_t obj, const char *objname, const char *name,
                          const char *value)
{
    const char *v = value ? value : "";
    hid_t attr = H5Acreate2(obj, name, w->str_type, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0)
        return fail(w, "could not create attribute '%s' of %s", name, objname);
    herr_t st = H5Awrite(attr, w->str_type, &v);
    if (H5Aclose(attr) < 0 || st < 0)
        return fail(w, "could not write attribute '%s' of %s", name, objname);
    return DC_OK;
}

static int write_attr_num(writer *w, hid_t obj, const char *name, hid_t file_type,
                          hid_t mem_type, const void *value)
{
    hid_t attr = H5Acreate2(obj, name, file_type, w->scalar, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0)
        return fail(w, "could not create attribute '%s' of /", name);
    herr_t st = H5Awrite(attr, mem_type, value);
    if (H5Aclose(attr) < 0 || st < 0)
        return fail(w, "could not write attribute '%s' of /", name);
    return DC_OK;
}

/* Whether a dataset of n rows, all written at the end, is stored
 * contiguous (see the header): not compressed, not empty. */
static bool contiguous(const writer *w, size_t n)
{
    return w->level == 0 && n > 0;
}

/* Creation properties of a table of n rows: contiguous (contig: see
 * contiguous()), or chunked, maybe deflated. */
static hid_t table_dcpl(writer *w, int rank, size_t n, size_t max_rows, hsize_t width, bool contig)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0)
        return -1;
    hsize_t chunk[2] = {n < 1 ? 1 : (n > max_rows ? max_rows : n), width};
    bool ok = H5Pset_obj_track_times(dcpl, 0) >= 0 && H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0;
    if (ok && contig)
        ok = H5Pset_layout(dcpl, H5D_CONTIGUOUS) >= 0;
    else if (ok)
        ok = H5Pset_chunk(dcpl, rank, chunk) >= 0;
    if (ok && w->level > 0)
        ok = H5Pset_shuffle(dcpl) >= 0 && H5Pset_deflate(dcpl, (unsigned)w->level) >= 0;
    if (!ok) {
        H5Pclose(dcpl);
        return -1;
    }
    return dcpl;
}

/* ---- the parts of the file ------------------------------------------------ */

static int write_root_attrs(writer *w, const dc_trace_meta *m)
{
    static const dc_trace_meta none;
    if (!m)
        m = &none;
    int version = DC_TRACE_FORMAT_VERSION;
    uint64_t seed = m->seed;
    double horizon = m->horizon_s, end = m->end_s;
    hid_t root = w->file;
    int rc;
    if ((rc = write_attr_str(w, root, "/", "dcsim_version", m->dcsim_version)) != DC_OK ||
        (rc = write_attr_num(w, root, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT,
                             &version)) != DC_OK ||
        (rc = write_attr_str(w, root, "/", "scenario", m->scenario_text)) != DC_OK ||
        (rc = write_attr_str(w, root, "/", "scenario_file", m->scenario_file)) != DC_OK ||
        (rc = write_attr_num(w, root, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &seed)) !=
            DC_OK ||
        (rc = write_attr_num(w, root, "horizon_s", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                             &horizon)) != DC_OK ||
        (rc = write_attr_num(w, root, "end_s", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &end)) !=
            DC_OK ||
        (rc = write_attr_str(w, root, "/", "started_at", m->started_at)) != DC_OK)
        return rc;
    /* the scenario's warnings (sim/scenario.h), one per line; none: no attribute */
    if (m->warnings && m->warnings[0] && (rc = write_attr_str(w, root, "/", "warnings", m->warnings)) != DC_OK)
        return rc;
    return DC_OK;
}


/* ---- tables ------------------------------------------------------------------- */

/* Creates the dataset of table o: file_type rows, n of them to begin with
 * (it grows as rows are appended, unless fixed: n rows, written at once,
 * contiguous() when it can be), chunks of chunk_rows; mem_type (kept)
 * is the rows' layout in memory: the same offsets and, on a little-endian
 * machine, the same types, so that libhdf5 copies the rows rather than
 * converting them member by member. */
static int table_create(writer *w, table_out *o, hid_t file_type, hid_t mem_type, size_t n, size_t chunk_rows,
                        bool fixed)
{
    int rc = DC_OK;
    bool contig = fixed && contiguous(w, n);
    hsize_t dims[1] = {n}, maxdims[1] = {contig ? n : H5S_UNLIMITED};
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = table_dcpl(w, 1, chunk_rows, chunk_rows, 0, contig);
    o->d = o->mem = -1;
    o->rows = 0;
    /* (o keeps mem_type by a reference of its own: a copy of a compound
     * type costs what building it did) */
    if (file_type < 0 || mem_type < 0 || space < 0 || dcpl < 0 || H5Iinc_ref(mem_type) < 0)
        rc = fail(w, "could not set up dataset %s", o->path);
    else if ((o->mem = mem_type) < 0 ||
             (o->d = H5Dcreate2(w->file, o->path, file_type, space, H5P_DEFAULT, dcpl, w->dapl)) < 0)
        rc = fail(w, "could not create dataset %s", o->path);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* Writes n rows after those o has, growing the dataset when it must. */
static int table_append(writer *w, table_out *o, const void *rows, size_t n)
{
    if (n == 0)
        return DC_OK;
    hid_t fspace = H5Dget_space(o->d);
    hsize_t dims[1] = {0};
    int rc = DC_OK;
    if (fspace < 0 || H5Sget_simple_extent_dims(fspace, dims, NULL) < 0)
        rc = fail(w, "could not write dataset %s", o->path);
    if (rc == DC_OK && dims[0] < o->rows + n) {
        H5Sclose(fspace);
        dims[0] = o->rows + n;
        if (H5Dset_extent(o->d, dims) < 0 || (fspace = H5Dget_space(o->d)) < 0) {
            fspace = -1;
            rc = fail(w, "could not extend dataset %s", o->path);
        }
    }
    hsize_t off[1] = {o->rows}, count[1] = {n};
    hid_t mspace = rc == DC_OK ? H5Screate_simple(1, count, NULL) : -1;
    if (rc == DC_OK &&
        (mspace < 0 || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, count, NULL) < 0 ||
         H5Dwrite(o->d, o->mem, mspace, fspace, H5P_DEFAULT, rows) < 0))
        rc = fail(w, "could not write dataset %s", o->path);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (rc == DC_OK)
        o->rows += n;
    return rc;
}

/* The attributes every table carries: "doc", "units" (one per column,
 * comma-separated) and "column_docs" ("name: doc" lines); closes o. */
static int table_finish(writer *w, table_out *o, const char *doc, const char *units, const char *column_docs)
{
    int rc = write_attr_str(w, o->d, o->path, "doc", doc);
    if (rc == DC_OK)
        rc = write_attr_str(w, o->d, o->path, "units", units);
    if (rc == DC_OK)
        rc = write_attr_str(w, o->d, o->path, "column_docs", column_docs);
    if (H5Dclose(o->d) < 0 && rc == DC_OK)
        rc = fail(w, "could not close dataset %s", o->path);
    H5Tclose(o->mem);
    o->d = o->mem = -1;
    return rc;
}

/* A whole table of n rows in one go, in 64 KiB chunks (fewer rows when
 * the table is shorter, at least 1). */
static int write_table(writer *w, const char *path, hid_t file_type, hid_t mem_type, size_t n, size_t row_size,
                       const void *rows, const char *doc, const char *units, const char *column_docs)
{
    table_out o = {0};
    snprintf(o.path, sizeof o.path, "%s", path);
    size_t per_chunk = TABLE_CHUNK_BYTES / (row_size ? row_size : 1);
    per_chunk = per_chunk ? per_chunk : 1;
    int rc = table_create(w, &o, file_type, mem_type, n, n < 1 ? 1 : n < per_chunk ? n : per_chunk, true);
    if (rc == DC_OK)
        rc = table_append(w, &o, rows, n);
    if (rc == DC_OK)
        return table_finish(w, &o, doc, units, column_docs);
    if (o.d >= 0)
        H5Dclose(o.d);
    if (o.mem >= 0)
        H5Tclose(o.mem);
    return rc;
}

/* The streamed table of key, or NULL. */
static table_out *streamed_of(writer *w, const void *key)
{
    for (size_t i = 0; i < w->n_streamed; i++)
        if (w->streamed[i].key == key)
            return &w->streamed[i];
    return NULL;
}

/* A fixed-length UTF-8 string of size bytes, NUL-padded; -1 on failure. */
static hid_t fixed_str(size_t size)
{
    hid_t st = H5Tcopy(H5T_C_S1);
    if (st >= 0 && (H5Tset_size(st, size) < 0 || H5Tset_strpad(st, H5T_STR_NULLPAD) < 0 ||
                    H5Tset_cset(st, H5T_CSET_UTF8) < 0)) {
        H5Tclose(st);
        st = -1;
    }
    return st;
}

/* A packed compound layout built column by column: strings of a given
 * size, f8 and i8 cells; the same offsets in memory and in the file. */
#define PACKED_MAX_COLS 8
typedef struct packed {
    size_t n_cols, size;
    const char *name[PACKED_MAX_COLS];
    size_t offset[PACKED_MAX_COLS], str_len[PACKED_MAX_COLS]; /* str_len 0: a number */
    bool integer[PACKED_MAX_COLS];
} packed;

static size_t packed_add(packed *p, const char *name, size_t str_len, bool integer)
{
    size_t c = p->n_cols++;
    p->name[c] = name;
    p->offset[c] = p->size;
    p->str_len[c] = str_len;
    p->integer[c] = integer;
    p->size += str_len ? str_len : 8;
    return p->offset[c];
}

/* The memory type of rows whose file type is file: the same type (one
 * more reference) on a little-endian machine, where native numbers are the
 * file's (a compound type costs libhdf5 some 2,500 instructions a member
 * to build: /jobs has 38), else made(obj, true).  -1 on failure. */
static hid_t mem_type_of(hid_t file, hid_t (*made)(const void *, bool), const void *obj)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)made;
    (void)obj;
    return file >= 0 && H5Iinc_ref(file) >= 0 ? file : -1;
#else
    (void)file;
    return made(obj, true);
#endif
}

/* The compound type of p: native numbers for memory, little-endian for
 * the file.  -1 on failure. */
static hid_t packed_type(const packed *p, bool native)
{
    hid_t ct = H5Tcreate(H5T_COMPOUND, p->size);
    bool ok = ct >= 0;
    for (size_t c = 0; c < p->n_cols && ok; c++) {
        if (p->str_len[c]) {
            hid_t st = fixed_str(p->str_len[c]);
            ok = st >= 0 && H5Tinsert(ct, p->name[c], p->offset[c], st) >= 0;
            if (st >= 0)
                H5Tclose(st);
        } else {
            hid_t nt = p->integer[c] ? (native ? H5T_NATIVE_INT64 : H5T_STD_I64LE)
                                     : (native ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE);
            ok = H5Tinsert(ct, p->name[c], p->offset[c], nt) >= 0;
        }
    }
    if (!ok && ct >= 0) {
        H5Tclose(ct);
        ct = -1;
    }
    return ct;
}

static hid_t packed_type_of(const void *p, bool native) { return packed_type(p, native); }

/* Writes a packed table (p's layout) of n rows. */
static int write_packed(writer *w, const char *path, const packed *p, size_t n, const void *rows,
                        const char *doc, const char *units, const char *column_docs)
{
    hid_t file = packed_type(p, false), mem = mem_type_of(file, packed_type_of, p);
    int rc = write_table(w, path, file, mem, n, p->size, rows, doc, units, column_docs);
    if (file >= 0)
        H5Tclose(file);
    if (mem >= 0)
        H5Tclose(mem);
    return rc;
}

/* Copies s (at most size - 1 bytes) into a zeroed field of size bytes. */
static void put_str(unsigned char *field, size_t size, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    memcpy(field, s ? s : "", n < size ? n : size - 1);
}

static void put_num(unsigned char *cell, const void *v)
{
    memcpy(cell, v, 8);
}

static size_t longest(size_t n, const char *(*get)(const void *, size_t), const void *obj)
{
    size_t m = 2;
    for (size_t i = 0; i < n; i++) {
        const char *s = get(obj, i);
        size_t k = (s ? strlen(s) : 0) + 1;
        m = k > m ? k : m;
    }
    return m;
}

static const char *summary_key_at(const void *s, size_t i) { return dc_summary_key(s, i); }
static const char *summary_unit_at(const void *s, size_t i) { return dc_summary_unit(s, i); }
static const char *summary_doc_at(const void *s, size_t i) { return dc_summary_doc(s, i); }

/* /summary: one row per figure, in summary order. */
static int write_summary(writer *w, const dc_summary *s)
{
    size_t n = dc_summary_count(s);
    for (size_t i = 0; i < n; i++)
        if (!valid_link_name(dc_summary_key(s, i)))
            return dc_error_set(w->err, DC_EINTERNAL,
                                "cannot write trace '%s': summary key '%s' is not a valid HDF5 name", w->path,
                                dc_summary_key(s, i));
    packed p = {0};
    size_t o_name = packed_add(&p, "name", longest(n, summary_key_at, s), false);
    size_t o_value = packed_add(&p, "value", 0, false);
    size_t o_unit = packed_add(&p, "unit", longest(n, summary_unit_at, s), false);
    size_t o_doc = packed_add(&p, "doc", longest(n, summary_doc_at, s), false);
    unsigned char *rows = calloc(n ? n : 1, p.size);
    if (!rows)
        return dc_error_set(w->err, DC_ENOMEM, "cannot write trace '%s': out of memory", w->path);
    for (size_t i = 0; i < n; i++) {
        unsigned char *r = rows + i * p.size;
        double v = dc_summary_value(s, i);
        put_str(r + o_name, p.str_len[0], dc_summary_key(s, i));
        put_num(r + o_value, &v);
        put_str(r + o_unit, p.str_len[2], dc_summary_unit(s, i));
        put_str(r + o_doc, p.str_len[3], dc_summary_doc(s, i));
    }
    int rc = write_packed(w, "/summary", &p, n, rows, "the summary: one row per figure, in the order the run wrote them",
                          ",,,",
                          "name: the figure's key\n"
                          "value: its value, in its unit\n"
                          "unit: its unit\n"
                          "doc: what it means\n");
    free(rows);
    return rc;
}

static const char *series_name_at(const void *set, size_t i) { return dc_series_name(dc_series_set_at(set, i)); }
static const char *series_unit_at(const void *set, size_t i) { return dc_series_unit(dc_series_set_at(set, i)); }
static const char *series_doc_at(const void *set, size_t i) { return dc_series_doc(dc_series_set_at(set, i)); }

/* /series: every series' points, one after the other, as rows (time_s,
 * value), a chunk at a time so that the interleaving buffer stays small. */
static int write_series_points(writer *w, const dc_series_set *set, size_t total)
{
    bool contig = contiguous(w, total);
    hsize_t dims[2] = {total, 2}, maxdims[2] = {contig ? total : H5S_UNLIMITED, 2};
    hid_t space = H5Screate_simple(2, dims, maxdims);
    hid_t dcpl = table_dcpl(w, 2, total, SERIES_CHUNK_ROWS, 2, contig);
    /* the points go to libhdf5 a block at a time: a chunk, or 16 chunks'
     * worth when contiguous (an H5Dwrite costs some 25,000 instructions
     * whatever it writes, a chunk some 17,000 more) */
    size_t block_rows = contig ? STREAM_BLOCK_CHUNKS * SERIES_CHUNK_ROWS : SERIES_CHUNK_ROWS;
    size_t block = total < block_rows ? (total ? total : 1) : block_rows;
    double *buf = malloc(block * 2 * sizeof *buf);
    hid_t d = -1;
    int rc = DC_OK;
    if (!buf)
        rc = dc_error_set(w->err, DC_ENOMEM, "cannot write trace '%s': out of memory", w->path);
    else if (space < 0 || dcpl < 0)
        rc = fail(w, "could not set up dataset /series");
    else if ((d = H5Dcreate2(w->file, "series", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, w->dapl)) < 0)
        rc = fail(w, "could not create dataset /series");
    size_t ns = dc_series_set_count(set), filled = 0, written = 0;
    for (size_t i = 0; i < ns && rc == DC_OK; i++) {
        const dc_series *s = dc_series_set_at(set, i);
        const double *t = dc_series_times(s), *v = dc_series_values(s);
        size_t len = dc_series_length(s);
        for (size_t k = 0; k < len && rc == DC_OK;) {
            /* as many points as fit the block, in one run (a test per
             * point cost 17 instructions of the flagship's 120,000) */
            size_t m = len - k < block - filled ? len - k : block - filled;
            double *b = buf + 2 * filled;
            for (size_t j = 0; j < m; j++) {
                b[2 * j] = t[k + j];
                b[2 * j + 1] = v[k + j];
            }
            k += m;
            filled += m;
            if (filled < block && written + filled < total)
                continue;
            hsize_t off[2] = {written, 0}, count[2] = {filled, 2};
            hid_t mspace = H5Screate_simple(2, count, NULL);
            if (mspace < 0 || H5Sselect_hyperslab(space, H5S_SELECT_SET, off, NULL, count, NULL) < 0 ||
                H5Dwrite(d, H5T_NATIVE_DOUBLE, mspace, space, H5P_DEFAULT, buf) < 0)
                rc = fail(w, "could not write dataset /series");
            if (mspace >= 0)
                H5Sclose(mspace);
            written += filled;
            filled = 0;
        }
    }
    if (rc == DC_OK) {
        const char *cols[2] = {"time_s", "value"};
        hsize_t two = 2;
        hid_t cspace = H5Screate_simple(1, &two, NULL);
        hid_t a = cspace < 0 ? -1 : H5Acreate2(d, "columns", w->str_type, cspace, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0 || H5Awrite(a, w->str_type, cols) < 0)
            rc = fail(w, "could not write attribute 'columns' of /series");
        if (a >= 0 && H5Aclose(a) < 0 && rc == DC_OK)
            rc = fail(w, "could not write attribute 'columns' of /series");
        if (cspace >= 0)
            H5Sclose(cspace);
    }
    if (rc == DC_OK)
        rc = write_attr_str(w, d, "/series", "doc",
                            "every time series' points (time_s, value), one series after the other in the "
                            "order of /series_index (its rows start and count)");
    if (d >= 0 && H5Dclose(d) < 0 && rc == DC_OK)
        rc = fail(w, "could not close dataset /series");
    free(buf);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* /series_index: one row per series (name, unit, doc, start, count), and
 * /series: their points. */
static int write_series(writer *w, const dc_series_set *set)
{
    size_t n = dc_series_set_count(set), total = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = dc_series_name(dc_series_set_at(set, i));
        if (!valid_link_name(name))
            return dc_error_set(w->err, DC_EINTERNAL,
                                "cannot write trace '%s': series name '%s' is not a valid HDF5 name", w->path,
                                name ? name : "");
        total += dc_series_length(dc_series_set_at(set, i));
    }
    packed p = {0};
    size_t o_name = packed_add(&p, "name", longest(n, series_name_at, set), false);
    size_t o_unit = packed_add(&p, "unit", longest(n, series_unit_at, set), false);
    size_t o_doc = packed_add(&p, "doc", longest(n, series_doc_at, set), false);
    size_t o_start = packed_add(&p, "start", 0, true);
    size_t o_count = packed_add(&p, "count", 0, true);
    unsigned char *rows = calloc(n ? n : 1, p.size);
    if (!rows)
        return dc_error_set(w->err, DC_ENOMEM, "cannot write trace '%s': out of memory", w->path);
    int64_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const dc_series *s = dc_series_set_at(set, i);
        unsigned char *r = rows + i * p.size;
        int64_t count = (int64_t)dc_series_length(s);
        put_str(r + o_name, p.str_len[0], dc_series_name(s));
        put_str(r + o_unit, p.str_len[1], dc_series_unit(s));
        put_str(r + o_doc, p.str_len[2], dc_series_doc(s));
        put_num(r + o_start, &start);
        put_num(r + o_count, &count);
        start += count;
    }
    int rc = write_packed(w, "/series_index", &p, n, rows,
                          "one row per time series: its points are rows start .. start + count - 1 of /series",
                          ",,,,",
                          "name: the series' name\n"
                          "unit: the unit of its values (times are in s)\n"
                          "doc: what it records\n"
                          "start: its first row in /series\n"
                          "count: its number of points\n");
    free(rows);
    if (rc == DC_OK)
        rc = write_series_points(w, set, total);
    return rc;
}

hid_t dc_trace_event_type(bool native)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(dc_eventlog_row));
    hid_t kind = H5Tcopy(H5T_C_S1);
    hid_t comp = H5Tcopy(H5T_C_S1);
    hid_t f8 = native ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE;
    hid_t i4 = native ? H5T_NATIVE_INT32 : H5T_STD_I32LE;
    bool ok = t >= 0 && kind >= 0 && comp >= 0 &&
              H5Tset_size(kind, DC_EVENTLOG_KIND_LEN) >= 0 &&
              H5Tset_strpad(kind, H5T_STR_NULLTERM) >= 0 &&
              H5Tset_size(comp, DC_EVENTLOG_COMPONENT_LEN) >= 0 &&
              H5Tset_strpad(comp, H5T_STR_NULLTERM) >= 0 &&
              H5Tinsert(t, "time_s", offsetof(dc_eventlog_row, time_s), f8) >= 0 &&
              H5Tinsert(t, "kind", offsetof(dc_eventlog_row, kind), kind) >= 0 &&
              H5Tinsert(t, "component", offsetof(dc_eventlog_row, component), comp) >= 0 &&
              H5Tinsert(t, "id", offsetof(dc_eventlog_row, id), i4) >= 0 &&
              H5Tinsert(t, "job", offsetof(dc_eventlog_row, job), i4) >= 0 &&
              H5Tinsert(t, "value", offsetof(dc_eventlog_row, value), f8) >= 0 &&
              (native || H5Tpack(t) >= 0);
    if (kind >= 0)
        H5Tclose(kind);
    if (comp >= 0)
        H5Tclose(comp);
    if (!ok && t >= 0) {
        H5Tclose(t);
        t = -1;
    }
    return t;
}


#define EVENTS_DOC "one row per event of the run, in time order (docs/traces.md lists the kinds)"
#define EVENTS_UNITS "s,,,,,"
#define EVENTS_COLUMN_DOCS                                                                                          \
    "time_s: simulated time of the event\n"                                                                      \
    "kind: what happened (failure, repair_done, checkpoint, job_done, ...)\n"                                    \
    "component: the failure class, network part, storage tier or pool it concerns\n"                             \
    "id: the node or unit it concerns, -1 if none\n"                                                             \
    "job: the job it concerns, -1 if none\n"                                                                     \
    "value: a number whose meaning and unit depend on the kind (docs/traces.md)\n"

/* The rows of the log still buffered: appended to the streamed /events, or
 * the whole table. */
static int write_events(writer *w, const dc_eventlog *log)
{
    table_out *o = log ? streamed_of(w, log) : NULL;
    if (o) {
        int rc = table_append(w, o, dc_eventlog_rows(log), dc_eventlog_buffered(log));
        return rc == DC_OK ? table_finish(w, o, EVENTS_DOC, EVENTS_UNITS, EVENTS_COLUMN_DOCS) : rc;
    }
    if (log && dc_eventlog_flushed(log) > 0)
        return dc_error_set(w->err, DC_EINTERNAL, "cannot write trace '%s': the event log streamed elsewhere",
                            w->path);
    size_t n = log ? dc_eventlog_count(log) : 0;
    hid_t mem = dc_trace_event_type(true), file = dc_trace_event_type(false);
    int rc = write_table(w, "/events", file, mem, n, sizeof(dc_eventlog_row), log ? dc_eventlog_rows(log) : NULL,
                         EVENTS_DOC, EVENTS_UNITS, EVENTS_COLUMN_DOCS);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    return rc;
}

/* ---- tables of rows (rowtable.h) ---------------------------------------------- */

/* The compound type of a table's rows: native numbers for memory, or
 * little-endian for the file, at the same offsets (the rows' alignment
 * padding, zeroed, is stored with them: copied, not converted). */
static hid_t rowtable_type(const dc_rowtable *t, bool native)
{
    size_t n = dc_rowtable_columns(t);
    hid_t ct = H5Tcreate(H5T_COMPOUND, dc_rowtable_row_size(t) ? dc_rowtable_row_size(t) : 1);
    bool ok = ct >= 0;
    for (size_t c = 0; c < n && ok; c++) {
        const char *name = dc_rowtable_column_name(t, c);
        size_t off = dc_rowtable_column_offset(t, c);
        switch (dc_rowtable_column_type(t, c)) {
        case DC_ROWCOL_F8:
            ok = H5Tinsert(ct, name, off, native ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE) >= 0;
            break;
        case DC_ROWCOL_I4:
            ok = H5Tinsert(ct, name, off, native ? H5T_NATIVE_INT32 : H5T_STD_I32LE) >= 0;
            break;
        case DC_ROWCOL_STR: {
            hid_t st = H5Tcopy(H5T_C_S1);
            ok = st >= 0 && H5Tset_size(st, dc_rowtable_column_size(t, c)) >= 0 &&
                 H5Tset_strpad(st, H5T_STR_NULLPAD) >= 0 && H5Tinsert(ct, name, off, st) >= 0;
            if (st >= 0)
                H5Tclose(st);
            break;
        }
        }
    }
    if (!ok && ct >= 0) {
        H5Tclose(ct);
        ct = -1;
    }
    return ct;
}

static hid_t rowtable_type_of(const void *t, bool native) { return rowtable_type(t, native); }

/* "a,b,c" of the columns' units, or "name: doc" lines of their docs. */
static char *rowtable_joined(const dc_rowtable *t, bool docs)
{
    size_t n = dc_rowtable_columns(t), len = 1;
    for (size_t c = 0; c < n; c++)
        len += strlen(dc_rowtable_column_name(t, c)) + strlen(dc_rowtable_column_unit(t, c)) +
               strlen(dc_rowtable_column_doc(t, c)) + 4;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t c = 0; c < n; c++) {
        if (docs) {
            strcat(s, dc_rowtable_column_name(t, c));
            strcat(s, ": ");
            strcat(s, dc_rowtable_column_doc(t, c));
            strcat(s, "\n");
        } else {
            if (c > 0)
                strcat(s, ",");
            strcat(s, dc_rowtable_column_unit(t, c));
        }
    }
    return s;
}


static int write_rowtable(writer *w, const dc_rowtable *t)
{
    const char *name = dc_rowtable_name(t);
    char path[64];
    if (!valid_link_name(name))
        return dc_error_set(w->err, DC_EINTERNAL, "cannot write trace '%s': table name '%s' is not a valid name",
                            w->path, name);
    snprintf(path, sizeof path, "/%s", name);
    table_out *o = streamed_of(w, t);
    if (!o && dc_rowtable_flushed(t) > 0)
        return dc_error_set(w->err, DC_EINTERNAL, "cannot write trace '%s': table %s streamed elsewhere", w->path,
                            path);
    hid_t file = rowtable_type(t, false), mem = mem_type_of(file, rowtable_type_of, t);
    char *units = rowtable_joined(t, false), *docs = rowtable_joined(t, true);
    int rc = DC_OK;
    if (!units || !docs)
        rc = dc_error_set(w->err, DC_ENOMEM, "cannot write trace '%s': out of memory", w->path);
    else if (o && (rc = table_append(w, o, dc_rowtable_data(t), dc_rowtable_buffered(t))) == DC_OK)
        rc = table_finish(w, o, dc_rowtable_doc(t), units, docs);
    else if (!o)
        rc = write_table(w, path, file, mem, dc_rowtable_rows(t), dc_rowtable_row_size(t), dc_rowtable_data(t),
                         dc_rowtable_doc(t), units, docs);
    free(units);
    free(docs);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    return rc;
}

static int write_rowtables(writer *w, const dc_rowtable_set *set)
{
    int rc = DC_OK;
    for (size_t i = 0; set && i < dc_rowtable_set_count(set) && rc == DC_OK; i++)
        rc = write_rowtable(w, dc_rowtable_set_at(set, i));
    return rc;
}

/* ---- the whole file -------------------------------------------------------- */

/* In memory (sim/h5image.h): a full disk must not reach libhdf5. */
static hid_t create_file(const char *tmp, dc_h5image *img)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t fapl = dc_h5image_fapl_keep(img);
    hid_t f = -1;
    if (fcpl >= 0 && fapl >= 0 && H5Pset_obj_track_times(fcpl, 0) >= 0 &&
        H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0)
        f = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return f;
}

/* The types every part uses and the file in memory. */
static int writer_open(writer *w, const char *path, int level, dc_error *err)
{
    *w = (writer){.path = path, .err = err, .file = -1, .str_type = -1, .scalar = -1, .dapl = -1, .level = level};
    if (level < 0 || level > 9)
        return dc_error_set(err, DC_EINTERNAL, "cannot write trace '%s': compression level %d is not in 0-9", path,
                            level);
    if (level > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
        return dc_error_set(err, DC_EIO, "cannot write trace '%s': this HDF5 library has no deflate filter", path);
    w->str_type = H5Tcopy(H5T_C_S1);
    if (w->str_type < 0 || H5Tset_size(w->str_type, H5T_VARIABLE) < 0 ||
        H5Tset_cset(w->str_type, H5T_CSET_UTF8) < 0 || (w->scalar = H5Screate(H5S_SCALAR)) < 0 ||
        (w->dapl = H5Pcreate(H5P_DATASET_ACCESS)) < 0 || H5Pset_chunk_cache(w->dapl, 0, 0, 1.0) < 0)
        return fail(w, "could not set up HDF5 types");
    if (!(w->img = dc_h5image_create()))
        return dc_error_set(err, DC_ENOMEM, "cannot write trace '%s': out of memory", path);
    w->file = create_file(path, w->img);
    if (w->file < 0)
        return fail(w, "could not create the file in memory");
    return DC_OK;
}

/* Whatever is still open, and the image. */
static void writer_free(writer *w)
{
    for (size_t i = 0; i < w->n_streamed; i++) {
        if (w->streamed[i].d >= 0)
            H5Dclose(w->streamed[i].d);
        if (w->streamed[i].mem >= 0)
            H5Tclose(w->streamed[i].mem);
    }
    w->n_streamed = 0;
    if (w->file >= 0)
        H5Fclose(w->file);
    if (w->scalar >= 0)
        H5Sclose(w->scalar);
    if (w->dapl >= 0)
        H5Pclose(w->dapl);
    if (w->str_type >= 0)
        H5Tclose(w->str_type);
    dc_h5image_destroy(w->img);
    w->file = w->scalar = w->dapl = w->str_type = -1;
    w->img = NULL;
}

static int check_parts(const char *path, const dc_trace_meta *meta, const dc_series_set *series,
                       const dc_eventlog *events, dc_error *err)
{
    if (series && dc_series_set_failed(series))
        return dc_error_set(err, DC_ENOMEM, "cannot write trace '%s': the time series ran out of memory", path);
    if (events && dc_eventlog_failed(events))
        return dc_error_set(err, DC_ENOMEM, "cannot write trace '%s': the event log ran out of memory", path);
    if (meta && meta->tables && dc_rowtable_set_failed(meta->tables))
        return dc_error_set(err, DC_ENOMEM, "cannot write trace '%s': a table ran out of memory", path);
    return DC_OK;
}

/* Every part (the streamed tables' last rows), the file closed, its image
 * written to out. */
static int write_file(writer *w, dc_outfile *out, const dc_trace_meta *meta, const dc_summary *summary,
                      const dc_series_set *series, const dc_eventlog *events)
{
    int rc = write_root_attrs(w, meta);
    if (rc == DC_OK)
        rc = write_summary(w, summary);
    if (rc == DC_OK)
        rc = write_series(w, series);
    if (rc == DC_OK)
        rc = write_events(w, events);
    if (rc == DC_OK && meta)
        rc = write_rowtables(w, meta->tables);
    for (size_t i = 0; rc == DC_OK && i < w->n_streamed; i++)
        if (w->streamed[i].d >= 0)
            rc = dc_error_set(w->err, DC_EINTERNAL, "cannot write trace '%s': %s was streamed but not given",
                              w->path, w->streamed[i].path);
    if (rc != DC_OK)
        return rc;
    herr_t st = H5Fclose(w->file);
    w->file = -1;
    if (st < 0)
        return fail(w, "could not finish the file in memory");
    /* The image, kept as the file closed, goes to disk through our own
     * writes: a full disk shows here as an errno, and HDF5's in-memory file
     * has closed cleanly. */
    char why[512];
    if (dc_h5image_write(w->img, out, why, sizeof why) != 0)
        return dc_error_set(w->err, DC_EIO, "cannot write trace '%s': %s", w->path, why);
    return DC_OK;
}

int dc_trace_write_to(dc_outfile *out, const dc_trace_meta *meta, const dc_summary *summary,
                      const dc_series_set *series, const dc_eventlog *events, dc_error *err)
{
    const char *path = dc_outfile_path(out);
    int rc = check_parts(path, meta, series, events, err);
    if (rc != DC_OK)
        return rc;
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    writer w;
    rc = writer_open(&w, path, meta ? meta->compression_level : 0, err);
    if (rc == DC_OK)
        rc = write_file(&w, out, meta, summary, series, events);
    writer_free(&w);
    dc_h5quiet_off(&q);
    return rc;
}

/* ---- streaming during the run ------------------------------------------------- */

struct dc_trace_stream {
    writer w;
    char *path;
    dc_error err;      /* the first failure of a flush during the run */
    bool failed;
    dc_rowtable_set *tables;
    dc_eventlog *log;
};

/* The first flush of key creates its table; every flush appends. */
static void stream_rows(dc_trace_stream *ts, const void *key, const char *path, hid_t file_type, hid_t mem_type,
                        size_t chunk_rows, const void *rows, size_t n)
{
    if (ts->failed)
        return;
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    writer *w = &ts->w;
    table_out *o = streamed_of(w, key);
    int rc = DC_OK;
    if (!o && w->n_streamed == MAX_STREAMED) {
        rc = dc_error_set(w->err, DC_EINTERNAL, "cannot write trace '%s': more than %d streamed tables", w->path,
                          MAX_STREAMED);
    } else if (!o) {
        o = &w->streamed[w->n_streamed++];
        *o = (table_out){.key = key, .d = -1, .mem = -1};
        snprintf(o->path, sizeof o->path, "%s", path);
        rc = table_create(w, o, file_type, mem_type, 0, chunk_rows, false); /* a flush is whole chunks */
    }
    if (rc == DC_OK)
        rc = table_append(w, o, rows, n);
    ts->failed = rc != DC_OK;
    dc_h5quiet_off(&q);
}

static void events_sink(void *ctx, const dc_eventlog_row *rows, size_t n)
{
    dc_trace_stream *ts = ctx;
    /* the types only for the flush that creates the table (a pair costs
     * 20,000 instructions; the flagship flushes 15 times) */
    bool first = !streamed_of(&ts->w, ts->log);
    hid_t mem = first ? dc_trace_event_type(true) : -1, file = first ? dc_trace_event_type(false) : -1;
    stream_rows(ts, ts->log, "/events", file, mem, TABLE_CHUNK_BYTES / sizeof(dc_eventlog_row), rows, n);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
}

static void table_sink(void *ctx, dc_rowtable *t, const void *rows, size_t n)
{
    dc_trace_stream *ts = ctx;
    char path[64];
    if (!valid_link_name(dc_rowtable_name(t))) {
        if (!ts->failed)
            dc_error_set(&ts->err, DC_EINTERNAL, "cannot write trace '%s': table name '%s' is not a valid name",
                         ts->path, dc_rowtable_name(t));
        ts->failed = true;
        return;
    }
    snprintf(path, sizeof path, "/%s", dc_rowtable_name(t));
    bool first = !streamed_of(&ts->w, t); /* the types only to create the table */
    hid_t file = first ? rowtable_type(t, false) : -1, mem = first ? mem_type_of(file, rowtable_type_of, t) : -1;
    stream_rows(ts, t, path, file, mem, dc_rowtable_chunk_rows(t, TABLE_CHUNK_BYTES), rows, n);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
}

dc_trace_stream *dc_trace_stream_open(const char *path, int compression_level, dc_rowtable_set *tables,
                                      dc_eventlog *log, dc_error *err)
{
    dc_trace_stream *ts = calloc(1, sizeof *ts);
    size_t len = strlen(path ? path : "") + 1;
    if (!ts || !(ts->path = malloc(len))) {
        free(ts);
        dc_error_set(err, DC_ENOMEM, "cannot write trace '%s': out of memory", path ? path : "");
        return NULL;
    }
    memcpy(ts->path, path ? path : "", len);
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    int rc = writer_open(&ts->w, ts->path, compression_level, &ts->err);
    dc_h5quiet_off(&q);
    if (rc != DC_OK) {
        dc_error_set(err, ts->err.code, "%s", ts->err.msg);
        writer_free(&ts->w);
        free(ts->path);
        free(ts);
        return NULL;
    }
    ts->tables = tables;
    ts->log = log;
    if (tables)
        dc_rowtable_set_sink(tables, table_sink, ts, TABLE_CHUNK_BYTES, STREAM_BLOCK_CHUNKS);
    if (log)
        dc_eventlog_set_sink(log, events_sink, ts, STREAM_BLOCK_CHUNKS * (TABLE_CHUNK_BYTES / sizeof(dc_eventlog_row)));
    return ts;
}

int dc_trace_stream_write_to(dc_trace_stream *ts, dc_outfile *out, const dc_trace_meta *meta,
                             const dc_summary *summary, const dc_series_set *series, const dc_eventlog *events,
                             dc_error *err)
{
    if (ts->failed)
        return dc_error_set(err, ts->err.code, "%s", ts->err.msg);
    const char *path = dc_outfile_path(out);
    int rc = check_parts(path, meta, series, events, err);
    if (rc != DC_OK)
        return rc;
    if (meta && meta->compression_level != ts->w.level)
        return dc_error_set(err, DC_EINTERNAL, "cannot write trace '%s': compression level %d, streamed with %d",
                            path, meta->compression_level, ts->w.level);
    if (ts->w.file < 0)
        return dc_error_set(err, DC_EINTERNAL, "cannot write trace '%s': written already", path);
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    ts->w.err = err;
    ts->w.path = path;
    rc = write_file(&ts->w, out, meta, summary, series, events);
    ts->w.err = &ts->err;
    ts->w.path = ts->path;
    writer_free(&ts->w);
    dc_h5quiet_off(&q);
    return rc;
}

void dc_trace_stream_destroy(dc_trace_stream *ts)
{
    if (!ts)
        return;
    if (ts->tables)
        dc_rowtable_set_sink(ts->tables, NULL, NULL, 0, 0);
    if (ts->log)
        dc_eventlog_set_sink(ts->log, NULL, NULL, 0);
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    writer_free(&ts->w);
    dc_h5quiet_off(&q);
    free(ts->path);
    free(ts);
}

int dc_trace_write(const char *path, const dc_trace_meta *meta,
                   const dc_summary *summary, const dc_series_set *series,
                   const dc_eventlog *events, dc_error *err)
{
    dc_outfile *out = dc_outfile_open(path, "trace", err);
    if (!out)
        return err ? err->code : DC_EIO;
    int rc = dc_trace_write_to(out, meta, summary, series, events, err);
    if (rc != DC_OK) {
        dc_outfile_abort(out);
        return rc;
    }
    return dc_outfile_commit(out, err);
}
