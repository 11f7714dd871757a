/* libFuzzer harness: arbitrary bytes as a CSV file for the strict reader of sim/csv.h.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: the input is a CSV file.  The reader must accept it or
 * reject it with DC_EINPUT and a message naming the file; every field of an
 * accepted file is then read as a number (accepted or rejected likewise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dc_csv *csv = NULL;
    dc_error err = {0};
    int rc = dc_csv_read_string((const char *)data, size, "f.csv", &csv, &err);
    if (rc != DC_OK) {
        if (csv || (rc != DC_EINPUT && rc != DC_ENOMEM) || strncmp(err.msg, "f.csv", 5) != 0)
            abort();
        return 0;
    }
    size_t col = 0;
    if (dc_csv_find_column(csv, "time_h", &col, &err) != DC_OK && strncmp(err.msg, "f.csv", 5) != 0)
        abort();
    for (size_t r = 0; r < dc_csv_row_count(csv); r++)
        for (size_t c = 0; c < dc_csv_column_count(csv); c++) {
            double v;
            if (dc_csv_number(csv, r, c, &v, &err) != DC_OK && strncmp(err.msg, "f.csv:", 6) != 0)
                abort();
            if (dc_csv_line(csv, r) <= dc_csv_header_line(csv))
                abort();
        }
    dc_csv_destroy(csv);
    return 0;
}
