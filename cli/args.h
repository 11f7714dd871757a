/* The one command-line parser of every dcsim command: getopt_long from a table, with --help, --usage, --version.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Every subcommand describes its options in a table (dc_cli_opt) and its
 * usage and purpose in a dc_cli_cmd; dc_cli_parse runs getopt_long over
 * them (GNU conventions: options and operands in any order, "--" ends the
 * options, --name=value or --name value, -o value or -ovalue) and handles
 * what every command shares:
 *   -h, --help     the usage, the description, the options and their help;
 *   --usage        the one-paragraph synopsis of every option;
 *   -V, --version  the GNU version text (name, version, copyright, licence,
 *                  no warranty);
 *   an unknown option or a missing value: "dcsim CMD: unknown option 'X'"
 *   or "dcsim CMD: option X needs a value", the usage line and "Try 'dcsim
 *   CMD --help' for more information." on stderr, exit status 2.
 * The command's callback gets each of its own options in order; an error
 * it returns is printed as "dcsim: MESSAGE" (status 2 for DC_EINPUT and
 * DC_EIO, else 1). */
#ifndef DC_CLI_ARGS_H
#define DC_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Option flags. */
enum { DC_CLI_REPEAT = 1 /* may be given several times: "...]..." in the synopsis */ };

typedef struct dc_cli_opt {
    const char *name; /* long name without "--" */
    int key;          /* the short option's character, or a code from 256 up for long-only options */
    const char *arg;  /* the value's name in the help ("FILE"), NULL for a flag */
    int flags;
    const char *doc; /* one line (wrapped by the help) */
} dc_cli_opt;

typedef struct dc_cli_cmd {
    const char *name;     /* "run"; NULL for dcsim itself */
    const char *operands; /* the synopsis after the options: "[FILE|NAME]" */
    const char *doc;      /* what the command does: paragraphs, each line ending in \n */
    const dc_cli_opt *opts; /* ended by {0} */
    const char *after;    /* printed after the options (examples, environment); may be NULL */
} dc_cli_cmd;

/* Called for each of the command's own options, in order; arg is NULL for a flag. */
typedef int (*dc_cli_opt_fn)(void *ctx, int key, const char *arg, dc_error *err);

/* What dc_cli_parse says to do next. */
enum { DC_CLI_RUN = -1 };

/* Parses argv[1..argc) (argv[0] is the command's name).  Returns
 * DC_CLI_RUN with *first the index of the first operand (getopt_long moves
 * them to the end), or an exit status: 0 after --help, --usage or
 * --version, 2 (or 1) after an error, which it has printed.  quiet: print
 * nothing (the MPI ranks other than 0). */
int dc_cli_parse(const dc_cli_cmd *cmd, int argc, char **argv, dc_cli_opt_fn fn, void *ctx, bool quiet,
                 int *first);

/* A repeated option's value appended to its list: "OPT: at most MAX WHAT"
 * (DC_EINPUT) once the list holds max values. */
int dc_cli_push(const char **list, size_t *n, size_t max, const char *arg, const char *opt, const char *what,
                dc_error *err);

/* The texts, for dcsim itself and for tests. */
void dc_cli_print_help(const dc_cli_cmd *cmd, FILE *out);
void dc_cli_print_usage(const dc_cli_cmd *cmd, FILE *out);
void dc_cli_print_version(FILE *out);
/* "dcsim CMD: MESSAGE", the synopsis and the pointer to --help, on stderr;
 * returns 2.  For operand errors found after parsing. */
int dc_cli_usage_error(const dc_cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
