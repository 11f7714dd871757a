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
#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "outfile.h"
#include "plot.h"

/* Installs the handlers; then, if the environment names a file in
 * DCSIM_READY_FILE, creates it (empty): tests wait for it before they
 * signal, so that the signal cannot arrive before the handler. */
void dc_cli_catch_signals(void);
/* The two halves of dc_cli_catch_signals, for MPI: every rank installs
 * its handlers, the ranks meet, then rank 0 alone announces. */
void dc_cli_install_signals(void);
void dc_cli_announce_ready(void);
/* Whether the handlers are installed (and not put back to the default). */
bool dc_cli_signals_caught(void);
/* The temporary file a second signal removes (NULL: none). */
void dc_cli_interrupt_cleanup(const char *path);
/* Other temporary files and directories a second signal removes (a
 * figure's data directory and temporary figure, an HTML report's directory
 * of figures): made once path exists, !made once it is gone.  A directory
 * is emptied (its files, and directories already emptied) and removed;
 * what was told last goes first.  Up to 8 at once (-1 beyond: not removed). */
int dc_cli_interrupt_temp(const char *path, bool dir, bool made);
/* A child a second signal kills (SIGKILL) before it removes those: gnuplot,
 * which would write its figure again by name (0: none). */
void dc_cli_interrupt_child(pid_t pid);
/* The guard that tells dc_plot_render's temporary files and gnuplot to the
 * two above (dc_plot_opts.guard). */
const dc_plot_guard *dc_cli_plot_guard(void);
/* SIGINT and SIGTERM back to their default action (ending dcsim at once),
 * for a command whose drawing is over and whose rest needs no handler. */
void dc_cli_default_signals(void);
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
