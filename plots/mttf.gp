# plots/mttf.gp - the job's mean time to failure against its size:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot --kind mttf --scan FILE.cfg --vary job.nodes=V1,V2,... [--reps N] [--set horizon_days=D]
#   dcsim plot --kind mttf A.h5 B.h5 ...
#
# Shows, on logarithmic axes, the simulated mean time between the job's
# interruptions (job.mttf_h: run time / interruptions; mean of the
# replications with a 95% interval) against the GPUs of the job, and the
# time the failure rates imply for that size (job.expected_mtbi_h) with
# its 1/N trend from the smallest size (dotted): for independent failures
# the MTTF falls as 1 / GPUs (Llama 3: about 3 h at 16k GPUs).  Each point
# is labelled with the interruptions it rests on: few interruptions, wide
# interval (a longer horizon or more --reps narrows it).
# dcsim mttf prints the same comparison as a table (--json for tools); this
# figure takes runs so that its points carry their intervals.
#
# Data: mttf.csv  gpus, mttf_h_mean, mttf_h_ci95, expected_h, interruptions (all
#       runs of the point), runs       from /summary/job.gpus, job.mttf_h,
#       job.expected_mtbi_h, job.interruptions
# Variables: npoints, xmin, xmax, reps.

set title sprintf("Time to failure against job size — %s (%.0f run%s per point, 95%% CI)", \
                  scenario, reps, reps > 1 ? 's' : '')
set logscale xy 2
set format x '%g'
set format y '%g'
set xrange [xmin / 1.5:xmax * 1.5]
set xlabel 'GPUs of the job'
set ylabel 'mean time between job interruptions (hours)'
set grid xtics ytics
set key top right opaque
stats datadir.'mttf.csv' using ($1 == xmin ? $4 : NaN) nooutput
e0 = STATS_max
plot datadir.'mttf.csv' using 1:(e0 * xmin / $1) with lines dt 3 lw 1.5 lc rgb c_grey title '1 / GPUs from the smallest size', \
     '' using 1:4 with linespoints dt 2 pt 6 lw 1.5 lc rgb c_ink title 'implied by the failure rates', \
     '' using 1:2:3 with yerrorlines pt 7 ps 1.1 lw 2 lc rgb c_red title 'simulated (mean, 95% CI)', \
     '' using 1:2:(sprintf('  %.3g h (%d)', $2, $5)) with labels left tc rgb c_red notitle, \
     '' using 1:($5 == 0 ? $4 : NaN):('  no interruption within the horizon') with labels left offset 0, -1 tc rgb c_red notitle
