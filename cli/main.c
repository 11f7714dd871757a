/* dcsim's main: picks the subcommand; the only place that chooses the exit status.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim: the command line.  Wires the scenario, the models, the engine and
 * the trace; the only place that prints for the user or chooses an exit
 * status.  Bare `dcsim` prints a short usage and exits 2 (it used to run
 * the flagship: `dcsim run` still does); `dcsim help CMD` is `dcsim CMD
 * --help`. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "args.h"
#include "cli.h"
#include "config.h"
#include "h5image.h"
#include "plotcli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

/* In the order of dcsim --help's list (dcsim_cmd.after). */

static const command commands[] = {
    {"run", dc_cmd_run},
    {"validate", dc_cmd_validate},
    {"scenarios", dc_cmd_scenarios},
    {"report", dc_cmd_report},
    {"plot", dc_cmd_plot},
    {"sweep", dc_cmd_sweep},
    {"compare", dc_cmd_compare},
    {"export", dc_cmd_export},
    {"mttf", dc_cmd_mttf},
    {"size", dc_cmd_size},
    {"keys", dc_cmd_keys},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const dc_cli_cmd dcsim_cmd = {
    .name = NULL,
    .operands = "COMMAND [ARG]...",
    .doc = "A discrete-event simulator of AI datacenters: failures, repairs, checkpoints, the network, storage,\n"
           "power, cooling and cost of a cluster over months of simulated time.\n",
    .after = "Commands (dcsim COMMAND --help for each):\n"
             "  run        simulate a scenario (default: the embedded 10k_gpu one), print its summary, write its trace\n"
             "  validate   check a scenario without running it\n"
             "  scenarios  list the shipped scenarios (dcsim run NAME runs one)\n"
             "  report     print the summary stored in a trace\n"
             "  plot       draw figures of a trace, of several runs or of a sweep with gnuplot\n"
             "  sweep      Monte Carlo: a grid of variants x N replications with uncertain inputs\n"
             "  compare    summaries of several traces side by side, with relative differences\n"
             "  export     one dataset of a trace as CSV\n"
             "  mttf       time to failure against job size, 8 GPUs to the whole cluster\n"
             "  size       the smallest cluster that trains the job by a deadline, and three plans\n"
             "  keys       the reference of every scenario key (Markdown)\n"
             "  help CMD   the help of CMD\n"
             "\n"
             "Examples:\n"
             "  dcsim run scenarios/10k_gpu.cfg      the flagship: 10,240 GPUs training a 405B model\n"
             "  dcsim plot 10k_gpu.h5                its figures, into 10k_gpu_figures/\n"
             "  dcsim sweep 10k_gpu --reps 100 -o sweep.h5\n"
             "\n"
             "Exit status: 0 success, 2 bad input (scenario, command line, files, limits), 1 other failure,\n"
             "130/143 a run, sweep, size or figure interrupted by SIGINT/SIGTERM (docs/errors.md).\n",
};

/* GSL's default handler aborts; a simulator must report and go on (input is
 * validated before any GSL call, so this only catches our own mistakes). */
static void gsl_report(const char *reason, const char *file, int line, int gsl_errno)
{
    fprintf(stderr, "dcsim: GSL error %d in %s:%d: %s\n", gsl_errno, file, line, reason);
}

static const command *find(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int no_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    (void)ctx;
    (void)arg;
    return dc_error_set(err, DC_EINTERNAL, "option %d not handled", key);
}

int main(int argc, char **argv)
{
    dc_cli_heap_setup();
    gsl_set_error_handler(gsl_report);
    /* Past a file-size limit (ulimit -f) a write must fail with EFBIG and
     * be reported, not kill dcsim halfway through a trace. */
    signal(SIGXFSZ, SIG_IGN);
    /* HDF5 initialises itself on the first call, only when a trace is
     * read or written, and every such call turns its error printing off
     * around it (sim/trace.c, analysis/trace_read.c, analysis/sweep_write.c).
     * It is told here, before any call, not to tear itself down at exit
     * (H5dont_atexit, which does not initialise it): dcsim closes every file
     * it opens and writes its files through its own write(2)s
     * (sim/h5image.h), so the teardown only freed the library's memory,
     * 0.72 M instructions at the end of a run with a trace (callgrind). */
    dc_h5image_no_teardown();
    atexit(dc_cli_close_stdout);
    /* A buffer larger than any summary or table a command prints: stdio then
     * writes it at the closeout, whose fclose sees the write's errno (a write
     * that fails earlier leaves only "write error"; dcsim keys outgrew 4 KiB
     * blocks on a full disk). */
    static char stdout_buffer[1 << 20]; /* (glibc ignores a size without a buffer) */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    if (argc < 2) {
        dc_cli_print_usage(&dcsim_cmd, stderr);
        fputs("Try 'dcsim --help' for more information; 'dcsim run' runs the flagship scenario.\n", stderr);
        return DC_EXIT_INPUT;
    }
    const char *name = argv[1];
    if (name[0] == '-') {
        /* dcsim's own options: --help, --usage, --version (anything else is an error). */
        int first = 0;
        int pr = dc_cli_parse(&dcsim_cmd, 2, argv, no_opt, NULL, false, &first);
        return pr == DC_CLI_RUN ? dc_cli_usage_error(&dcsim_cmd, "which command?") : pr;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "version") == 0) {
        if (strcmp(name, "version") == 0 || argc < 3) {
            if (strcmp(name, "version") == 0)
                dc_cli_print_version(stdout);
            else
                dc_cli_print_help(&dcsim_cmd, stdout);
            return DC_EXIT_OK;
        }
        const command *c = find(argv[2]);
        if (!c)
            return dc_cli_usage_error(&dcsim_cmd, "unknown command '%s'", argv[2]);
        char *help_argv[] = {argv[2], "--help", NULL};
        return c->run(2, help_argv);
    }
    const command *c = find(name);
    if (!c)
        return dc_cli_usage_error(&dcsim_cmd, "unknown command '%s'", name);
    return c->run(argc - 1, argv + 1);
}
