/* dcsim's main: picks the subcommand; the only place that chooses the exit status.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim: the command line.  Wires the scenario, the models, the engine and
 * the trace; the only place that prints for the user or chooses an exit
 * status. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <hdf5.h>

#include "cli.h"
#include "config.h"
#include "plotcli.h"

static const char usage[] =
    "dcsim - discrete-event simulator of AI datacenters\n"
    "\n"
    "usage: dcsim COMMAND [ARGS]\n"
    "  run [FILE] [-o OUT.h5|--no-trace] [--seed N] [--set KEY=VALUE]... [--json] [--quiet] [--force]\n"
    "                          simulate a scenario (default: the embedded 10k_gpu scenario)\n"
    "  validate FILE [--set KEY=VALUE]...\n"
    "                          check a scenario without running it\n"
    "  report TRACE.h5 [--json | --jobs]\n"
    "                          print the summary stored in a trace, or its /jobs table\n"
    "  mttf [FILE] [--sizes G1,G2,...] [--failures N] [--max-days D] [--seed N] [--set KEY=VALUE]... [--json]\n"
    "                          time to failure against job size (8 GPUs to the whole cluster)\n"
    "  size [FILE] --deadline-days D [--confidence C] [--budget USD] [...]\n"
    "                          the smallest cluster that trains the job in time, and three plans\n"
    "  sweep [FILE] --reps N [--vary KEY=v1,v2,...|KEY=lo:hi:step]... [-o OUT.h5] [...]\n"
    "                          Monte Carlo: a grid x N replications with uncertain inputs\n"
    "  plot TRACE.h5 [--kind KIND] [-o FILE.png|.svg|.pdf|DIR]\n"
    "                          figures of a trace with gnuplot (--list: the kinds; --help)\n"
    "  plot --kind KIND TRACE.h5... | --scan FILE.cfg --vary KEY=V1,V2,... [--reps N]\n"
    "                          a figure of several runs (checkpoint, scale, compare)\n"
    "  export TRACE.h5 PATH [-o FILE.csv]\n"
    "                          a dataset (/summary, /events, /series/NAME) as CSV\n"
    "  compare A.h5 B.h5... [--csv] [--plot [-o FILE]]\n"
    "                          summaries side by side with relative differences\n"
    "  keys                    print the reference of every scenario key (Markdown)\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 success, 2 bad input (scenario, command line, files, limits), 1 other failure,\n"
    "130/143 run or sweep interrupted by SIGINT/SIGTERM (docs/errors.md).\n";

/* GSL's default handler aborts; a simulator must report and go on (input is
 * validated before any GSL call, so this only catches our own mistakes). */
static void gsl_report(const char *reason, const char *file, int line, int gsl_errno)
{
    fprintf(stderr, "dcsim: GSL error %d in %s:%d: %s\n", gsl_errno, file, line, reason);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler(gsl_report);
    /* Past a file-size limit (ulimit -f) a write must fail with EFBIG and
     * be reported, not kill dcsim halfway through a trace. */
    signal(SIGXFSZ, SIG_IGN);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    atexit(dc_cli_close_stdout);
    /* A buffer larger than any summary or table a command prints: stdio then
     * writes it at the closeout, whose fclose sees the write's errno (a write
     * that fails earlier leaves only "write error"; dcsim keys outgrew 4 KiB
     * blocks on a full disk). */
    static char stdout_buffer[1 << 20]; /* (glibc ignores a size without a buffer) */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    if (argc < 2)
        return dc_cmd_run(argc, argv);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return DC_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("dcsim %s\n", PACKAGE_VERSION);
        return DC_EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0)
        return dc_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0)
        return dc_cmd_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return dc_cmd_report(argc - 1, argv + 1);
    if (strcmp(cmd, "keys") == 0)
        return dc_cmd_keys(argc - 1, argv + 1);
    if (strcmp(cmd, "mttf") == 0)
        return dc_cmd_mttf(argc - 1, argv + 1);
    if (strcmp(cmd, "size") == 0)
        return dc_cmd_size(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0)
        return dc_cmd_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return dc_cmd_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "export") == 0)
        return dc_cmd_export(argc - 1, argv + 1);
    if (strcmp(cmd, "compare") == 0)
        return dc_cmd_compare(argc - 1, argv + 1);
    fprintf(stderr, "dcsim: unknown command '%s'\n\n%s", cmd, usage);
    return DC_EXIT_INPUT;
}
