/* How dcsim sweep spreads rows over MPI ranks and gathers them in order.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "sweep_par.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

/* DC_MPI_PROGRAM: this is dcsim-mpi (Makefile.am), the one program that
 * links libmpi; HAVE_MPI alone: a dcsim configured --with-mpi, which
 * hands a sweep under a launcher to the dcsim-mpi beside it. */
#ifdef DC_MPI_PROGRAM
#include <mpi.h>
#elif defined(HAVE_MPI)
#include <errno.h>
#include <unistd.h>
#endif

/* The world size an MPI launcher announced, 0 when there is none. */
static int launcher_size(int *rank)
{
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", NULL};
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL};
    *rank = 0;
    for (size_t i = 0; rank_vars[i]; i++)
        if (getenv(rank_vars[i])) {
            *rank = atoi(getenv(rank_vars[i]));
            break;
        }
    for (size_t i = 0; size_vars[i]; i++)
        if (getenv(size_vars[i]))
            return atoi(getenv(size_vars[i]));
    /* PMIx launchers may set only the rank */
    return getenv("PMIX_RANK") ? 1 : 0;
}

#if defined(HAVE_MPI) && !defined(DC_MPI_PROGRAM)
/* Runs dcsim-mpi, the dcsim beside this one's executable that links
 * libmpi, as `dcsim-mpi sweep ARGS...` in this process: a dcsim that
 * linked libmpi paid its loading (2 M instructions) at every start of
 * every command.  Returns only on failure. */
static int exec_mpi_program(int argc, char **argv, int rank, dc_par *p, dc_error *err)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
    if (n <= 0)
        return dc_error_set(err, DC_EINTERNAL, "cannot find this program's directory (/proc/self/exe): %s",
                            n < 0 ? strerror(errno) : "empty");
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    snprintf(slash ? slash + 1 : exe, sizeof exe - (size_t)(slash ? slash + 1 - exe : 0), "dcsim-mpi");
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    args[0] = (char *)"dcsim";
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    fflush(NULL);
    execv(exe, args);
    int e = errno;
    free(args);
    p->rank = rank;
    return dc_error_set(err, DC_EINTERNAL, "cannot run %s for the MPI sweep: %s", exe, strerror(e));
}
#endif

int dc_par_init(int *argc, char ***argv, dc_par *p, dc_error *err)
{
    p->mpi = false;
    p->rank = 0;
    p->size = 1;
    int rank, size = launcher_size(&rank);
#if defined(HAVE_MPI) && !defined(DC_MPI_PROGRAM)
    if (size > 0)
        return exec_mpi_program(*argc, *argv, rank, p, err);
    return DC_OK;
#elif defined(DC_MPI_PROGRAM)
    if (size > 0) {
        if (MPI_Init(argc, argv) != MPI_SUCCESS)
            return dc_error_set(err, DC_EINTERNAL, "MPI_Init failed");
        p->mpi = true;
        MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
        MPI_Comm_size(MPI_COMM_WORLD, &p->size);
    }
    return DC_OK;
#else
    (void)argc;
    (void)argv;
    if (size > 1) {
        p->rank = rank;
        return dc_error_set(err, DC_EINPUT,
                            "this dcsim was built without MPI, so each of the %d ranks would run the whole sweep: "
                            "run it without mpirun (it uses every core), or rebuild with ./configure --with-mpi",
                            size);
    }
    return DC_OK;
#endif
}

void dc_par_finish(dc_par *p)
{
#ifdef DC_MPI_PROGRAM
    if (p->mpi)
        MPI_Finalize();
#endif
    p->mpi = false;
}

int dc_par_agree(const dc_par *p, int status)
{
#ifdef DC_MPI_PROGRAM
    if (p->mpi && p->size > 1) {
        int all = status;
        MPI_Allreduce(&status, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        return all;
    }
#else
    (void)p;
#endif
    return status;
}

#ifdef DC_MPI_PROGRAM
/* A growing text (pack_all's). */
typedef struct packbuf {
    char *buf;
    size_t used, cap;
} packbuf;

/* Appends head and then len bytes of body; false when out of memory. */
static bool pack_record(packbuf *b, const char *head, size_t head_len, const char *body, size_t len)
{
    if (b->used + head_len + len + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 65536;
        while (c < b->used + head_len + len + 1)
            c *= 2;
        char *nb = realloc(b->buf, c);
        if (!nb)
            return false;
        b->buf = nb;
        b->cap = c;
    }
    memcpy(b->buf + b->used, head, head_len);
    b->used += head_len;
    memcpy(b->buf + b->used, body, len);
    b->used += len;
    return true;
}

/* This rank's rows, or its error, as one text: "#ROW LEN\n" + packed row per
 * row, or "!CODE\n" + message; then the warnings this rank's runs found,
 * "@LEN\n" + text each (rank 0 keeps each text once, so repeats across
 * workers and points cost nothing but bytes). */
static int pack_all(dc_sweep *sw, const size_t *rows, size_t n, int rc, const dc_error *run_err, char **out,
                    size_t *len)
{
    packbuf b = {0};
    char head[64];
    *out = NULL;
    *len = 0;
    if (rc != DC_OK) {
        const char *msg = run_err ? run_err->msg : "";
        int h = snprintf(head, sizeof head, "!%d\n", rc);
        if (!pack_record(&b, head, (size_t)h, msg, strlen(msg)))
            return DC_ENOMEM;
        *out = b.buf;
        *len = b.used;
        return DC_OK;
    }
    char *row = NULL;
    size_t row_cap = 0;
    for (size_t i = 0; i < n; i++) {
        if (!dc_sweep_row_done(sw, rows[i]))
            continue; /* interrupted before it ran: NaN in the partial table */
        size_t row_len = 0;
        if (row)
            row[0] = '\0';
        bool packed = dc_sweep_row_pack(sw, rows[i], &row, &row_len, &row_cap) == DC_OK;
        if (packed) {
            int h = snprintf(head, sizeof head, "#%zu %zu\n", rows[i], row_len);
            packed = pack_record(&b, head, (size_t)h, row, row_len);
        }
        if (!packed) {
            free(row);
            free(b.buf);
            return DC_ENOMEM;
        }
    }
    free(row);
    for (size_t w = 0; w < dc_sweep_workers(sw); w++)
        for (size_t g = 0; g < dc_sweep_points(sw); g++) {
            const dc_scenario *sc = dc_sweep_worker_scenario(sw, w, g);
            for (size_t i = 0; i < dc_scenario_warning_count(sc); i++) {
                const char *t = dc_scenario_warning(sc, i);
                int h = snprintf(head, sizeof head, "@%zu\n", strlen(t));
                if (!pack_record(&b, head, (size_t)h, t, strlen(t))) {
                    free(b.buf);
                    return DC_ENOMEM;
                }
            }
        }
    *out = b.buf;
    *len = b.used;
    return DC_OK;
}

static int unpack_all(dc_sweep *sw, const char *text, size_t len, int from, dc_error *err)
{
    const char *p = text, *end = text + len;
    if (len > 0 && *p == '!') {
        int code = atoi(p + 1);
        const char *nl = memchr(p, '\n', len);
        const char *msg = nl ? nl + 1 : "";
        dc_error_set(err, code ? code : DC_EINTERNAL, "%.*s", (int)(end - msg), msg);
        return err ? err->code : DC_EINTERNAL;
    }
    while (p < end) {
        size_t row = 0, n = 0;
        char *after;
        if (*p == '@') { /* a warning of rank from's runs: kept with rank 0's, each text once */
            n = strtoull(p + 1, &after, 10);
            if (*after != '\n' || after + 1 + n > end)
                return dc_error_set(err, DC_EINTERNAL, "malformed warnings from rank %d", from);
            char *copy = malloc(n + 1);
            if (!copy)
                return dc_error_set(err, DC_ENOMEM, "out of memory");
            memcpy(copy, after + 1, n);
            copy[n] = '\0';
            dc_scenario_warn_text(dc_sweep_worker_scenario(sw, 0, 0), copy);
            free(copy);
            p = after + 1 + n;
            continue;
        }
        if (*p != '#')
            return dc_error_set(err, DC_EINTERNAL, "malformed rows from rank %d", from);
        row = strtoull(p + 1, &after, 10);
        n = strtoull(after, &after, 10);
        if (*after != '\n' || after + 1 + n > end)
            return dc_error_set(err, DC_EINTERNAL, "malformed rows from rank %d", from);
        int rc = dc_sweep_row_unpack(sw, row, after + 1, n, err);
        if (rc != DC_OK)
            return rc;
        p = after + 1 + n;
    }
    return DC_OK;
}
#endif

int dc_par_gather(const dc_par *p, dc_sweep *sw, const size_t *rows, size_t n, int rc, const dc_error *run_err,
                  dc_error *err)
{
#ifdef DC_MPI_PROGRAM
    if (p->mpi && p->size > 1) {
        char *buf = NULL;
        size_t len = 0;
        int prc = pack_all(sw, rows, n, rc, run_err, &buf, &len);
        int mine = prc == DC_OK && len <= INT_MAX ? (int)len : -1;
        int *lens = NULL, *displs = NULL;
        char *all = NULL;
        int status = DC_OK;
        if (p->rank == 0) {
            lens = calloc((size_t)p->size, sizeof *lens);
            displs = calloc((size_t)p->size, sizeof *displs);
        }
        int send = mine < 0 ? 0 : mine;
        MPI_Gather(&send, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
        int bad = mine < 0;
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        long long total = 0;
        if (p->rank == 0) {
            for (int r = 0; lens && displs && r < p->size; r++) {
                displs[r] = (int)total;
                total += lens[r];
            }
            if (!lens || !displs || total > INT_MAX || !(all = malloc((size_t)total + 1)))
                bad = 1;
        }
        MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (bad) {
            status = dc_error_set(err, DC_ENOMEM, "the rows are too large to gather (%lld bytes) or out of memory",
                                  total);
        } else {
            MPI_Gatherv(buf, send, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
            for (int r = 0; p->rank == 0 && r < p->size && status == DC_OK; r++)
                status = unpack_all(sw, all + displs[r], (size_t)lens[r], r, err);
            if (p->rank != 0 && rc != DC_OK) {
                status = rc;
                if (err && run_err)
                    *err = *run_err;
            }
        }
        free(buf);
        free(all);
        free(lens);
        free(displs);
        return status;
    }
#else
    (void)p;
    (void)sw;
    (void)rows;
    (void)n;
#endif
    if (rc != DC_OK && err && run_err)
        *err = *run_err;
    return rc;
}
