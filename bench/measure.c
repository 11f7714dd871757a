/* measure: runs a command N times (or two in turn) and prints the median wall time and peak memory (make bench).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* measure [--reps N] -- CMD ARGS...
 * measure [--reps N] -- CMD ARGS... -- REF ARGS...
 *
 * Runs CMD N times (default 5), one after the other, and prints on stdout
 *   wall_ms_median=12.3 cpu_ms_median=11.0 peak_rss_kb=4567
 * the median wall-clock time of a run (CLOCK_MONOTONIC, from fork to the end
 * of wait), the median CPU time (user + system, from wait4: steadier on a
 * loaded machine) and the largest peak resident set size of any run
 * (ru_maxrss of each child).  With a second command REF, the two run in turn
 * (REF, CMD, REF, CMD, ...: interleaved, so that a change of the machine's
 * load hits both alike) and the line adds REF's figures and the median of
 * the N ratios CMD / REF of consecutive runs:
 *   ... ref_wall_ms_median=4.1 ref_cpu_ms_median=3.9 ref_peak_rss_kb=2100
 *   ratio_median=3.00 cpu_ratio_median=2.90
 * (a CPU ratio of 0 when REF's CPU time rounds to 0).
 * CMD's own output goes where measure's goes.
 * If a run fails, prints how and exits with its status (128 + signal number
 * if it was killed); 127 if CMD cannot be executed; 2 on a usage error. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* wait4 */
#endif

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPS 10000

static void usage(void)
{
    fprintf(stderr, "usage: measure [--reps N] -- CMD [ARGS...]\n");
    exit(2);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Runs cmd once: its wall time (ms) in *ms and peak RSS in *kb; 0, or the
 * exit status measure should give. */
static int run_once(char **cmd, long r, long reps, double *ms, double *cpu_ms, long *kb)
{
    fflush(NULL);
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "measure: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execvp(cmd[0], cmd);
        fprintf(stderr, "measure: cannot run %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    pid_t got;
    while ((got = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
        ;
    double t1 = now_ms();
    if (got < 0) {
        fprintf(stderr, "measure: wait4: %s\n", strerror(errno));
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fprintf(stderr, "measure: %s failed (run %ld of %ld): exit status %d\n", cmd[0], r + 1, reps,
                WEXITSTATUS(status));
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "measure: %s failed (run %ld of %ld): killed by signal %d (%s)\n", cmd[0], r + 1, reps,
                WTERMSIG(status), strsignal(WTERMSIG(status)));
        return 128 + WTERMSIG(status);
    }
    *ms = t1 - t0;
    *cpu_ms = 1e3 * ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) +
              1e-3 * ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec);
    if (ru.ru_maxrss > *kb)
        *kb = ru.ru_maxrss; /* kilobytes on Linux */
    return 0;
}

static double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    long reps = 5;
    int i = 1;
    while (i < argc && strcmp(argv[i], "--") != 0) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            reps = strtol(argv[i + 1], &end, 10);
            if (errno || *end || end == argv[i + 1] || reps < 1 || reps > MAX_REPS) {
                fprintf(stderr, "measure: --reps wants an integer from 1 to %d\n", MAX_REPS);
                return 2;
            }
            i += 2;
        } else {
            usage();
        }
    }
    if (i >= argc - 1) /* no "--", or nothing after it */
        usage();
    char **cmd = argv + i + 1, **ref = NULL;
    for (int k = i + 1; k < argc; k++)
        if (strcmp(argv[k], "--") == 0) {
            argv[k] = NULL; /* ends CMD */
            ref = argv + k + 1;
            if (!ref[0])
                usage();
            break;
        }

    double *wall = malloc((size_t)reps * 6 * sizeof *wall);
    if (!wall) {
        fprintf(stderr, "measure: out of memory\n");
        return 1;
    }
    double *ref_wall = wall + reps, *ratio = wall + 2 * reps;
    double *cpu = wall + 3 * reps, *ref_cpu = wall + 4 * reps, *cpu_ratio = wall + 5 * reps;
    long peak_kb = 0, ref_kb = 0;
    for (long r = 0; r < reps; r++) {
        int rc = ref ? run_once(ref, r, reps, &ref_wall[r], &ref_cpu[r], &ref_kb) : 0;
        if (rc == 0)
            rc = run_once(cmd, r, reps, &wall[r], &cpu[r], &peak_kb);
        if (rc != 0) {
            free(wall);
            return rc;
        }
        if (ref) {
            ratio[r] = wall[r] / ref_wall[r];
            cpu_ratio[r] = ref_cpu[r] > 0 ? cpu[r] / ref_cpu[r] : 0.0;
        }
    }
    printf("wall_ms_median=%.1f cpu_ms_median=%.1f peak_rss_kb=%ld", median(wall, reps), median(cpu, reps), peak_kb);
    if (ref)
        printf(" ref_wall_ms_median=%.1f ref_cpu_ms_median=%.1f ref_peak_rss_kb=%ld ratio_median=%.2f"
               " cpu_ratio_median=%.2f",
               median(ref_wall, reps), median(ref_cpu, reps), ref_kb, median(ratio, reps), median(cpu_ratio, reps));
    printf("\n");
    free(wall);
    return 0;
}
