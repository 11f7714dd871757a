/* HDF5's automatic error printing turned off around calls whose failure dcsim reports itself. */
/* Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#ifndef DC_H5QUIET_H
#define DC_H5QUIET_H

#include <hdf5.h>

/* The handler in force before dc_h5quiet_on, restored by dc_h5quiet_off:
 * the trace writer (sim/trace.c) and reader (analysis/trace_read.c) probe
 * for objects and turn HDF5's failures into dcsim messages naming the file,
 * so HDF5's own stack dump must not reach the user. */
typedef struct dc_h5quiet {
    H5E_auto2_t func;
    void *data;
} dc_h5quiet;

static inline void dc_h5quiet_on(dc_h5quiet *q)
{
    H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static inline void dc_h5quiet_off(const dc_h5quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

#endif
