/* What the trace writer and its readers must agree on beyond trace.h: the HDF5 type of an /events
 * row.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* What the trace writer (sim/trace.c) and its readers (analysis/) must agree
 * on beyond the layout in trace.h: the HDF5 type of an /events row. */
#ifndef DC_TRACE_FORMAT_H
#define DC_TRACE_FORMAT_H

#include <stdbool.h>

#include <hdf5.h>

/* The compound type of a row of /events: native numbers for memory, or the
 * packed little-endian layout stored in files.  The caller closes it;
 * -1 on failure. */
hid_t dc_trace_event_type(bool native);

#endif
