# plots/scaling.gp - ten times the GPUs is not ten times the useful work:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot --kind scaling --scan FILE.cfg --vary job.nodes=V1,V2,... --vary cluster.nodes=... [--reps N]
#   dcsim plot --kind scaling A.h5 B.h5 ...
#
# Left: the useful work each GPU delivers, in % of what it computes at the
# kernel efficiency (job.mfu), against the GPUs of the job.  The step-time
# model takes the pipeline bubble and exposed communication (down to
# step.scaling_efficiency); failures, restarts, checkpoints and rollbacks
# take the rest (down to job.ettr = step.ettr_time x scaling efficiency,
# the goodput).  Right: the time to train against GPUs, with the time
# perfect scaling from the smallest size would give (dashed); the label
# says how much faster the largest size is for how many more GPUs.  Points
# are means of the replications with 95% confidence intervals.
#
# Data: scaling.csv  gpus, then mean and 95% half-width of: scaling
#       efficiency (%), goodput = job.ettr (%), step.ettr_time (%),
#       job.completion_days, step.tokens_per_s
# Variables: npoints, xmin, xmax, xlog (1: a logarithmic GPU axis), reps.

set multiplot layout 1, 2 title sprintf("Scaling with the step-time model — %s (%.0f run%s per point, 95%% CI)", \
                                        scenario, reps, reps > 1 ? 's' : '') font ',12' textcolor rgb c_ink
if (xlog) { set logscale x 2 }
set xrange [xmin / (xlog ? 1.3 : 1) - (xlog ? 0 : (xmax - xmin) * 0.06 + 1):xmax * (xlog ? 1.3 : 1) + (xlog ? 0 : (xmax - xmin) * 0.06 + 1)]
set format x '%g'
set xlabel 'GPUs of the job'
set grid xtics ytics

set title 'useful work per GPU'
set ylabel 'useful work per GPU (% of its compute at kernel efficiency)'
set yrange [0:112]
set ytics 0, 20, 100
set key bottom left opaque
set style fill transparent solid 0.35 noborder
plot datadir.'scaling.csv' using 1:2:(100) with filledcurves lc rgb c_orange title 'pipeline bubble, exposed communication', \
     '' using 1:4:2 with filledcurves lc rgb c_red title 'failures, restarts, checkpoints, rollbacks', \
     '' using 1:4:5 with yerrorlines pt 7 ps 1.1 lw 2 lc rgb c_blue title 'goodput (job.ettr)', \
     '' using 1:4:(sprintf('%.1f%%', $4)) with labels offset 0, -1.1 tc rgb c_blue notitle, \
     '' using 1:2 with linespoints pt 6 lw 1.5 lc rgb c_orange title 'after the step (scaling efficiency)', \
     '' using 1:(100) with lines dt 2 lw 1.5 lc rgb c_grey title 'perfect scaling'

set title 'time to train'
set style fill solid 1.0 noborder
set ylabel 'time to train (days)'
set logscale y 2
set yrange [*:*]
set ytics auto
set format y '%g'
set key top right
stats datadir.'scaling.csv' using 1:8 nooutput
d0 = STATS_min_y
x0 = STATS_min_x
stats datadir.'scaling.csv' using ($1 == x0 ? $8 : NaN) nooutput
d0 = STATS_max
stats datadir.'scaling.csv' using ($1 == xmax ? $8 : NaN) nooutput
dlast = STATS_max
set label 1 sprintf('%.0fx the GPUs: %.1fx faster', xmax / x0, d0 / dlast) at graph 0.04, graph 0.06 left tc rgb c_ink
plot datadir.'scaling.csv' using 1:(d0 * x0 / $1) with lines dt 2 lw 1.5 lc rgb c_grey title 'perfect scaling', \
     '' using 1:8:9 with yerrorlines pt 7 ps 1.1 lw 2 lc rgb c_red title 'simulated (mean, 95% CI)', \
     '' using 1:8:(sprintf('  %.0f d', $8)) with labels left tc rgb c_red notitle
unset multiplot
