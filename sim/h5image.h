/* HDF5 files built in memory, then written with plain write(2).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* HDF5 files built in memory, then written with plain write(2).
 *
 * Why: libhdf5 1.10 does not survive a failed write to disk.  When the disk
 * is full or a file-size limit is reached during H5Dwrite or H5Fclose, the
 * call fails, but the library's file object is left half-closed and
 * H5_term_library crashes on it at exit (found by tests/test_errors with
 * RLIMIT_FSIZE).  With the core driver and no backing store, HDF5 never
 * touches the disk: the trace (or sweep) is built in memory, its image is
 * written by dc_h5image_save, whose every error is ours to report, and the
 * caller commits the output (sim/outfile.h: renames its temporary file)
 * only when that succeeded.  Cost: the
 * file's size in memory for the time of the write (bounded by the trace
 * limit, cli/runlimits.h), except for files built through
 * dc_h5image_fapl_keep, whose raw data spills to a temporary file (below). *
 * Checksum.  dc_h5image_save writes a 512-byte HDF5 user block in front of
 * the image (libhdf5 looks for the superblock at 0, 512, 1024, ... and
 * ignores what precedes it; h5py, h5dump and pandas read such files as any
 * other), holding
 *   "dcsim-checksum 3\nsize N\nxxh3 HHHHHHHHHHHHHHHH\n"
 * over the N bytes after the block (XXH3-64, seed 0, sim/xxh3.h: 64-byte
 * stripes in SIMD, about 0.25 instructions per byte with AVX2).  Files of
 * dcsim before it carry
 *   "dcsim-checksum 2\nsize N\nxxh64 HHHHHHHHHHHHHHHH\n"
 * (XXH64, seed 0, sim/xxh64.h: 0.9 instructions per byte) or, older,
 *   "dcsim-checksum 1\nsize N\nfnv1a64 HHHHHHHHHHHHHHHH\n"
 * (64-bit FNV-1a, byte at a time) and are checked as such; another
 * version is refused as "damaged or from a newer dcsim".  dc_h5image_verify
 * checks it before libhdf5 parses anything: a file cut short or changed
 * since (a failed copy, a bad disk) is refused with a message.  libhdf5
 * 1.10 crashes, leaks or loops for ever on some damaged files (found by
 * fuzz/fuzz_trace.c); the checksum keeps accidental damage away from it.
 * A file without the block (an older trace, another program's HDF5 file) is
 * read unchecked. */
#ifndef DC_H5IMAGE_H
#define DC_H5IMAGE_H

#include <stddef.h>

#include <hdf5.h>

#include "outfile.h"

/* A file-access property list: core driver without backing store, format
 * pinned to HDF5 1.8, strong close.  -1 on failure. */
hid_t dc_h5image_fapl(void);

/* The size of the user block that carries the checksum. */
#define DC_H5IMAGE_USERBLOCK 512

/* Writes the image of the open in-memory file to out (sim/outfile.h; the
 * caller commits it), with the checksum in its user block, checking every
 * write.  0 on success; else -1 with the reason in why. */
int dc_h5image_save(hid_t file, dc_outfile *out, char *why, size_t why_size);

/* A file built without the copy dc_h5image_save makes, and without holding
 * its bulk in memory: create the file with the access list
 * dc_h5image_fapl_keep(img) (a file driver of dcsim's, registered with
 * libhdf5 for img, laid out as the core driver lays files out), close it,
 * then dc_h5image_write(img, ...) writes its image (its size: the
 * end-of-file address of its superblock) with the checksum.
 *
 * Where the bytes are: in memory, in 4 KiB pages, until spill_after bytes
 * of raw data (H5FD_MEM_DRAW: the tables' and series' chunks) have been
 * written (default 16 MiB); from then on each raw write of 8 KiB or more
 * (a table's 64 KiB chunk, a flush of streamed rows) is appended to the
 * spool, a temporary file in dir (NULL: $TMPDIR, else /tmp) unlinked as
 * soon as it is created, so nothing is left behind however the process
 * ends.  A trace of a million jobs then holds its metadata (the chunk
 * indexes: kilobytes) and 16 MiB, not its 760 MB.  The driver never fails
 * a write for the disk's sake: when the spool cannot be created or written
 * (a full disk, a file-size limit), that write and the rest stay in
 * memory, as with the core driver.  dc_h5image_write reads the image
 * twice, once for the checksum in front and once to write it; a spool
 * that cannot be read back fails it with a message.
 * dc_h5image_spilled: the bytes that went to the spool (for tests). */
typedef struct dc_h5image dc_h5image;
dc_h5image *dc_h5image_create(void);
void dc_h5image_destroy(dc_h5image *img);
hid_t dc_h5image_fapl_keep(dc_h5image *img);
int dc_h5image_write(dc_h5image *img, dc_outfile *out, char *why, size_t why_size);
/* 0, or -1 when out of memory (nothing changed). */
int dc_h5image_set_spill(dc_h5image *img, size_t spill_after, const char *dir);
unsigned long long dc_h5image_spilled(const dc_h5image *img);

/* Tells libhdf5 not to tear itself down at exit (H5dont_atexit): for a
 * program that closes every file it opens and frees nothing of the
 * library's at exit anyway.  Call it before any other HDF5 call. */
void dc_h5image_no_teardown(void);

/* 0: path carries a checksum that matches, or none (unchecked); 1: it is
 * damaged (why says how); -1: it cannot be read (let the caller's open say
 * why). */
int dc_h5image_verify(const char *path, char *why, size_t why_size);

/* 64-bit FNV-1a of n bytes, continuing from h (start: DC_FNV1A64_INIT). */
#define DC_FNV1A64_INIT 0xcbf29ce484222325ULL
unsigned long long dc_fnv1a64(unsigned long long h, const void *data, size_t n);

#endif
