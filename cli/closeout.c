/* The closeout rule: every command checks, at exit, that all it wrote to standard output got there.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* gnulib's close_stdout, as an atexit handler: output to a full disk, a
 * closed pipe's replacement, a file past its size limit fails only when
 * stdio flushes, often at exit, where nobody looks.  This looks: standard
 * output is flushed and closed, and a failure is reported ("dcsim: cannot
 * write to standard output: No space left on device") with exit status 2
 * (an output that cannot be written, docs/errors.md), whatever the command
 * returned.  Standard error is closed too; its failure can only show in
 * the status. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"

void dc_cli_close_stdout(void)
{
    int e = 0;
    if (!dc_outfile_close_stdout(&e)) {
        fprintf(stderr, "dcsim: cannot write to standard output: %s\n", e ? strerror(e) : "write error");
        fflush(stderr);
        _exit(DC_EXIT_INPUT);
    }
    if (fclose(stderr) != 0 && errno != EBADF)
        _exit(DC_EXIT_INPUT);
}
