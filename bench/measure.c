/* measure: runs a command N times and prints its median wall time and peak memory (make bench).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* measure [--reps N] -- CMD ARGS...
 *
 * Runs CMD N times (default 5), one after the other, and prints on stdout
 *   wall_ms_median=12.3 peak_rss_kb=4567
 * the median wall-clock time of a run (CLOCK_MONOTONIC, from fork to the end
 * of wait) and the largest peak resident set size of any run (ru_maxrss of
 * each child, from wait4).  CMD's own output goes where measure's goes.
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
    char **cmd = argv + i + 1;

    double *wall = malloc((size_t)reps * sizeof *wall);
    if (!wall) {
        fprintf(stderr, "measure: out of memory\n");
        return 1;
    }
    long peak_kb = 0;
    for (long r = 0; r < reps; r++) {
        fflush(NULL);
        double t0 = now_ms();
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "measure: fork: %s\n", strerror(errno));
            free(wall);
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
            free(wall);
            return 1;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
            fprintf(stderr, "measure: %s failed (run %ld of %ld): exit status %d\n", cmd[0],
                    r + 1, reps, WEXITSTATUS(status));
            free(wall);
            return WEXITSTATUS(status);
        }
        if (WIFSIGNALED(status)) {
            fprintf(stderr, "measure: %s failed (run %ld of %ld): killed by signal %d (%s)\n",
                    cmd[0], r + 1, reps, WTERMSIG(status), strsignal(WTERMSIG(status)));
            free(wall);
            return 128 + WTERMSIG(status);
        }
        wall[r] = t1 - t0;
        if (ru.ru_maxrss > peak_kb)
            peak_kb = ru.ru_maxrss; /* kilobytes on Linux */
    }
    qsort(wall, (size_t)reps, sizeof *wall, cmp_double);
    double median = reps % 2 ? wall[reps / 2] : (wall[reps / 2 - 1] + wall[reps / 2]) / 2;
    printf("wall_ms_median=%.1f peak_rss_kb=%ld\n", median, peak_kb);
    free(wall);
    return 0;
}
