/* Output files: the rules every file dcsim writes follows, so that no output destroys what it points at.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Output files (traces, sweep results, CSV exports, figures), written by
 * the same rules (docs/errors.md, "Outputs"):
 *
 * - A regular file, or a name not there yet, is written to a temporary file
 *   beside it and renamed over NAME only once complete, so a failed or
 *   interrupted write leaves the previous NAME as it was and a half file
 *   never carries the final name.  The temporary file has no name while it
 *   is written (O_TMPFILE, where the kernel and the file system have it):
 *   committed, it is linked as NAME itself when nothing has that name, else
 *   as NAME.tmp.PID.N then renamed over NAME, so a process killed (SIGKILL,
 *   a crash) while writing leaves nothing behind.  Elsewhere, and for a
 *   program that writes the file by name (dc_outfile_open_named: gnuplot),
 *   it is NAME.tmp.PID.N from the start (created with O_EXCL), which a kill
 *   leaves behind.  Either has mode 0666 less the umask, like any new file.
 * - A character device (/dev/null, a terminal, /dev/full) and the process's
 *   own standard output or error, whatever they are (a pipe, a file; by any
 *   name: /dev/stdout, /dev/fd/1, /proc/self/fd/2), are written in place:
 *   renaming over them would replace the device with a regular file
 *   (running as root, `-o /dev/null` did).  Standard output and error are
 *   written through their descriptors (dup), at their current offset.
 * - Refused with DC_EINPUT (exit status 2), before any work:
 *     a directory;
 *     a FIFO, socket or block device that is not standard output or error;
 *     a symbolic link to anything but what is written in place (the
 *       rename would replace the link, and writing through it would
 *       replace the file it points to: dcsim does neither, and says which
 *       file to name instead);
 *     a file that is one of the command's inputs (same device and inode,
 *       so a hard link or another spelling of the name is caught too):
 *       `dcsim run s.cfg -o s.cfg` would destroy its own scenario.
 *
 * Messages read "cannot write WHAT 'NAME': why", WHAT being "trace",
 * "sweep", "figure", "CSV"...  Errors of the file system (a missing
 * directory, no permission, a full disk) are DC_EIO, also exit status 2. */
#ifndef DC_OUTFILE_H
#define DC_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

typedef struct dc_outfile dc_outfile;

/* Checks path as an output before any work: the rules above, and that a
 * temporary file can be created beside it (one is created and removed:
 * unnamed where O_TMPFILE works, so that a kill during the check leaves
 * nothing; else NAME.tmp.PID.N).
 * inputs: the n paths the command reads (NULL entries skipped). */
int dc_outfile_check(const char *path, const char *what, const char *const *inputs, size_t n, dc_error *err);

/* Opens path for writing by the rules above (checked again: the file
 * system may have changed since dc_outfile_check).  NULL and err on failure,
 * with nothing created. */
dc_outfile *dc_outfile_open(const char *path, const char *what, dc_error *err);

/* The same with a temporary file that has its name from the start, for a
 * program given dc_outfile_name to write. */
dc_outfile *dc_outfile_open_named(const char *path, const char *what, dc_error *err);

/* The descriptor to write to. */
int dc_outfile_fd(const dc_outfile *o);
/* A stdio stream on it (created on first call, closed by commit or abort);
 * NULL when out of memory. */
FILE *dc_outfile_stream(dc_outfile *o);
/* The name that receives the bytes: the temporary file (the final name
 * while an unnamed one is written), or the device itself when written in
 * place (for a program that writes by name: open with dc_outfile_open_named). */
const char *dc_outfile_name(const dc_outfile *o);
/* The temporary file's name while it is written; NULL when there is none
 * (written in place, or unnamed until commit). */
const char *dc_outfile_temp_name(const dc_outfile *o);
/* The final name (what the user gave). */
const char *dc_outfile_path(const dc_outfile *o);
bool dc_outfile_in_place(const dc_outfile *o);
/* True when the output is this process's standard output (a command then
 * prints its own messages to standard error). */
bool dc_outfile_is_stdout(const dc_outfile *o);

/* Writes n bytes (retrying short writes and EINTR); DC_EIO naming the file. */
int dc_outfile_write(dc_outfile *o, const void *data, size_t n, dc_error *err);

/* Closes (checking the stream's and the descriptor's errors) and renames the
 * temporary file over the final name.  On any error the temporary file is
 * removed and the previous file of that name is left as it was.  Frees o. */
int dc_outfile_commit(dc_outfile *o, dc_error *err);
/* Closes and removes the temporary file; the final name is untouched.
 * Frees o; NULL is ignored. */
void dc_outfile_abort(dc_outfile *o);

/* The closeout rule (gnulib's close_stdout): flushes and closes standard
 * output; true when everything written to it reached it.  *errnum gets
 * the reason otherwise (0 when unknown). */
bool dc_outfile_close_stdout(int *errnum);

#endif
