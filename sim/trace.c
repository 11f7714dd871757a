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
 *   /series/NAME has the attribute "columns" = ["time_s", "value"].
 * - /summary/KEY datasets use compact storage (the value sits in the object
 *   header).  /series and /events groups track creation order too.
 * - Tables are chunked in 64 KiB chunks (series: 4096 rows, events: 1024
 *   rows, fewer when the table is shorter, at least 1) with an unlimited row
 *   dimension, so an empty table is a valid dataset; with
 *   compression_level > 0 they are shuffled and deflated.  No fill value
 *   is ever written (fill time "never"): every row is written once; the
 *   part of a last chunk past the rows, which no reader can address, is
 *   zeroed by libhdf5 (the files stay byte for byte reproducible).
 * - /events is always written, empty when the log is disabled or NULL.
 * - HDF5's automatic error printing is off during the write (and restored
 *   after); every failure becomes DC_EIO "cannot write trace 'NAME': ...".
 *   A summary key or series name that is not a valid HDF5 link name (empty,
 *   ".", or containing '/') fails the write with DC_EINTERNAL.
 * - The file is built in memory and its image written with write(2)
 *   (sim/h5image.h): a full disk or a file-size limit is an errno we
 *   report, never a failure inside libhdf5 (which 1.10 does not survive);
 *   a 512-byte user block in front carries a checksum of the rest.
 * - The output follows sim/outfile.h (temporary file then rename, devices
 *   in place, links, FIFOs and inputs refused).  The temporary file is not
 *   fsync'ed before the rename: a crash of dcsim never leaves a half file
 *   under NAME, but a power cut right after the run may (the kernel has the
 *   data, the disk may not yet). */
#include "trace.h"
#include "trace_format.h"
#include "h5image.h"

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

/* Rows per chunk: 64 KiB chunks for both tables. */
#define SERIES_CHUNK_ROWS 4096
#define EVENT_CHUNK_ROWS 1024

int dc_trace_check_writable(const char *path, dc_error *err)
{
    return dc_outfile_check(path, "trace", NULL, 0, err);
}

/* ---- HDF5 helpers --------------------------------------------------------- */

typedef struct writer {
    const char *path;
    dc_error *err;
    hid_t file;
    hid_t str_type; /* variable-length UTF-8 string */
    hid_t scalar;   /* scalar dataspace */
    hid_t dapl;     /* tables: no chunk cache (each chunk is written once, whole) */
    int level;      /* deflate level, 0 = none */
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

/* A group that tracks (and indexes) the creation order of its links. */
static hid_t create_group(writer *w, const char *name)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl < 0)
        return -1;
    hid_t g = -1;
    if (H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0 &&
        H5Pset_obj_track_times(gcpl, 0) >= 0)
        g = H5Gcreate2(w->file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    H5Pclose(gcpl);
    return g;
}

/* Creation properties of a table of n rows: chunked, maybe deflated. */
static hid_t table_dcpl(writer *w, int rank, size_t n, size_t max_rows, hsize_t width)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0)
        return -1;
    hsize_t chunk[2] = {n < 1 ? 1 : (n > max_rows ? max_rows : n), width};
    bool ok = H5Pset_obj_track_times(dcpl, 0) >= 0 && H5Pset_chunk(dcpl, rank, chunk) >= 0 &&
              H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0;
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
    return DC_OK;
}

static int write_summary(writer *w, const dc_summary *s)
{
    hid_t g = create_group(w, "summary");
    if (g < 0)
        return fail(w, "could not create group /summary");
    int rc = DC_OK;
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_obj_track_times(dcpl, 0) < 0 || H5Pset_layout(dcpl, H5D_COMPACT) < 0)
        rc = fail(w, "could not set up /summary datasets");
    size_t n = dc_summary_count(s);
    for (size_t i = 0; i < n && rc == DC_OK; i++) {
        const char *key = dc_summary_key(s, i);
        double value = dc_summary_value(s, i);
        char objname[DC_ERROR_MSG_MAX / 4];
        snprintf(objname, sizeof objname, "/summary/%s", key);
        if (!valid_link_name(key)) {
            rc = dc_error_set(w->err, DC_EINTERNAL,
                              "cannot write trace '%s': summary key '%s' is not a valid "
                              "HDF5 name",
                              w->path, key);
            break;
        }
        hid_t d = H5Dcreate2(g, key, H5T_IEEE_F64LE, w->scalar, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        if (d < 0) {
            rc = fail(w, "could not create dataset %s", objname);
            break;
        }
        if (H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0)
            rc = fail(w, "could not write dataset %s", objname);
        if (rc == DC_OK)
            rc = write_attr_str(w, d, objname, "unit", dc_summary_unit(s, i));
        if (rc == DC_OK)
            rc = write_attr_str(w, d, objname, "doc", dc_summary_doc(s, i));
        if (H5Dclose(d) < 0 && rc == DC_OK)
            rc = fail(w, "could not close dataset %s", objname);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (H5Gclose(g) < 0 && rc == DC_OK)
        rc = fail(w, "could not close group /summary");
    return rc;
}

/* Writes the points of s as rows (time_s, value), one chunk at a time so that
 * the interleaving buffer stays small. */
static int write_series_rows(writer *w, hid_t d, hid_t fspace, const dc_series *s,
                             const char *objname)
{
    size_t n = dc_series_length(s);
    size_t block = n < SERIES_CHUNK_ROWS ? n : SERIES_CHUNK_ROWS;
    double *buf = malloc(block * 2 * sizeof *buf);
    if (!buf)
        return dc_error_set(w->err, DC_ENOMEM, "cannot write trace '%s': out of memory", w->path);
    const double *t = dc_series_times(s), *v = dc_series_values(s);
    int rc = DC_OK;
    for (size_t start = 0; start < n && rc == DC_OK; start += block) {
        size_t cnt = n - start < block ? n - start : block;
        for (size_t i = 0; i < cnt; i++) {
            buf[2 * i] = t[start + i];
            buf[2 * i + 1] = v[start + i];
        }
        hsize_t off[2] = {start, 0}, count[2] = {cnt, 2};
        hid_t mspace = H5Screate_simple(2, count, NULL);
        if (mspace < 0 ||
            H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, count, NULL) < 0 ||
            H5Dwrite(d, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, buf) < 0)
            rc = fail(w, "could not write dataset %s", objname);
        if (mspace >= 0)
            H5Sclose(mspace);
    }
    free(buf);
    return rc;
}

static int write_one_series(writer *w, hid_t g, const dc_series *s)
{
    const char *name = dc_series_name(s);
    char objname[DC_ERROR_MSG_MAX / 4];
    snprintf(objname, sizeof objname, "/series/%s", name ? name : "");
    if (!valid_link_name(name))
        return dc_error_set(w->err, DC_EINTERNAL,
                            "cannot write trace '%s': series name '%s' is not a valid HDF5 name",
                            w->path, name ? name : "");
    size_t n = dc_series_length(s);
    int rc = DC_OK;
    hsize_t dims[2] = {n, 2}, maxdims[2] = {H5S_UNLIMITED, 2};
    hid_t space = H5Screate_simple(2, dims, maxdims);
    hid_t dcpl = table_dcpl(w, 2, n, SERIES_CHUNK_ROWS, 2);
    hid_t d = -1;
    if (space < 0 || dcpl < 0)
        rc = fail(w, "could not set up dataset %s", objname);
    else if ((d = H5Dcreate2(g, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, w->dapl)) < 0)
        rc = fail(w, "could not create dataset %s", objname);
    else if (n > 0)
        rc = write_series_rows(w, d, space, s, objname);
    if (rc == DC_OK)
        rc = write_attr_str(w, d, objname, "unit", dc_series_unit(s));
    if (rc == DC_OK)
        rc = write_attr_str(w, d, objname, "doc", dc_series_doc(s));
    if (rc == DC_OK) {
        const char *cols[2] = {"time_s", "value"};
        hsize_t two = 2;
        hid_t cspace = H5Screate_simple(1, &two, NULL);
        hid_t a = cspace < 0 ? -1
                             : H5Acreate2(d, "columns", w->str_type, cspace, H5P_DEFAULT,
                                          H5P_DEFAULT);
        if (a < 0 || H5Awrite(a, w->str_type, cols) < 0)
            rc = fail(w, "could not write attribute 'columns' of %s", objname);
        if (a >= 0 && H5Aclose(a) < 0 && rc == DC_OK)
            rc = fail(w, "could not write attribute 'columns' of %s", objname);
        if (cspace >= 0)
            H5Sclose(cspace);
    }
    if (d >= 0 && H5Dclose(d) < 0 && rc == DC_OK)
        rc = fail(w, "could not close dataset %s", objname);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

static int write_series(writer *w, const dc_series_set *set)
{
    hid_t g = create_group(w, "series");
    if (g < 0)
        return fail(w, "could not create group /series");
    int rc = DC_OK;
    size_t n = dc_series_set_count(set);
    for (size_t i = 0; i < n && rc == DC_OK; i++)
        rc = write_one_series(w, g, dc_series_set_at(set, i));
    if (H5Gclose(g) < 0 && rc == DC_OK)
        rc = fail(w, "could not close group /series");
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

static int write_events(writer *w, const dc_eventlog *log)
{
    size_t n = log ? dc_eventlog_count(log) : 0;
    const dc_eventlog_row *rows = log ? dc_eventlog_rows(log) : NULL;
    int rc = DC_OK;
    hid_t mem = dc_trace_event_type(true), file = dc_trace_event_type(false);
    hsize_t dims[1] = {n}, maxdims[1] = {H5S_UNLIMITED};
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = table_dcpl(w, 1, n, EVENT_CHUNK_ROWS, 0);
    hid_t d = -1;
    if (mem < 0 || file < 0 || space < 0 || dcpl < 0)
        rc = fail(w, "could not set up dataset /events");
    else if ((d = H5Dcreate2(w->file, "events", file, space, H5P_DEFAULT, dcpl, w->dapl)) < 0)
        rc = fail(w, "could not create dataset /events");
    else if (n > 0 && H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0)
        rc = fail(w, "could not write dataset /events");
    /* The same attributes as the /jobs-like tables: what a row is, the
     * columns' units (comma-separated, in column order) and their docs. */
    if (rc == DC_OK)
        rc = write_attr_str(w, d, "/events", "doc",
                            "one row per event of the run, in time order (docs/traces.md lists the kinds)");
    if (rc == DC_OK)
        rc = write_attr_str(w, d, "/events", "units", "s,,,,,");
    if (rc == DC_OK)
        rc = write_attr_str(w, d, "/events", "column_docs",
                            "time_s: simulated time of the event\n"
                            "kind: what happened (failure, repair_done, checkpoint, job_done, ...)\n"
                            "component: the failure class, network part, storage tier or pool it concerns\n"
                            "id: the node or unit it concerns, -1 if none\n"
                            "job: the job it concerns, -1 if none\n"
                            "value: a number whose meaning and unit depend on the kind (docs/traces.md)\n");
    if (d >= 0 && H5Dclose(d) < 0 && rc == DC_OK)
        rc = fail(w, "could not close dataset /events");
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    return rc;
}

/* ---- tables of rows (rowtable.h) ---------------------------------------------- */

/* The compound type of a table's rows: the memory layout, or packed
 * little-endian for the file. */
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
    if (ok && !native)
        ok = H5Tpack(ct) >= 0;
    if (!ok && ct >= 0) {
        H5Tclose(ct);
        ct = -1;
    }
    return ct;
}

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
    size_t n = dc_rowtable_rows(t);
    int rc = DC_OK;
    hid_t mem = rowtable_type(t, true), file = rowtable_type(t, false);
    hsize_t dims[1] = {n}, maxdims[1] = {H5S_UNLIMITED};
    hid_t space = H5Screate_simple(1, dims, maxdims);
    size_t row = dc_rowtable_row_size(t) ? dc_rowtable_row_size(t) : 1;
    hid_t dcpl = table_dcpl(w, 1, n, 65536 / row ? 65536 / row : 1, 0);
    hid_t d = -1;
    char *units = rowtable_joined(t, false), *docs = rowtable_joined(t, true);
    if (mem < 0 || file < 0 || space < 0 || dcpl < 0 || !units || !docs)
        rc = fail(w, "could not set up dataset %s", path);
    else if ((d = H5Dcreate2(w->file, path, file, space, H5P_DEFAULT, dcpl, w->dapl)) < 0)
        rc = fail(w, "could not create dataset %s", path);
    else if (n > 0 && H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, dc_rowtable_data(t)) < 0)
        rc = fail(w, "could not write dataset %s", path);
    if (rc == DC_OK)
        rc = write_attr_str(w, d, path, "doc", dc_rowtable_doc(t));
    if (rc == DC_OK)
        rc = write_attr_str(w, d, path, "units", units);
    if (rc == DC_OK)
        rc = write_attr_str(w, d, path, "column_docs", docs);
    free(units);
    free(docs);
    if (d >= 0 && H5Dclose(d) < 0 && rc == DC_OK)
        rc = fail(w, "could not close dataset %s", path);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    return rc;
}

/* The summary again as one table, /summary_table: a row per figure with
 * its name, value and unit (strings as long as the longest), built as a
 * table of rows so that pandas takes the whole summary in one read. */
static int write_summary_table(writer *w, const dc_summary *s)
{
    size_t n = dc_summary_count(s), name_len = 2, unit_len = 2;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(dc_summary_key(s, i)) + 1, u = strlen(dc_summary_unit(s, i)) + 1;
        name_len = k > name_len ? k : name_len;
        unit_len = u > unit_len ? u : unit_len;
    }
    dc_rowtable_set *set = dc_rowtable_set_create();
    dc_rowtable *t = set ? dc_rowtable_set_get(set, "summary_table",
                                               "the summary as one table: each figure's name, value and unit "
                                               "(its doc: /summary/NAME)")
                         : NULL;
    int name = t ? dc_rowtable_add_column(t, "name", DC_ROWCOL_STR, name_len, "", "the figure's key") : -1;
    int value = t ? dc_rowtable_add_column(t, "value", DC_ROWCOL_F8, 0, "", "its value, in its unit") : -1;
    int unit = t ? dc_rowtable_add_column(t, "unit", DC_ROWCOL_STR, unit_len, "", "its unit") : -1;
    int rc = DC_OK;
    if (name < 0 || value < 0 || unit < 0) {
        rc = fail(w, "could not set up dataset /summary_table (a key or unit too long, or out of memory)");
    } else {
        for (size_t i = 0; i < n; i++) {
            dc_rowtable_set_str(t, name, dc_summary_key(s, i));
            dc_rowtable_set_f8(t, value, dc_summary_value(s, i));
            dc_rowtable_set_str(t, unit, dc_summary_unit(s, i));
            dc_rowtable_commit(t);
        }
        rc = dc_rowtable_set_failed(set) ? fail(w, "out of memory building /summary_table") : write_rowtable(w, t);
    }
    dc_rowtable_set_destroy(set);
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
static hid_t create_file(const char *tmp)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t fapl = dc_h5image_fapl();
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

static int write_file(writer *w, dc_outfile *out, const dc_trace_meta *meta,
                      const dc_summary *summary, const dc_series_set *series,
                      const dc_eventlog *events)
{
    int rc = DC_OK;
    w->str_type = H5Tcopy(H5T_C_S1);
    if (w->str_type < 0 || H5Tset_size(w->str_type, H5T_VARIABLE) < 0 ||
        H5Tset_cset(w->str_type, H5T_CSET_UTF8) < 0 ||
        (w->scalar = H5Screate(H5S_SCALAR)) < 0 || (w->dapl = H5Pcreate(H5P_DATASET_ACCESS)) < 0 ||
        H5Pset_chunk_cache(w->dapl, 0, 0, 1.0) < 0)
        return fail(w, "could not set up HDF5 types");
    w->file = create_file(dc_outfile_name(out));
    if (w->file < 0)
        return fail(w, "could not create the file in memory");
    rc = write_root_attrs(w, meta);
    if (rc == DC_OK)
        rc = write_summary(w, summary);
    if (rc == DC_OK)
        rc = write_summary_table(w, summary);
    if (rc == DC_OK)
        rc = write_series(w, series);
    if (rc == DC_OK)
        rc = write_events(w, events);
    if (rc == DC_OK && meta)
        rc = write_rowtables(w, meta->tables);
    /* The image goes to disk through our own writes: a full disk shows
     * here as an errno, and HDF5's in-memory file closes cleanly. */
    char why[512];
    if (rc == DC_OK && dc_h5image_save(w->file, out, why, sizeof why) != 0)
        rc = dc_error_set(w->err, DC_EIO, "cannot write trace '%s': %s", w->path, why);
    herr_t st = H5Fclose(w->file);
    w->file = -1;
    if (st < 0 && rc == DC_OK)
        rc = fail(w, "could not finish the file in memory");
    return rc;
}

int dc_trace_write_to(dc_outfile *out, const dc_trace_meta *meta, const dc_summary *summary,
                      const dc_series_set *series, const dc_eventlog *events, dc_error *err)
{
    const char *path = dc_outfile_path(out);
    if (series && dc_series_set_failed(series))
        return dc_error_set(err, DC_ENOMEM,
                            "cannot write trace '%s': the time series ran out of memory", path);
    if (events && dc_eventlog_failed(events))
        return dc_error_set(err, DC_ENOMEM,
                            "cannot write trace '%s': the event log ran out of memory", path);
    if (meta && meta->tables && dc_rowtable_set_failed(meta->tables))
        return dc_error_set(err, DC_ENOMEM, "cannot write trace '%s': a table ran out of memory", path);
    if (meta && (meta->compression_level < 0 || meta->compression_level > 9))
        return dc_error_set(err, DC_EINTERNAL,
                            "cannot write trace '%s': compression level %d is not in 0-9", path,
                            meta->compression_level);

    H5E_auto2_t old_func;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_func, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);

    int rc;
    writer w = {.path = path, .err = err, .file = -1, .str_type = -1, .scalar = -1, .dapl = -1,
                .level = meta ? meta->compression_level : 0};
    if (w.level > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
        rc = dc_error_set(err, DC_EIO,
                          "cannot write trace '%s': this HDF5 library has no deflate filter", path);
    else
        rc = write_file(&w, out, meta, summary, series, events);
    if (w.file >= 0)
        H5Fclose(w.file);
    if (w.scalar >= 0)
        H5Sclose(w.scalar);
    if (w.dapl >= 0)
        H5Pclose(w.dapl);
    if (w.str_type >= 0)
        H5Tclose(w.str_type);
    H5Eset_auto2(H5E_DEFAULT, old_func, old_data);
    return rc;
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
