# plots/scale.gp - ETTR and time-to-train against the job's size:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot --kind scale --scan FILE.cfg --vary job.nodes=V1,V2,... [--vary cluster.nodes=...] [--reps N]
#   dcsim plot --kind scale A.h5 B.h5 ...
#
# Shows, against the GPUs of the job, its effective training time ratio
# (left) and its time from submission to the end of the work (right), with
# the time the same work takes with no failure and no checkpoint (dashed):
# ten times the GPUs is not ten times the useful work.  Points are means of
# the replications with 95% confidence intervals; runs that did not finish
# within the horizon have no time-to-train.
#
# Data: scale.csv  gpus, ettr_mean, ettr_ci95, ettr_n, days_mean, days_ci95,
#       days_n, ideal_days_mean, ideal_ci95, ideal_n, interruptions_mean,
#       interruptions_ci95, interruptions_n
#       from /summary/job.gpus, job.ettr, job.completion_days, job.ideal_days,
#       job.interruptions
# Variables: npoints, xmin, xmax, xlog (1: a logarithmic GPU axis), reps,
# unfinished (runs that did not finish within the horizon).

set multiplot layout 1, 2 title sprintf("Scaling the job — %s (%.0f run%s per point, 95%% CI)", \
                                        scenario, reps, reps > 1 ? 's' : '') font ',12' textcolor rgb c_ink
if (xlog) { set logscale x 2 }
set xrange [xmin / (xlog ? 1.4 : 1) - (xlog ? 0 : (xmax - xmin) * 0.08 + 1):xmax * (xlog ? 1.4 : 1) + (xlog ? 0 : (xmax - xmin) * 0.08 + 1)]
set format x '%g'
set xlabel 'GPUs of the job'
set grid xtics ytics
set key bottom left

set ylabel 'effective training time ratio (%)'
set yrange [*:*]
plot datadir.'scale.csv' using 1:(100 * $2):(100 * $3) with yerrorlines pt 7 ps 1.1 lw 2 lc rgb c_blue \
    title 'simulated (mean, 95% CI)'

set ylabel 'time to train (days)'
set key top right
set logscale y 2
if (unfinished > 0) {
    set label 1 sprintf('%d run%s did not finish within the horizon: left out', unfinished, unfinished > 1 ? 's' : '') \
        at graph 0.02, graph 0.04 left tc rgb c_grey
}
plot datadir.'scale.csv' using 1:8 with linespoints dt 2 pt 6 lw 1.5 lc rgb c_grey title 'no failure, no checkpoint', \
     datadir.'scale.csv' using 1:5:6 with yerrorlines pt 7 ps 1.1 lw 2 lc rgb c_red title 'simulated (mean, 95% CI)', \
     datadir.'scale.csv' using 1:5:(sprintf('  +%.1f%%', 100 * ($5 / $8 - 1))) with labels left tc rgb c_red notitle
unset multiplot
