/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */

/* HDF5 files built in memory, then written with plain write(2).
 *
 * Why: libhdf5 1.10 does not survive a failed write to disk.  When the disk
 * is full or a file-size limit is reached during H5Dwrite or H5Fclose, the
 * call fails, but the library's file object is left half-closed and
 * H5_term_library crashes on it at exit (found by tests/test_errors with
 * RLIMIT_FSIZE).  With the core driver and no backing store, HDF5 never
 * touches the disk: the trace (or sweep) is built in memory, its image is
 * written by dc_h5image_save, whose every error is ours to report, and the
 * caller renames the temporary file only when that succeeded.  Cost: the
 * file's size in memory for the time of the write (bounded by the trace
 * limit, cli/runlimits.h). */
#ifndef DC_H5IMAGE_H
#define DC_H5IMAGE_H

#include <stddef.h>

#include <hdf5.h>

/* A file-access property list: core driver without backing store, format
 * pinned to HDF5 1.8, strong close.  -1 on failure. */
hid_t dc_h5image_fapl(void);

/* Writes the image of the open in-memory file to path (created or
 * truncated), checking every write and the close.  0 on success; else -1
 * with the reason in why. */
int dc_h5image_save(hid_t file, const char *path, char *why, size_t why_size);

#endif
