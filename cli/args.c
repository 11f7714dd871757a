/* The one command-line parser of every dcsim command: getopt_long from a table, with --help, --usage, --version.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "args.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"

#define MAX_OPTS 64
#define WIDTH 79

enum { KEY_HELP = 'h', KEY_VERSION = 'V', KEY_USAGE = 0x7fff0001 };

static const dc_cli_opt common_opts[] = {
    {"help", KEY_HELP, NULL, 0, "give this help and exit"},
    {"usage", KEY_USAGE, NULL, 0, "give a short usage message and exit"},
    {"version", KEY_VERSION, NULL, 0, "print the version and exit"},
    {0},
};

static void print_prog(const dc_cli_cmd *cmd, FILE *out)
{
    fputs("dcsim", out);
    if (cmd->name)
        fprintf(out, " %s", cmd->name);
}

/* Each line of cmd->operands is one form of the command. */
static void print_synopsis(const dc_cli_cmd *cmd, FILE *out)
{
    const char *p = cmd->operands ? cmd->operands : "";
    bool first = true;
    do {
        size_t len = strcspn(p, "\n");
        fputs(first ? "Usage: " : "  or:  ", out);
        print_prog(cmd, out);
        fprintf(out, " [OPTION]...%s%.*s\n", len ? " " : "", (int)len, p);
        first = false;
        p += len;
        if (*p == '\n')
            p++;
    } while (*p);
}

static void print_try(const dc_cli_cmd *cmd, FILE *out)
{
    fputs("Try '", out);
    print_prog(cmd, out);
    fputs(" --help' for more information.\n", out);
}

/* "  -o, --output=FILE" */
static int opt_label(const dc_cli_opt *o, char *buf, size_t size)
{
    bool has_short = o->key > 0 && o->key < 256;
    return snprintf(buf, size, "  %c%c%s--%s%s%s", has_short ? '-' : ' ', has_short ? o->key : ' ',
                    has_short ? ", " : "  ", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
}

/* Writes text wrapped at WIDTH, continuation lines indented by indent. */
static void print_wrapped(const char *text, int col, int indent, FILE *out)
{
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (col > indent && col + 1 + (int)word > WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)word, p);
        col += (int)word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

static void print_opts(const dc_cli_opt *opts, int width, FILE *out)
{
    char label[128];
    for (const dc_cli_opt *o = opts; o->name; o++) {
        int len = opt_label(o, label, sizeof label);
        fputs(label, out);
        if (len + 2 > width) {
            fprintf(out, "\n%*s", width, "");
        } else {
            fprintf(out, "%*s", width - len, "");
        }
        print_wrapped(o->doc, width, width, out);
    }
}

static int label_width(const dc_cli_opt *opts, int width)
{
    char label[128];
    for (const dc_cli_opt *o = opts; o && o->name; o++) {
        int len = opt_label(o, label, sizeof label) + 2;
        if (len > width && len <= 32)
            width = len;
    }
    return width;
}

void dc_cli_print_help(const dc_cli_cmd *cmd, FILE *out)
{
    print_synopsis(cmd, out);
    if (cmd->doc)
        fprintf(out, "%s", cmd->doc);
    int width = label_width(common_opts, label_width(cmd->opts, 24));
    if (cmd->opts && cmd->opts[0].name) {
        fputs("\nOptions:\n", out);
        print_opts(cmd->opts, width, out);
    }
    fputs(cmd->opts && cmd->opts[0].name ? "\n" : "\nOptions:\n", out);
    print_opts(common_opts, width, out);
    if (cmd->after)
        fprintf(out, "\n%s", cmd->after);
    fputs("\nMandatory or optional values of long options are also those of their short forms.\n", out);
    fprintf(out, "Report bugs to: %s\n", PACKAGE_BUGREPORT);
}

void dc_cli_print_usage(const dc_cli_cmd *cmd, FILE *out)
{
    char item[160];
    int col = fprintf(out, "Usage: dcsim%s%s", cmd->name ? " " : "", cmd->name ? cmd->name : "");
    const int indent = col > 20 ? 12 : col;
    const dc_cli_opt *tables[2] = {cmd->opts, common_opts};
    for (int t = 0; t < 2; t++)
        for (const dc_cli_opt *o = tables[t]; o && o->name; o++) {
            bool has_short = o->key > 0 && o->key < 256;
            int len;
            if (has_short && o->arg)
                len = snprintf(item, sizeof item, "[-%c %s|--%s=%s]%s", o->key, o->arg, o->name, o->arg,
                               o->flags & DC_CLI_REPEAT ? "..." : "");
            else if (has_short)
                len = snprintf(item, sizeof item, "[-%c|--%s]", o->key, o->name);
            else
                len = snprintf(item, sizeof item, "[--%s%s%s]%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "",
                               o->flags & DC_CLI_REPEAT ? "..." : "");
            if (col + 1 + len > WIDTH) {
                fprintf(out, "\n%*s", indent, "");
                col = indent;
            }
            col += fprintf(out, " %s", item);
        }
    const char *p = cmd->operands ? cmd->operands : "";
    size_t len = strcspn(p, "\n");
    if (len) {
        if (col + 1 + (int)len > WIDTH)
            fprintf(out, "\n%*s", indent, "");
        fprintf(out, " %.*s", (int)len, p);
    }
    fputc('\n', out);
}

void dc_cli_print_version(FILE *out)
{
    fprintf(out,
            "dcsim %s\n"
            "Copyright (C) 2026 the dcsim developers.\n"
            "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
            "This is free software: you are free to change and redistribute it.\n"
            "There is NO WARRANTY, to the extent permitted by law.\n",
            PACKAGE_VERSION);
}

int dc_cli_usage_error(const dc_cli_cmd *cmd, const char *fmt, ...)
{
    print_prog(cmd, stderr);
    fputs(": ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    print_synopsis(cmd, stderr);
    print_try(cmd, stderr);
    return DC_EXIT_INPUT;
}

int dc_cli_parse(const dc_cli_cmd *cmd, int argc, char **argv, dc_cli_opt_fn fn, void *ctx, bool quiet,
                 int *first)
{
    struct option longopts[MAX_OPTS + 4];
    char shortopts[3 * MAX_OPTS + 8];
    size_t n = 0, s = 0;
    shortopts[s++] = ':'; /* a missing value returns ':' */
    const dc_cli_opt *tables[2] = {cmd->opts, common_opts};
    for (int t = 0; t < 2; t++)
        for (const dc_cli_opt *o = tables[t]; o && o->name && n < MAX_OPTS; o++) {
            longopts[n++] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, o->key};
            if (o->key > 0 && o->key < 256) {
                shortopts[s++] = (char)o->key;
                if (o->arg)
                    shortopts[s++] = ':';
            }
        }
    longopts[n] = (struct option){0};
    shortopts[s] = '\0';

    optind = 0; /* glibc: start over (a process may parse twice: the tests, dcsim help CMD) */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case KEY_HELP:
            if (!quiet)
                dc_cli_print_help(cmd, stdout);
            return DC_EXIT_OK;
        case KEY_USAGE:
            if (!quiet)
                dc_cli_print_usage(cmd, stdout);
            return DC_EXIT_OK;
        case KEY_VERSION:
            if (!quiet)
                dc_cli_print_version(stdout);
            return DC_EXIT_OK;
        case ':':
        case '?': {
            if (quiet)
                return DC_EXIT_INPUT;
            /* optopt holds a bad short option; else argv[optind - 1] is the word. */
            char word[64];
            if (optopt && optopt < 256 && (c == '?' || strncmp(argv[optind - 1], "--", 2) != 0))
                snprintf(word, sizeof word, "-%c", optopt);
            else
                snprintf(word, sizeof word, "%.*s", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
            return c == ':' ? dc_cli_usage_error(cmd, "option %s needs a value", word)
                            : dc_cli_usage_error(cmd, "unknown option '%s'", word);
        }
        default: {
            dc_error err = {0};
            if (fn(ctx, c, optarg, &err) != DC_OK)
                return quiet ? (err.code == DC_EINPUT || err.code == DC_EIO ? DC_EXIT_INPUT : DC_EXIT_FAILURE)
                             : dc_cli_fail(&err);
        }
        }
    }
    *first = optind;
    return DC_CLI_RUN;
}

int dc_cli_push(const char **list, size_t *n, size_t max, const char *arg, const char *opt, const char *what,
                dc_error *err)
{
    if (*n == max)
        return dc_error_set(err, DC_EINPUT, "%s: at most %zu %s", opt, max, what);
    list[(*n)++] = arg;
    return DC_OK;
}
