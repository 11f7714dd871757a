/* Reading a dcsim trace back: attributes, summary, events, series, any dataset, with checks.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Reading a dcsim trace (layout in sim/trace.h).
 *
 * Every entry point switches HDF5's automatic error printing off for its own
 * duration and restores it after.  A file that cannot be opened at all is
 * DC_EIO; a file that is not a dcsim trace, has another format version, or
 * lacks a dataset or attribute is DC_EINPUT; an HDF5 read failure on a file
 * that looked right is DC_EIO.  String attributes may be variable- or
 * fixed-length.
 *
 * Formats 1 and 2 (sim/trace.h) read alike: format 2's /summary table and
 * /series_index are read once, on first use, and stand for the paths
 * format 1 had as datasets, /summary/KEY (one value) and /series/NAME
 * (time_s, value), in has_dataset, list_datasets and read_table.  A format 1
 * /summary group is read in creation order when the file tracks it, else in
 * name order. */
#include "trace_read.h"
#include "h5image.h"
#include "h5quiet.h"
#include "trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "trace.h"

struct dc_trace_file {
    hid_t file;
    char *path;
    int version;            /* format_version: 1 or 2 (sim/trace.h) */
    dc_table *summary;      /* format 2: /summary, read on first use */
    dc_table *series_index; /* format 2: /series_index, read on first use */
};

static char *dup_str(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (d)
        memcpy(d, s, len);
    return d;
}

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

/* Format 2's tables of contents (below). */
static bool virtual_dataset(dc_trace_file *t, const char *path, bool *virt);
static int load_summary(dc_trace_file *t, dc_error *err);
static int load_series_index(dc_trace_file *t, dc_error *err);
static int series_rows(dc_trace_file *t, const char *name, const char *dpath, size_t *start, size_t *count,
                       dc_error *err);
static int read_series_rows(dc_trace_file *t, const char *dpath, double *buf, size_t start, size_t count,
                            dc_error *err);

dc_trace_file *dc_trace_open(const char *path, dc_error *err)
{
    if (!path) {
        dc_error_set(err, DC_EINTERNAL, "no trace file name given");
        return NULL;
    }
    /* Ask the system first, so that a missing file says so. */
    int fd = open(path, O_RDONLY);
    struct stat st;
    int e = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (fd >= 0)
        close(fd);
    if (e != 0) {
        dc_error_set(err, DC_EIO, "cannot open trace '%s': %s", path, strerror(e));
        return NULL;
    }

    /* Before libhdf5 parses anything (sim/h5image.h). */
    char why[512];
    if (dc_h5image_verify(path, why, sizeof why) == 1) {
        dc_error_set(err, DC_EINPUT, "trace '%s' is damaged: %s", path, why);
        return NULL;
    }

    dc_h5quiet q;
    dc_h5quiet_on(&q);
    dc_trace_file *t = NULL;
    hid_t f = -1;
    htri_t is = H5Fis_hdf5(path);
    if (is <= 0) {
        dc_error_set(err, DC_EINPUT, "'%s' is not a dcsim trace (not an HDF5 file)", path);
        goto done;
    }
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        dc_error_set(err, DC_EIO, "cannot open trace '%s': HDF5 could not open it", path);
        goto done;
    }
    if (H5Aexists(f, "format_version") <= 0) {
        dc_error_set(err, DC_EINPUT, "'%s' is not a dcsim trace (no format_version attribute)",
                     path);
        goto done;
    }
    hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
    hid_t type = a >= 0 ? H5Aget_type(a) : -1;
    hid_t space = a >= 0 ? H5Aget_space(a) : -1;
    long long version = 0;
    /* One value: H5Aread writes every element, and a list of versions
     * would overflow the single long long it is given. */
    bool ok = type >= 0 && space >= 0 && H5Tget_class(type) == H5T_INTEGER &&
              H5Sget_simple_extent_npoints(space) == 1 && H5Aread(a, H5T_NATIVE_LLONG, &version) >= 0;
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (a >= 0)
        H5Aclose(a);
    if (!ok) {
        dc_error_set(err, DC_EINPUT, "'%s' is not a dcsim trace (format_version is not one integer)",
                     path);
        goto done;
    }
    if (version < DC_TRACE_FORMAT_OLDEST || version > DC_TRACE_FORMAT_VERSION) {
        if (version > DC_TRACE_FORMAT_VERSION)
            dc_error_set(err, DC_EINPUT,
                         "trace '%s' has format version %lld, but this dcsim reads format versions %d to %d: "
                         "it was written by a newer dcsim; read it with that version or upgrade",
                         path, version, DC_TRACE_FORMAT_OLDEST, DC_TRACE_FORMAT_VERSION);
        else
            dc_error_set(err, DC_EINPUT,
                         "trace '%s' has format version %lld, but this dcsim reads format versions %d to %d: "
                         "it was written by an older dcsim; run its scenario (the 'scenario' attribute) again",
                         path, version, DC_TRACE_FORMAT_OLDEST, DC_TRACE_FORMAT_VERSION);
        goto done;
    }
    t = calloc(1, sizeof *t);
    if (!t || !(t->path = dup_str(path))) {
        free(t);
        t = NULL;
        nomem(err);
        goto done;
    }
    t->file = f;
    t->version = (int)version;
    f = -1;
done:
    if (f >= 0)
        H5Fclose(f);
    dc_h5quiet_off(&q);
    return t;
}

void dc_trace_close(dc_trace_file *t)
{
    if (!t)
        return;
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    H5Fclose(t->file);
    dc_h5quiet_off(&q);
    dc_table_destroy(t->summary);
    dc_table_destroy(t->series_index);
    free(t->path);
    free(t);
}

/* ---- attributes ------------------------------------------------------------ */

/* Opens attribute name of obj; DC_EINPUT naming it when absent. */
static int open_attr(const dc_trace_file *t, hid_t obj, const char *objname, const char *name,
                     hid_t *attr, dc_error *err)
{
    htri_t ex = H5Aexists(obj, name);
    if (ex < 0)
        return dc_error_set(err, DC_EIO, "trace '%s': cannot read the attributes of %s", t->path,
                            objname);
    if (ex == 0)
        return dc_error_set(err, DC_EINPUT, "trace '%s' has no attribute '%s' on %s", t->path,
                            name, objname);
    *attr = H5Aopen(obj, name, H5P_DEFAULT);
    if (*attr < 0)
        return dc_error_set(err, DC_EIO, "trace '%s': cannot open attribute '%s' of %s", t->path,
                            name, objname);
    return DC_OK;
}

/* Reads a scalar string attribute (variable or fixed length) into *out. */
static int read_attr_string(const dc_trace_file *t, hid_t obj, const char *objname,
                            const char *name, char **out, dc_error *err)
{
    hid_t a = -1;
    int rc = open_attr(t, obj, objname, name, &a, err);
    if (rc != DC_OK)
        return rc;
    hid_t ftype = H5Aget_type(a);
    hid_t space = H5Aget_space(a);
    hid_t mtype = -1;
    char *s = NULL;
    if (ftype < 0 || space < 0) {
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read attribute '%s' of %s", t->path,
                          name, objname);
    } else if (H5Tget_class(ftype) != H5T_STRING || H5Sget_simple_extent_npoints(space) != 1) {
        rc = dc_error_set(err, DC_EINPUT, "trace '%s': attribute '%s' of %s is not a string",
                          t->path, name, objname);
    } else if (H5Tis_variable_str(ftype) > 0) {
        char *v = NULL;
        mtype = H5Tcopy(H5T_C_S1);
        if (mtype < 0 || H5Tset_size(mtype, H5T_VARIABLE) < 0 ||
            H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0 || H5Aread(a, mtype, &v) < 0) {
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read attribute '%s' of %s",
                              t->path, name, objname);
        } else {
            s = dup_str(v ? v : "");
            if (!s)
                rc = nomem(err);
        }
        if (v)
            H5free_memory(v);
    } else {
        size_t size = H5Tget_size(ftype);
        s = calloc(size + 1, 1);
        mtype = H5Tcopy(H5T_C_S1);
        if (!s) {
            rc = nomem(err);
        } else if (mtype < 0 || H5Tset_size(mtype, size + 1) < 0 ||
                   H5Tset_strpad(mtype, H5T_STR_NULLTERM) < 0 ||
                   H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0 || H5Aread(a, mtype, s) < 0) {
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read attribute '%s' of %s",
                              t->path, name, objname);
        }
    }
    if (mtype >= 0)
        H5Tclose(mtype);
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    H5Aclose(a);
    if (rc != DC_OK) {
        free(s);
        return rc;
    }
    *out = s;
    return DC_OK;
}

/* Reads a scalar numeric attribute of the root as mem_type. */
static int read_attr_number(dc_trace_file *t, const char *name, hid_t mem_type, bool want_int,
                            void *out, dc_error *err)
{
    hid_t a = -1;
    int rc = open_attr(t, t->file, "/", name, &a, err);
    if (rc != DC_OK)
        return rc;
    hid_t ftype = H5Aget_type(a);
    hid_t space = H5Aget_space(a);
    H5T_class_t cls = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
    if (ftype < 0 || space < 0)
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read attribute '%s'", t->path, name);
    else if (!(cls == H5T_INTEGER || (!want_int && cls == H5T_FLOAT)) ||
             H5Sget_simple_extent_npoints(space) != 1)
        rc = dc_error_set(err, DC_EINPUT, "trace '%s': attribute '%s' is not %s", t->path, name,
                          want_int ? "an integer" : "a number");
    else if (H5Aread(a, mem_type, out) < 0)
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read attribute '%s'", t->path, name);
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    H5Aclose(a);
    return rc;
}

int dc_trace_attr_string(dc_trace_file *t, const char *name, char **out, dc_error *err)
{
    if (!t || !name || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_attr_string: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    int rc = read_attr_string(t, t->file, "/", name, out, err);
    dc_h5quiet_off(&q);
    return rc;
}

int dc_trace_attr_double(dc_trace_file *t, const char *name, double *out, dc_error *err)
{
    if (!t || !name || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_attr_double: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    int rc = read_attr_number(t, name, H5T_NATIVE_DOUBLE, false, out, err);
    dc_h5quiet_off(&q);
    return rc;
}

int dc_trace_attr_uint64(dc_trace_file *t, const char *name, uint64_t *out, dc_error *err)
{
    if (!t || !name || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_attr_uint64: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    int rc = read_attr_number(t, name, H5T_NATIVE_UINT64, true, out, err);
    dc_h5quiet_off(&q);
    return rc;
}

/* ---- datasets ----------------------------------------------------------------- */

/* Opens the dataset at path ("/series/power"), checking each link on the way;
 * DC_EINPUT naming it when absent. */
/* A dataset's shape must be backed by the bytes the file stores for it
 * (H5Dget_storage_size), or a damaged or crafted file claiming 2^28 rows
 * in a few kilobytes would make a reader allocate gigabytes.  Without
 * filters the stored bytes hold every element (npoints x element size);
 * with filters (dcsim's shuffle + deflate) at most DEFLATE_MAX_RATIO times
 * that: zlib's deflate expands at most 1032:1 (RFC 1951's longest match,
 * 258 bytes, in a 2-bit code).  Claims under 64 MiB are not checked (an
 * unwritten small dataset of another program reads as its fill value). */
#define DEFLATE_MAX_RATIO 1032.0
#define UNCHECKED_BYTES (64.0 * 1024 * 1024)
static int check_stored(const dc_trace_file *t, const char *dpath, hid_t d, dc_error *err)
{
    hid_t space = H5Dget_space(d), type = H5Dget_type(d), dcpl = H5Dget_create_plist(d);
    hssize_t points = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    size_t esize = type >= 0 ? H5Tget_size(type) : 0;
    int filters = dcpl >= 0 ? H5Pget_nfilters(dcpl) : -1;
    hsize_t stored = H5Dget_storage_size(d);
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (points < 0 || esize == 0 || filters < 0)
        return dc_error_set(err, DC_EIO, "trace '%s': cannot read the shape of %s", t->path, dpath);
    double claimed = (double)points * (double)esize;
    double can_hold = (double)stored * (filters > 0 ? DEFLATE_MAX_RATIO : 1.0);
    if (claimed > UNCHECKED_BYTES && claimed > can_hold)
        return dc_error_set(err, DC_EINPUT,
                            "trace '%s' is damaged: %s claims %lld elements (%.3g bytes) but the "
                            "file stores %llu bytes of it%s",
                            t->path, dpath, (long long)points, claimed, (unsigned long long)stored,
                            filters > 0 ? ", too few even if compressed" : "");
    return DC_OK;
}

static int open_dataset(const dc_trace_file *t, const char *dpath, hid_t *d, dc_error *err)
{
    /* H5Lexists needs every intermediate group to exist. */
    size_t len = strlen(dpath);
    char *part = malloc(len + 1);
    if (!part)
        return nomem(err);
    memcpy(part, dpath, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (part[i] != '/' && part[i] != '\0')
            continue;
        char c = part[i];
        part[i] = '\0';
        htri_t ex = H5Lexists(t->file, part, H5P_DEFAULT);
        part[i] = c;
        if (ex <= 0 || (c == '/' && i + 1 == len)) {
            free(part);
            return dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", t->path, dpath);
        }
    }
    free(part);
    /* The link exists: failing to open it means it is not a dataset. */
    *d = H5Dopen2(t->file, dpath, H5P_DEFAULT);
    if (*d < 0)
        return dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s (not a dataset)",
                            t->path, dpath);
    int rc = check_stored(t, dpath, *d, err);
    if (rc != DC_OK) {
        H5Dclose(*d);
        *d = -1;
    }
    return rc;
}

typedef struct summary_iter {
    dc_trace_file *t;
    dc_summary *out;
    dc_error *err;
    int rc;
} summary_iter;

static herr_t summary_cb(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    summary_iter *it = data;
    dc_trace_file *t = it->t;
    char objname[DC_ERROR_MSG_MAX / 4];
    snprintf(objname, sizeof objname, "/summary/%s", name);
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0) {
        it->rc = dc_error_set(it->err, DC_EINPUT, "trace '%s': %s is not a dataset", t->path,
                              objname);
        return -1;
    }
    hid_t space = H5Dget_space(d);
    hid_t type = H5Dget_type(d);
    double value = 0.0;
    char *unit = NULL, *doc = NULL;
    int rc = DC_OK;
    H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
    if (space < 0 || type < 0)
        rc = dc_error_set(it->err, DC_EIO, "trace '%s': cannot read %s", t->path, objname);
    else if ((cls != H5T_FLOAT && cls != H5T_INTEGER) || H5Sget_simple_extent_npoints(space) != 1)
        rc = dc_error_set(it->err, DC_EINPUT, "trace '%s': %s is not a single number", t->path,
                          objname);
    else if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0)
        rc = dc_error_set(it->err, DC_EIO, "trace '%s': cannot read %s", t->path, objname);
    /* unit and doc are optional. */
    if (rc == DC_OK && H5Aexists(d, "unit") > 0)
        rc = read_attr_string(t, d, objname, "unit", &unit, it->err);
    if (rc == DC_OK && H5Aexists(d, "doc") > 0)
        rc = read_attr_string(t, d, objname, "doc", &doc, it->err);
    if (rc == DC_OK && dc_summary_set(it->out, name, value, unit ? unit : "", doc ? doc : "") !=
                           DC_OK)
        rc = nomem(it->err);
    free(unit);
    free(doc);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    H5Dclose(d);
    it->rc = rc;
    return rc == DC_OK ? 0 : -1;
}

int dc_trace_read_summary(dc_trace_file *t, dc_summary *out, dc_error *err)
{
    if (!t || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_read_summary: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    int rc = DC_OK;
    hid_t g = -1;
    if (t->version >= 2 && H5Lexists(t->file, "summary", H5P_DEFAULT) > 0) {
        /* Format 2: one table, a row per figure. */
        rc = load_summary(t, err);
        const dc_table *tab = t->summary;
        long name = rc == DC_OK ? dc_table_column_index(tab, "name") : -1;
        long value = rc == DC_OK ? dc_table_column_index(tab, "value") : -1;
        long unit = rc == DC_OK ? dc_table_column_index(tab, "unit") : -1;
        long doc = rc == DC_OK ? dc_table_column_index(tab, "doc") : -1;
        for (size_t r = 0; rc == DC_OK && r < dc_table_rows(tab); r++)
            if (dc_summary_set(out, dc_table_text(tab, r, (size_t)name), dc_table_number(tab, r, value),
                               dc_table_text(tab, r, (size_t)unit), dc_table_text(tab, r, (size_t)doc)) != DC_OK)
                rc = nomem(err);
    } else if (H5Lexists(t->file, "summary", H5P_DEFAULT) <= 0 ||
        (g = H5Gopen2(t->file, "summary", H5P_DEFAULT)) < 0) {
        char *kind = NULL;
        dc_error kind_err = {0};
        if (dc_trace_attr_string(t, "kind", &kind, &kind_err) == DC_OK && strcmp(kind, "sweep") == 0)
            rc = dc_error_set(err, DC_EINPUT,
                              "'%s' holds the results of a sweep (dcsim sweep -o), not the trace of a run: "
                              "give the trace of a run (dcsim run -o), or read it with h5dump or h5py (/runs, /stats)",
                              t->path);
        else
            rc = dc_error_set(err, DC_EINPUT, "trace '%s' has no %s /summary", t->path,
                              t->version >= 2 ? "table" : "group");
        free(kind);
    } else {
        summary_iter it = {t, out, err, DC_OK};
        H5_index_t index = H5_INDEX_CRT_ORDER;
        hid_t gcpl = H5Gget_create_plist(g);
        unsigned flags = 0;
        if (gcpl < 0 || H5Pget_link_creation_order(gcpl, &flags) < 0 ||
            !(flags & H5P_CRT_ORDER_TRACKED))
            index = H5_INDEX_NAME;
        if (gcpl >= 0)
            H5Pclose(gcpl);
        hsize_t idx = 0;
        herr_t st = H5Literate(g, index, H5_ITER_INC, &idx, summary_cb, &it);
        if (it.rc != DC_OK)
            rc = it.rc;
        else if (st < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot list /summary", t->path);
        H5Gclose(g);
    }
    dc_h5quiet_off(&q);
    return rc;
}

/* Opens /events and checks it is a table with every column of a row. */
static int open_events(dc_trace_file *t, hid_t *d, size_t *n, dc_error *err)
{
    int rc = open_dataset(t, "/events", d, err);
    if (rc != DC_OK)
        return rc;
    hid_t space = H5Dget_space(*d);
    hid_t type = H5Dget_type(*d);
    if (space < 0 || type < 0) {
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read /events", t->path);
    } else if (H5Tget_class(type) != H5T_COMPOUND || H5Sget_simple_extent_ndims(space) != 1) {
        rc = dc_error_set(err, DC_EINPUT, "trace '%s': /events is not a table of events",
                          t->path);
    } else {
        static const char *const cols[] = {"time_s", "kind", "component", "id", "job", "value"};
        for (size_t i = 0; i < sizeof cols / sizeof cols[0] && rc == DC_OK; i++)
            if (H5Tget_member_index(type, cols[i]) < 0)
                rc = dc_error_set(err, DC_EINPUT, "trace '%s': /events has no column '%s'",
                                  t->path, cols[i]);
        hsize_t dims[1];
        if (rc == DC_OK && H5Sget_simple_extent_dims(space, dims, NULL) < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read /events", t->path);
        if (rc == DC_OK)
            *n = (size_t)dims[0];
    }
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    if (rc != DC_OK) {
        H5Dclose(*d);
        *d = -1;
    }
    return rc;
}

int dc_trace_read_events(dc_trace_file *t, dc_eventlog *out, dc_error *err)
{
    if (!t || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_read_events: bad arguments");
    if (!dc_eventlog_enabled(out))
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_read_events: the event log is disabled");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    hid_t d = -1;
    size_t n = 0;
    int rc = open_events(t, &d, &n, err);
    if (rc == DC_OK && n > 0) {
        dc_eventlog_row *rows = malloc(n * sizeof *rows);
        hid_t mem = dc_trace_event_type(true);
        if (!rows)
            rc = nomem(err);
        else if (mem < 0 || H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read /events", t->path);
        for (size_t i = 0; rc == DC_OK && i < n; i++) {
            const dc_eventlog_row *r = &rows[i];
            /* The fields are NUL-terminated by the read (NULLTERM type). */
            dc_eventlog_add(out, r->time_s, r->kind, r->component, r->id, r->job, r->value);
        }
        if (rc == DC_OK && dc_eventlog_failed(out))
            rc = nomem(err);
        if (mem >= 0)
            H5Tclose(mem);
        free(rows);
    }
    if (d >= 0)
        H5Dclose(d);
    dc_h5quiet_off(&q);
    return rc;
}

int dc_trace_event_count(dc_trace_file *t, size_t *count, dc_error *err)
{
    if (!t || !count)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_event_count: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    hid_t d = -1;
    size_t n = 0;
    int rc = open_events(t, &d, &n, err);
    if (rc == DC_OK)
        *count = n;
    if (d >= 0)
        H5Dclose(d);
    dc_h5quiet_off(&q);
    return rc;
}

int dc_trace_read_series(dc_trace_file *t, const char *name, double **time_s,
                         double **value, size_t *n, dc_error *err)
{
    if (!t || !name || !time_s || !value || !n)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_read_series: bad arguments");
    size_t plen = strlen("/series/") + strlen(name) + 1;
    char *dpath = malloc(plen);
    if (!dpath)
        return nomem(err);
    snprintf(dpath, plen, "/series/%s", name);
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    hid_t d = -1, space = -1, type = -1;
    double *buf = NULL, *ts = NULL, *vs = NULL;
    hsize_t dims[2] = {0, 0};
    int rc = DC_OK;
    size_t start = 0;
    if (!name[0] || strchr(name, '/')) {
        rc = dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", t->path, dpath);
    } else if (t->version >= 2) {
        /* Format 2: rows of /series, where /series_index puts them. */
        size_t count = 0;
        rc = series_rows(t, name, dpath, &start, &count, err);
        dims[0] = count;
    } else {
        rc = open_dataset(t, dpath, &d, err);
    }
    if (rc == DC_OK && t->version < 2) {
        space = H5Dget_space(d);
        type = H5Dget_type(d);
        if (space < 0 || type < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read %s", t->path, dpath);
        else if (H5Tget_class(type) != H5T_FLOAT || H5Sget_simple_extent_ndims(space) != 2 ||
                 H5Sget_simple_extent_dims(space, dims, NULL) < 0 || dims[1] != 2)
            rc = dc_error_set(err, DC_EINPUT,
                              "trace '%s': %s is not a time series (n x 2 floats)", t->path,
                              dpath);
    }
    size_t rows = (size_t)dims[0];
    if (rc == DC_OK) {
        size_t alloc = rows ? rows : 1; /* never NULL on success */
        buf = malloc(alloc * 2 * sizeof *buf);
        ts = malloc(alloc * sizeof *ts);
        vs = malloc(alloc * sizeof *vs);
        if (!buf || !ts || !vs)
            rc = nomem(err);
        else if (t->version >= 2)
            rc = read_series_rows(t, dpath, buf, start, rows, err);
        else if (rows > 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read %s", t->path, dpath);
    }
    if (rc == DC_OK) {
        for (size_t i = 0; i < rows; i++) {
            ts[i] = buf[2 * i];
            vs[i] = buf[2 * i + 1];
        }
        *time_s = ts;
        *value = vs;
        *n = rows;
    } else {
        free(ts);
        free(vs);
    }
    free(buf);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    dc_h5quiet_off(&q);
    free(dpath);
    return rc;
}

/* ---- generic access ------------------------------------------------------------ */

const char *dc_trace_filename(const dc_trace_file *t)
{
    return t ? t->path : "";
}

/* Whether every link on the way to dpath exists and dpath is a dataset. */
static bool is_real_dataset(const dc_trace_file *t, const char *dpath)
{
    size_t len = strlen(dpath);
    if (len < 2 || dpath[0] != '/' || dpath[len - 1] == '/')
        return false;
    char *part = malloc(len + 1);
    if (!part)
        return false;
    memcpy(part, dpath, len + 1);
    bool ok = true;
    for (size_t i = 1; i <= len && ok; i++) {
        if (part[i] != '/' && part[i] != '\0')
            continue;
        char c = part[i];
        part[i] = '\0';
        ok = H5Lexists(t->file, part, H5P_DEFAULT) > 0;
        part[i] = c;
    }
    free(part);
    if (!ok)
        return false;
    hid_t o = H5Oopen(t->file, dpath, H5P_DEFAULT);
    if (o < 0)
        return false;
    ok = H5Iget_type(o) == H5I_DATASET;
    H5Oclose(o);
    return ok;
}

int dc_trace_has_dataset(dc_trace_file *t, const char *path, bool *has, dc_error *err)
{
    if (!t || !path || !has)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_has_dataset: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    bool virt = false;
    *has = virtual_dataset(t, path, &virt) || (!virt && is_real_dataset(t, path));
    dc_h5quiet_off(&q);
    return DC_OK;
}

typedef struct list_iter {
    char **paths;
    size_t n, cap;
    bool failed;
} list_iter;

static herr_t list_cb(hid_t root, const char *name, const H5L_info_t *info, void *data)
{
    list_iter *it = data;
    (void)info;
    hid_t o = H5Oopen(root, name, H5P_DEFAULT);
    if (o < 0)
        return 0; /* a dangling link is not a dataset */
    bool ds = H5Iget_type(o) == H5I_DATASET;
    H5Oclose(o);
    if (!ds)
        return 0;
    if (it->n == it->cap) {
        size_t cap = it->cap ? 2 * it->cap : 32;
        char **p = realloc(it->paths, cap * sizeof *p);
        if (!p) {
            it->failed = true;
            return -1;
        }
        it->paths = p;
        it->cap = cap;
    }
    size_t len = strlen(name) + 2;
    char *s = malloc(len);
    if (!s) {
        it->failed = true;
        return -1;
    }
    snprintf(s, len, "/%s", name);
    it->paths[it->n++] = s;
    return 0;
}

static int list_add(list_iter *it, const char *prefix, const char *name)
{
    if (it->n == it->cap) {
        size_t cap = it->cap ? 2 * it->cap : 32;
        char **p = realloc(it->paths, cap * sizeof *p);
        if (!p)
            return -1;
        it->paths = p;
        it->cap = cap;
    }
    size_t len = strlen(prefix) + strlen(name) + 1;
    char *s = malloc(len);
    if (!s)
        return -1;
    snprintf(s, len, "%s%s", prefix, name);
    it->paths[it->n++] = s;
    return 0;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Format 2: /summary, /series and /series_index give way to the paths
 * they hold, /summary/KEY and /series/NAME (as format 1 listed them), in
 * name order. */
static int list_virtual(dc_trace_file *t, list_iter *it, dc_error *err)
{
    size_t keep = 0;
    bool has_summary = false, has_index = false;
    for (size_t i = 0; i < it->n; i++) {
        const char *p = it->paths[i];
        bool summary = strcmp(p, "/summary") == 0, index = strcmp(p, "/series_index") == 0;
        has_summary = has_summary || summary;
        has_index = has_index || index;
        if (summary || index || strcmp(p, "/series") == 0)
            free(it->paths[i]);
        else
            it->paths[keep++] = it->paths[i];
    }
    it->n = keep;
    int rc = DC_OK;
    if (has_summary && (rc = load_summary(t, err)) == DC_OK) {
        long c = dc_table_column_index(t->summary, "name");
        for (size_t r = 0; r < dc_table_rows(t->summary) && rc == DC_OK; r++)
            if (list_add(it, "/summary/", dc_table_text(t->summary, r, (size_t)c)) != 0)
                rc = nomem(err);
    }
    if (rc == DC_OK && has_index && (rc = load_series_index(t, err)) == DC_OK) {
        long c = dc_table_column_index(t->series_index, "name");
        for (size_t r = 0; r < dc_table_rows(t->series_index) && rc == DC_OK; r++)
            if (list_add(it, "/series/", dc_table_text(t->series_index, r, (size_t)c)) != 0)
                rc = nomem(err);
    }
    if (rc == DC_OK)
        qsort(it->paths, it->n, sizeof *it->paths, cmp_path);
    return rc;
}

void dc_trace_free_list(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

int dc_trace_list_datasets(dc_trace_file *t, char ***paths, size_t *n, dc_error *err)
{
    if (!t || !paths || !n)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_list_datasets: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    list_iter it = {0};
    herr_t st = H5Lvisit(t->file, H5_INDEX_NAME, H5_ITER_INC, list_cb, &it);
    if (!it.failed && st >= 0 && t->version >= 2 && list_virtual(t, &it, err) != DC_OK) {
        dc_trace_free_list(it.paths, it.n);
        dc_h5quiet_off(&q);
        return err ? err->code : DC_EINPUT;
    }
    dc_h5quiet_off(&q);
    if (it.failed || st < 0) {
        dc_trace_free_list(it.paths, it.n);
        return it.failed ? nomem(err)
                         : dc_error_set(err, DC_EIO, "trace '%s': cannot list its datasets", t->path);
    }
    *paths = it.paths;
    *n = it.n;
    return DC_OK;
}

/* Reads the "columns" attribute of an (n, k) dataset into names[k] (absent
 * or unreadable: names stay NULL). */
static void read_column_names(hid_t d, size_t k, char **names)
{
    if (H5Aexists(d, "columns") <= 0)
        return;
    hid_t a = H5Aopen(d, "columns", H5P_DEFAULT);
    hid_t ftype = a >= 0 ? H5Aget_type(a) : -1;
    hid_t space = a >= 0 ? H5Aget_space(a) : -1;
    if (ftype >= 0 && space >= 0 && H5Tget_class(ftype) == H5T_STRING &&
        H5Sget_simple_extent_npoints(space) == (hssize_t)k) {
        hid_t mtype = H5Tcopy(H5T_C_S1);
        if (H5Tis_variable_str(ftype) > 0) {
            char **v = calloc(k, sizeof *v);
            if (v && mtype >= 0 && H5Tset_size(mtype, H5T_VARIABLE) >= 0 &&
                H5Tset_cset(mtype, H5Tget_cset(ftype)) >= 0 && H5Aread(a, mtype, v) >= 0) {
                for (size_t i = 0; i < k; i++)
                    names[i] = v[i] ? dup_str(v[i]) : NULL;
                H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, v);
            }
            free(v);
        } else {
            size_t size = H5Tget_size(ftype);
            char *buf = calloc(k, size + 1);
            if (buf && mtype >= 0 && H5Tset_size(mtype, size + 1) >= 0 &&
                H5Tset_strpad(mtype, H5T_STR_NULLTERM) >= 0 &&
                H5Tset_cset(mtype, H5Tget_cset(ftype)) >= 0 && H5Aread(a, mtype, buf) >= 0)
                for (size_t i = 0; i < k; i++)
                    names[i] = dup_str(buf + i * (size + 1));
            free(buf);
        }
        if (mtype >= 0)
            H5Tclose(mtype);
    }
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (a >= 0)
        H5Aclose(a);
}

/* A numeric array: scalar, (n) or (n, k). */
static int read_array_table(const dc_trace_file *t, const char *dpath, hid_t d, hid_t ftype,
                            hid_t space, dc_table *out, dc_error *err)
{
    int ndims = H5Sget_simple_extent_ndims(space);
    hsize_t dims[2] = {1, 1};
    if (ndims < 0 || ndims > 2 || (ndims > 0 && H5Sget_simple_extent_dims(space, dims, NULL) < 0))
        return dc_error_set(err, DC_EINPUT, "trace '%s': %s has %d dimensions; export reads at most 2",
                            t->path, dpath, ndims);
    size_t rows = ndims == 0 ? 1 : (size_t)dims[0];
    size_t k = ndims == 2 ? (size_t)dims[1] : 1;
    if (k == 0 || k > 4096)
        return dc_error_set(err, DC_EINPUT, "trace '%s': %s has %zu columns", t->path, dpath, k);
    bool integer = H5Tget_class(ftype) == H5T_INTEGER;
    char **names = calloc(k, sizeof *names);
    if (!names)
        return nomem(err);
    if (ndims == 2)
        read_column_names(d, k, names);
    int rc = DC_OK;
    for (size_t c = 0; c < k && rc == DC_OK; c++) {
        char fallback[32] = "value";
        if (ndims == 2)
            snprintf(fallback, sizeof fallback, "col%zu", c + 1);
        rc = dc_table_add_column(out, names[c] ? names[c] : fallback,
                                 integer ? DC_COL_INT : DC_COL_REAL);
        if (rc != DC_OK)
            rc = nomem(err);
    }
    for (size_t c = 0; c < k; c++)
        free(names[c]);
    free(names);
    if (rc != DC_OK)
        return rc;
    size_t cells = rows * k;
    void *buf = malloc((cells ? cells : 1) * 8);
    if (!buf)
        return nomem(err);
    if (cells > 0 && H5Dread(d, integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                             H5P_DEFAULT, buf) < 0)
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read %s", t->path, dpath);
    for (size_t r = 0; r < rows && rc == DC_OK; r++) {
        size_t row;
        if (dc_table_add_row(out, &row) != DC_OK) {
            rc = nomem(err);
            break;
        }
        for (size_t c = 0; c < k; c++) {
            if (integer)
                dc_table_set_int(out, row, c, ((const int64_t *)buf)[r * k + c]);
            else
                dc_table_set_real(out, row, c, ((const double *)buf)[r * k + c]);
        }
    }
    free(buf);
    return rc;
}

/* Reads one member of a compound dataset of n rows into column col. */
static int read_member(const dc_trace_file *t, const char *dpath, hid_t d, hid_t ftype,
                       unsigned m, size_t n, dc_table *out, size_t col, dc_error *err)
{
    char *name = H5Tget_member_name(ftype, m);
    hid_t mft = H5Tget_member_type(ftype, m);
    H5T_class_t cls = mft >= 0 ? H5Tget_class(mft) : H5T_NO_CLASS;
    bool vlen = cls == H5T_STRING && H5Tis_variable_str(mft) > 0;
    size_t fsize = mft >= 0 ? H5Tget_size(mft) : 0;
    size_t esize = cls == H5T_STRING ? (vlen ? sizeof(char *) : fsize + 1) : 8;
    hid_t mem = H5Tcreate(H5T_COMPOUND, esize);
    hid_t field = cls == H5T_INTEGER ? H5Tcopy(H5T_NATIVE_INT64)
                  : cls == H5T_FLOAT ? H5Tcopy(H5T_NATIVE_DOUBLE)
                                     : H5Tcopy(H5T_C_S1);
    int rc = DC_OK;
    char *buf = NULL;
    if (!name || mft < 0 || mem < 0 || field < 0) {
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read the columns of %s", t->path, dpath);
    } else if (cls == H5T_STRING && ((vlen ? H5Tset_size(field, H5T_VARIABLE) < 0
                                            : H5Tset_size(field, fsize + 1) < 0 ||
                                                  H5Tset_strpad(field, H5T_STR_NULLTERM) < 0) ||
                                      H5Tset_cset(field, H5Tget_cset(mft)) < 0)) { /* UTF-8 stays UTF-8 */
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read column '%s' of %s", t->path, name,
                          dpath);
    } else if (H5Tinsert(mem, name, 0, field) < 0) {
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read column '%s' of %s", t->path, name,
                          dpath);
    } else if (!(buf = calloc(n ? n : 1, esize))) {
        rc = nomem(err);
    } else if (n > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read column '%s' of %s", t->path, name,
                          dpath);
    }
    for (size_t r = 0; r < n && rc == DC_OK; r++) {
        const char *cellp = buf + r * esize;
        if (cls == H5T_INTEGER) {
            int64_t v;
            memcpy(&v, cellp, sizeof v);
            dc_table_set_int(out, r, col, v);
        } else if (cls == H5T_FLOAT) {
            double v;
            memcpy(&v, cellp, sizeof v);
            dc_table_set_real(out, r, col, v);
        } else {
            const char *s = cellp;
            if (vlen)
                memcpy(&s, cellp, sizeof s);
            if (dc_table_set_text(out, r, col, s ? s : "") != DC_OK)
                rc = nomem(err);
        }
    }
    if (buf && vlen && n > 0) {
        hid_t space = H5Dget_space(d);
        if (space >= 0) {
            H5Dvlen_reclaim(mem, space, H5P_DEFAULT, buf);
            H5Sclose(space);
        }
    }
    free(buf);
    if (field >= 0)
        H5Tclose(field);
    if (mem >= 0)
        H5Tclose(mem);
    if (mft >= 0)
        H5Tclose(mft);
    if (name)
        H5free_memory(name);
    return rc;
}

static int read_compound_table(const dc_trace_file *t, const char *dpath, hid_t d, hid_t ftype,
                               hid_t space, dc_table *out, dc_error *err)
{
    hsize_t dims[1] = {1};
    int ndims = H5Sget_simple_extent_ndims(space);
    if (ndims > 1 || (ndims == 1 && H5Sget_simple_extent_dims(space, dims, NULL) < 0))
        return dc_error_set(err, DC_EINPUT, "trace '%s': %s is not a table (one row per element)",
                            t->path, dpath);
    size_t n = (size_t)dims[0];
    int nm = H5Tget_nmembers(ftype);
    if (nm <= 0)
        return dc_error_set(err, DC_EINPUT, "trace '%s': %s has no columns", t->path, dpath);
    for (unsigned m = 0; m < (unsigned)nm; m++) {
        H5T_class_t cls = H5Tget_member_class(ftype, m);
        char *name = H5Tget_member_name(ftype, m);
        int rc = DC_OK;
        if (!name)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read the columns of %s", t->path, dpath);
        else if (cls != H5T_INTEGER && cls != H5T_FLOAT && cls != H5T_STRING)
            rc = dc_error_set(err, DC_EINPUT,
                              "trace '%s': column '%s' of %s is neither a number nor a string", t->path,
                              name, dpath);
        else if (dc_table_add_column(out, name, cls == H5T_INTEGER ? DC_COL_INT
                                                : cls == H5T_FLOAT  ? DC_COL_REAL
                                                                    : DC_COL_TEXT) != DC_OK)
            rc = nomem(err);
        if (name)
            H5free_memory(name);
        if (rc != DC_OK)
            return rc;
    }
    for (size_t r = 0; r < n; r++)
        if (dc_table_add_row(out, NULL) != DC_OK)
            return nomem(err);
    for (unsigned m = 0; m < (unsigned)nm; m++) {
        int rc = read_member(t, dpath, d, ftype, m, n, out, m, err);
        if (rc != DC_OK)
            return rc;
    }
    return DC_OK;
}

/* A dataset of the file itself (not a format 2 virtual path) into out. */
static int read_real_table(dc_trace_file *t, const char *path, dc_table *out, dc_error *err)
{
    hid_t d = -1;
    int rc = DC_OK;
    if (!is_real_dataset(t, path))
        rc = dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", t->path, path);
    else if ((d = H5Dopen2(t->file, path, H5P_DEFAULT)) < 0)
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot open %s", t->path, path);
    else
        rc = check_stored(t, path, d, err);
    if (rc == DC_OK) {
        hid_t ftype = H5Dget_type(d);
        hid_t space = H5Dget_space(d);
        H5T_class_t cls = ftype >= 0 ? H5Tget_class(ftype) : H5T_NO_CLASS;
        if (ftype < 0 || space < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read %s", t->path, path);
        else if (cls == H5T_COMPOUND)
            rc = read_compound_table(t, path, d, ftype, space, out, err);
        else if (cls == H5T_INTEGER || cls == H5T_FLOAT)
            rc = read_array_table(t, path, d, ftype, space, out, err);
        else
            rc = dc_error_set(err, DC_EINPUT, "trace '%s': %s holds neither numbers nor a table",
                              t->path, path);
        if (space >= 0)
            H5Sclose(space);
        if (ftype >= 0)
            H5Tclose(ftype);
    }
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

/* ---- format 2: /summary and /series_index read once, their virtual paths ---- */

/* Reads table path into *cache on first use, checking it has the text
 * column names and the numeric columns nums (NULL-terminated). */
static int load_index(dc_trace_file *t, const char *path, dc_table **cache, const char *const *texts,
                      const char *const *nums, dc_error *err)
{
    if (*cache)
        return DC_OK;
    dc_table *tab = dc_table_create();
    if (!tab)
        return nomem(err);
    int rc = read_real_table(t, path, tab, err);
    for (size_t i = 0; rc == DC_OK && texts[i]; i++) {
        long c = dc_table_column_index(tab, texts[i]);
        if (c < 0 || dc_table_column_type(tab, (size_t)c) != DC_COL_TEXT)
            rc = dc_error_set(err, DC_EINPUT, "trace '%s': %s has no text column '%s'", t->path, path, texts[i]);
    }
    for (size_t i = 0; rc == DC_OK && nums[i]; i++) {
        long c = dc_table_column_index(tab, nums[i]);
        if (c < 0 || dc_table_column_type(tab, (size_t)c) == DC_COL_TEXT)
            rc = dc_error_set(err, DC_EINPUT, "trace '%s': %s has no numeric column '%s'", t->path, path, nums[i]);
    }
    if (rc != DC_OK) {
        dc_table_destroy(tab);
        return rc;
    }
    *cache = tab;
    return DC_OK;
}

static int load_summary(dc_trace_file *t, dc_error *err)
{
    static const char *const texts[] = {"name", "unit", "doc", NULL}, *const nums[] = {"value", NULL};
    return load_index(t, "/summary", &t->summary, texts, nums, err);
}

static int load_series_index(dc_trace_file *t, dc_error *err)
{
    static const char *const texts[] = {"name", "unit", "doc", NULL}, *const nums[] = {"start", "count", NULL};
    return load_index(t, "/series_index", &t->series_index, texts, nums, err);
}

/* The row of tab whose name is name, or -1. */
static long find_row(const dc_table *tab, const char *name)
{
    long c = dc_table_column_index(tab, "name");
    for (size_t r = 0; c >= 0 && r < dc_table_rows(tab); r++)
        if (strcmp(dc_table_text(tab, r, (size_t)c), name) == 0)
            return (long)r;
    return -1;
}

/* Format 2: whether path is a virtual /summary/KEY or /series/NAME that
 * the trace holds (*virt: it names one of those at all). */
static bool virtual_dataset(dc_trace_file *t, const char *path, bool *virt)
{
    *virt = false;
    if (t->version < 2)
        return false;
    dc_error ignored = {0};
    if (strncmp(path, "/summary/", 9) == 0) {
        *virt = true;
        return load_summary(t, &ignored) == DC_OK && find_row(t->summary, path + 9) >= 0;
    }
    if (strncmp(path, "/series/", 8) == 0) {
        *virt = true;
        return load_series_index(t, &ignored) == DC_OK && find_row(t->series_index, path + 8) >= 0;
    }
    return false;
}

/* Format 2: rows start .. start + count - 1 of /series (n x 2 floats). */
static int read_series_rows(dc_trace_file *t, const char *dpath, double *buf, size_t start, size_t count,
                            dc_error *err)
{
    hid_t d = -1;
    int rc = open_dataset(t, "/series", &d, err);
    if (rc != DC_OK)
        return rc;
    hid_t space = H5Dget_space(d), type = H5Dget_type(d), mspace = -1;
    hsize_t dims[2] = {0, 0};
    if (space < 0 || type < 0)
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read /series", t->path);
    else if (H5Tget_class(type) != H5T_FLOAT || H5Sget_simple_extent_ndims(space) != 2 ||
             H5Sget_simple_extent_dims(space, dims, NULL) < 0 || dims[1] != 2)
        rc = dc_error_set(err, DC_EINPUT, "trace '%s': /series is not a table of points (n x 2 floats)", t->path);
    else if (start > dims[0] || count > dims[0] - start)
        rc = dc_error_set(err, DC_EINPUT,
                          "trace '%s': /series_index puts %s at rows %zu to %zu of /series, which has %llu",
                          t->path, dpath, start, start + count, (unsigned long long)dims[0]);
    else if (count > 0) {
        hsize_t off[2] = {start, 0}, cnt[2] = {count, 2};
        mspace = H5Screate_simple(2, cnt, NULL);
        if (mspace < 0 || H5Sselect_hyperslab(space, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
            H5Dread(d, H5T_NATIVE_DOUBLE, mspace, space, H5P_DEFAULT, buf) < 0)
            rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read %s", t->path, dpath);
    }
    if (mspace >= 0)
        H5Sclose(mspace);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    H5Dclose(d);
    return rc;
}

/* Format 2: the number of points /series holds (its first dimension),
 * checking it is a table of points (n x 2 floats). */
static int series_extent(dc_trace_file *t, uint64_t *rows, dc_error *err)
{
    hid_t d = -1;
    int rc = open_dataset(t, "/series", &d, err);
    if (rc != DC_OK)
        return rc;
    hid_t space = H5Dget_space(d), type = H5Dget_type(d);
    hsize_t dims[2] = {0, 0};
    if (space < 0 || type < 0)
        rc = dc_error_set(err, DC_EIO, "trace '%s': cannot read /series", t->path);
    else if (H5Tget_class(type) != H5T_FLOAT || H5Sget_simple_extent_ndims(space) != 2 ||
             H5Sget_simple_extent_dims(space, dims, NULL) < 0 || dims[1] != 2)
        rc = dc_error_set(err, DC_EINPUT, "trace '%s': /series is not a table of points (n x 2 floats)", t->path);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    H5Dclose(d);
    *rows = (uint64_t)dims[0];
    return rc;
}

/* Format 2: where series name lies in /series; DC_EINPUT naming dpath if
 * the trace has no such series. */
static int series_rows(dc_trace_file *t, const char *name, const char *dpath, size_t *start, size_t *count,
                       dc_error *err)
{
    if (!is_real_dataset(t, "/series_index"))
        return dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", t->path, dpath);
    int rc = load_series_index(t, err);
    if (rc != DC_OK)
        return rc;
    long r = find_row(t->series_index, name);
    if (r < 0)
        return dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", t->path, dpath);
    int64_t s0 = dc_table_int(t->series_index, (size_t)r, (size_t)dc_table_column_index(t->series_index, "start"));
    int64_t n0 = dc_table_int(t->series_index, (size_t)r, (size_t)dc_table_column_index(t->series_index, "count"));
    if (s0 < 0 || n0 < 0)
        return dc_error_set(err, DC_EINPUT, "trace '%s': /series_index gives %s a negative start or count", t->path,
                            dpath);
    /* Checked against /series before the caller allocates count x 16
     * bytes for the rows (a hand-made index claiming 2^40 points asked for
     * 16 TiB: "out of memory"). */
    uint64_t total = 0;
    if ((rc = series_extent(t, &total, err)) != DC_OK)
        return rc;
    if ((uint64_t)s0 > total || (uint64_t)n0 > total - (uint64_t)s0)
        return dc_error_set(err, DC_EINPUT,
                            "trace '%s': /series_index puts %s at rows %llu to %llu of /series, which has %llu", t->path,
                            dpath, (unsigned long long)s0, (unsigned long long)s0 + (unsigned long long)n0,
                            (unsigned long long)total);
    *start = (size_t)s0;
    *count = (size_t)n0;
    return DC_OK;
}

int dc_trace_read_table(dc_trace_file *t, const char *path, dc_table *out, dc_error *err)
{
    if (!t || !path || !out || dc_table_columns(out) != 0)
        return dc_error_set(err, DC_EINTERNAL, "dc_trace_read_table: bad arguments");
    dc_h5quiet q;
    dc_h5quiet_on(&q);
    bool virt = false;
    int rc = DC_OK;
    if (!virtual_dataset(t, path, &virt) && virt) {
        rc = dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", t->path, path);
    } else if (virt && path[2] == 'u') { /* /summary/KEY: one value, as a format 1 scalar */
        long r = find_row(t->summary, path + 9);
        size_t row;
        if (dc_table_add_column(out, "value", DC_COL_REAL) != DC_OK || dc_table_add_row(out, &row) != DC_OK)
            rc = nomem(err);
        else
            dc_table_set_real(out, row, 0,
                              dc_table_number(t->summary, (size_t)r, dc_table_column_index(t->summary, "value")));
    } else if (virt) { /* /series/NAME: time_s, value */
        size_t start = 0, count = 0;
        rc = series_rows(t, path + 8, path, &start, &count, err);
        double *buf = rc == DC_OK ? malloc((count ? count : 1) * 2 * sizeof *buf) : NULL;
        if (rc == DC_OK && !buf)
            rc = nomem(err);
        if (rc == DC_OK)
            rc = read_series_rows(t, path, buf, start, count, err);
        if (rc == DC_OK && (dc_table_add_column(out, "time_s", DC_COL_REAL) != DC_OK ||
                            dc_table_add_column(out, "value", DC_COL_REAL) != DC_OK))
            rc = nomem(err);
        for (size_t i = 0; rc == DC_OK && i < count; i++) {
            size_t row;
            if (dc_table_add_row(out, &row) != DC_OK) {
                rc = nomem(err);
                break;
            }
            dc_table_set_real(out, row, 0, buf[2 * i]);
            dc_table_set_real(out, row, 1, buf[2 * i + 1]);
        }
        free(buf);
    } else {
        rc = read_real_table(t, path, out, err);
    }
    dc_h5quiet_off(&q);
    return rc;
}
