/* libFuzzer harness: arbitrary bytes as a trace file, read as dcsim report, compare, export and
 * plot read it.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: arbitrary bytes as a trace file, read as `dcsim report`
 * (and compare, export, plot) read it: open (format checks), the root
 * attributes, the summary, the events, every series and every dataset as a
 * table.  The bytes go to a temporary file (HDF5 reads files).  A file that
 * is not a valid trace must come back as DC_EINPUT with a message, never a
 * crash.  Crashes inside libhdf5 itself on corrupt files are reported in
 * docs/errors.md, not hidden here.
 *
 * Past the checksum: an input that starts with dcsim's checksum block
 * ("dcsim-checksum 3\n", or 2 from before XXH3; sim/h5image.h) gets the
 * block rewritten with the mutant's true size and XXH3 before it is
 * written out, as a file crafted
 * to carry a valid checksum would, so mutants of real traces reach the
 * reader's parsing (and libhdf5) instead of stopping at the checksum.  An
 * input whose block was itself damaged is left alone (the checksum's own
 * refusal stays covered). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eventlog.h"
#include "h5image.h"
#include "summary.h"
#include "table.h"
#include "trace_read.h"
#include "xxh3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes the input, with a valid checksum block if it starts with one. */
static int write_input(FILE *f, const uint8_t *data, size_t size)
{
    /* (seeds written before XXH3 carry version 2: rewritten the same way) */
    static const char head3[] = "dcsim-checksum 3\n", head2[] = "dcsim-checksum 2\n";
    if (size < DC_H5IMAGE_USERBLOCK ||
        (memcmp(data, head3, sizeof head3 - 1) != 0 && memcmp(data, head2, sizeof head2 - 1) != 0))
        return fwrite(data, 1, size, f) == size ? 0 : -1;
    char block[DC_H5IMAGE_USERBLOCK];
    memset(block, 0, sizeof block);
    size_t body = size - DC_H5IMAGE_USERBLOCK;
    snprintf(block, sizeof block, "dcsim-checksum 3\nsize %zu\nxxh3 %016llx\n", body,
             (unsigned long long)dc_xxh3(data + DC_H5IMAGE_USERBLOCK, body));
    if (fwrite(block, 1, sizeof block, f) != sizeof block)
        return -1;
    return fwrite(data + DC_H5IMAGE_USERBLOCK, 1, body, f) == body ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/dcsim-fuzz-trace-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(path);
        return 0;
    }
    int bad = write_input(f, data, size);
    if (fclose(f) != 0 || bad) {
        unlink(path);
        return 0;
    }
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(path, &err);
    if (!t) {
        if (err.msg[0] == '\0')
            abort();
        unlink(path);
        return 0;
    }
    char *s = NULL;
    if (dc_trace_attr_string(t, "scenario", &s, &err) == DC_OK)
        free(s);
    double x;
    dc_trace_attr_double(t, "horizon_s", &x, &err);
    dc_summary *sum = dc_summary_create();
    if (sum) {
        dc_trace_read_summary(t, sum, &err);
        dc_summary_destroy(sum);
    }
    size_t count = 0;
    dc_trace_event_count(t, &count, &err);
    dc_eventlog *log = dc_eventlog_create();
    if (log) {
        dc_eventlog_enable(log, true);
        dc_trace_read_events(t, log, &err);
        dc_eventlog_destroy(log);
    }
    char **paths = NULL;
    size_t n = 0;
    if (dc_trace_list_datasets(t, &paths, &n, &err) == DC_OK) {
        for (size_t i = 0; i < n; i++) {
            if (strncmp(paths[i], "/series/", 8) == 0) {
                double *ts = NULL, *v = NULL;
                size_t m = 0;
                if (dc_trace_read_series(t, paths[i] + 8, &ts, &v, &m, &err) == DC_OK) {
                    free(ts);
                    free(v);
                }
            }
            dc_table *tab = dc_table_create();
            if (tab) {
                dc_trace_read_table(t, paths[i], tab, &err);
                dc_table_destroy(tab);
            }
        }
        dc_trace_free_list(paths, n);
    }
    dc_trace_close(t);
    unlink(path);
    return 0;
}
