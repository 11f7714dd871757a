/* How dcsim sweep spreads rows over MPI ranks.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* How dcsim sweep spreads rows over MPI ranks.
 *
 * Built with --with-mpi and started by an MPI launcher (mpirun sets
 * OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_SIZE), dcsim sweep runs dcsim-mpi
 * (the same program linked with libmpi, installed beside dcsim) in its
 * place with the same arguments, and that calls MPI_Init; otherwise it
 * never touches MPI, so a plain `dcsim sweep` (and every other command)
 * neither loads libmpi nor starts an MPI runtime.  Rank k runs the rows i with i mod K = k
 * (interleaved, so that a grid whose points differ in cost is still shared
 * evenly) on its own threads; rank 0 gathers every row (as exact text, see
 * dc_sweep_row_pack), computes the statistics, prints and writes the one
 * output file.  The rows are the same whoever computes them, so the numbers
 * equal a serial run's.  A dcsim built without MPI refuses to run under a
 * launcher with more than one rank (each would run the whole sweep). */
#ifndef DC_SWEEP_PAR_H
#define DC_SWEEP_PAR_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "sweep.h"

typedef struct dc_par {
    bool mpi;  /* MPI_Init was called */
    int rank, size;
} dc_par;

/* Joins the MPI job when there is one. */
int dc_par_init(int *argc, char ***argv, dc_par *p, dc_error *err);
void dc_par_finish(dc_par *p);
/* The largest status of all ranks (every rank calls it): a failure on one
 * rank stops all of them at the same point. */
int dc_par_agree(const dc_par *p, int status);
/* Brings the rows each rank ran to rank 0, and the warnings its runs found
 * (added to rank 0's first worker's first grid point: see
 * dc_sweep_worker_scenario).  rc and run_err: this rank's outcome; rank 0
 * returns the first failure of any rank (in rank order). */
int dc_par_gather(const dc_par *p, dc_sweep *sw, const size_t *rows, size_t n, int rc, const dc_error *run_err,
                  dc_error *err);

#endif
