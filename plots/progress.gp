# plots/progress.gp - job progress: `dcsim plot TRACE.h5 --kind progress`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shows the share of the job's work done against time (top): it grows while
# the job computes, stays flat while it checkpoints, restarts or waits, and
# falls back to the last checkpoint at each interruption; the dashed line is
# the same job with no failure and no checkpoint.  Below, how far the job is
# behind that failure-free schedule: (t - t0) - done x ideal, which grows
# during every checkpoint, restart and wait and jumps at every rollback (red).
#
# Data (comma-separated):
#   progress.csv   time_s, done_pct (including work not yet checkpointed)
#   rollbacks.csv  time_s, peak_pct, after_pct, lost_gpu_h
#   from /series/job_progress, with the work lost of each /events interrupt
# Variables: t0_s (start of the job), ideal_s (its length with no failure and
# no checkpoint), done_s (when it finished; NaN if it did not), nrollbacks,
# lost_gpu_h, ettr, done_pct.

finished = done_s == done_s
# Time behind the failure-free schedule at time t (s) with p% done.
lag(t, p) = (t - t0_s - p / 100 * ideal_s) / tscale

set multiplot title sprintf("Job progress — %s (seed %d): %s", scenario, seed, \
                  finished ? sprintf('done in %.3g %s against %.3g with no failure (ETTR %.1f%%)', \
                                     (done_s - t0_s) / tscale, tunit, ideal_s / tscale, 100 * ettr) \
                           : sprintf('%.1f%% done at the end of the run (ETTR %.1f%%)', done_pct, 100 * ettr)) \
              font ',12' textcolor rgb c_ink
set lmargin 10
set rmargin 3
set xrange [0:tend]
set grid xtics ytics
set key top left
if (finished) {
    set arrow 1 from done_s / tscale, graph 0 to done_s / tscale, graph 1 nohead dt 3 lc rgb c_ink
}

# Top: the work done.
set origin 0, 0.40
set size 1, 0.53
set bmargin 1
set format x ''
set ylabel 'work done (%)'
set yrange [0:105]
plot '+' using (t0_s / tscale):(0):((ideal_s) / tscale):(100) every ::0::0 with vectors nohead dt 2 lw 1.5 \
        lc rgb c_grey title 'no failure, no checkpoint', \
     datadir.'progress.csv' using ($1 / tscale):2 with lines lw lw lc rgb c_blue title 'work done'

# Bottom: how far behind the failure-free schedule; a rollback is a jump.
set origin 0, 0
set size 1, 0.42
set tmargin 1
set bmargin 3.5
set format x '%g'
set xlabel sprintf('time (%s)', tunit)
set ylabel sprintf('behind schedule (%s)', tunit)
set yrange [0:*]
set key top left
plot datadir.'progress.csv' using ($1 / tscale):(lag($1, $2)) with lines lw lw lc rgb c_ink \
        title 'time lost to restarts, checkpoints, waits and rollbacks', \
     datadir.'rollbacks.csv' using ($1 / tscale):(lag($1, $2)):(0):(lag($1, $3) - lag($1, $2)) \
        with vectors nohead lw 3 lc rgb c_red \
        title sprintf('rollbacks: %d, %s GPU-h of work lost', nrollbacks, kfmt(lost_gpu_h))
unset multiplot
