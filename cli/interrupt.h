/* SIGINT and SIGTERM during dcsim run and dcsim sweep: how a command notices and stops.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* SIGINT and SIGTERM during `dcsim run` and `dcsim sweep` (docs/errors.md).
 * The handler only records the signal; the engine notices it after the
 * event it arrived in (dc_sim_set_cancel: run, and every run of a sweep), stops, cleans up and exits with 128 + the signal number
 * (130 for SIGINT, 143 for SIGTERM).  A second signal kills at once (the
 * default action), removing first the temporary file of the output being
 * written, if the command named one (dc_cli_interrupt_cleanup), so that
 * nothing half-written is left; except once dc_cli_write_guarded has the
 * output complete and renames it: from then on further signals are
 * ignored and the command ends by itself (printing its figures, freeing),
 * so that a process killed by a signal never replaced its output and one
 * that exits 0, 130 or 143 did.  This is the one piece of global mutable
 * state, and it lives in cli/ (a signal handler can reach nothing else). */
#ifndef DC_CLI_INTERRUPT_H
#define DC_CLI_INTERRUPT_H

#include <signal.h>

#include "error.h"
#include "outfile.h"

/* Installs the handlers; then, if the environment names a file in
 * DCSIM_READY_FILE, creates it (empty): tests wait for it before they
 * signal, so that the signal cannot arrive before the handler. */
void dc_cli_catch_signals(void);
/* The two halves of dc_cli_catch_signals, for MPI: every rank installs
 * its handlers, the ranks meet, then rank 0 alone announces. */
void dc_cli_install_signals(void);
void dc_cli_announce_ready(void);
/* The temporary file a second signal removes (NULL: none). */
void dc_cli_interrupt_cleanup(const char *path);
/* Writes one output file through sim/outfile.h (temporary file beside a
 * regular target, then rename) with that temporary file registered for a
 * second signal to remove while `write` fills it: open, write, commit, or
 * abort on error.  `what` names the output in messages ("trace", "sweep"). */
typedef int (*dc_cli_writer)(dc_outfile *out, void *ctx, dc_error *err);
int dc_cli_write_guarded(const char *path, const char *what, dc_cli_writer write, void *ctx, dc_error *err);
/* The signal caught (0: none). */
int dc_cli_interrupted(void);
const volatile sig_atomic_t *dc_cli_interrupt_flag(void);
/* 128 + sig, the shell's convention. */
int dc_cli_signal_status(int sig);
const char *dc_cli_signal_name(int sig);

#endif
