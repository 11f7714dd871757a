# plots/size.gp - a sizing search: time to train and cost against the job's GPUs:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim size FILE.cfg --deadline-days D [--confidence C] --plot FIGURE
#   dcsim plot --kind size --scan FILE.cfg --vary job.nodes=V1,V2,... [--vary cluster.nodes=...] [--reps N]
#
# Left: the P50 and P90 of the days from submission to a trained model
# against the GPUs of the job, the deadline (dashed) and the answer of the
# search (the smallest size whose P(confidence) of days meets the deadline,
# dotted).  Right: the P50 and P90 of the TCO (cost.tco_usd) over the run
# at each size (no panel content without a cost section).  Sizes whose
# quantile reaches an unfinished run (censored at the horizon) have no point.
#
# Data: size.csv  gpus, days_p50, days_p90, tco_p50_usd, tco_p90_usd,
#       share_in_time (finished within the deadline), runs
#       from /summary/job.gpus, job.completion_days, job.completed,
#       cost.tco_usd, deadline.days
# Variables: npoints, xmin, xmax, reps, deadline, confidence (NaN: none),
# answer (GPUs; NaN: none), censored (quantiles left out), has_cost.

set multiplot layout 1, 2 title sprintf("Sizing the cluster for a deadline — %s (%.0f run%s per size)", \
                                        scenario, reps, reps > 1 ? 's' : '') font ',12' textcolor rgb c_ink
pad = (xmax - xmin) * 0.1 + 1
set xrange [xmin - pad:xmax + pad]
set format x '%g'
set xlabel 'GPUs of the job'
set grid xtics ytics
set key bottom left opaque

if (answer == answer) {
    set arrow 1 from answer, graph 0 to answer, graph 1 nohead dt 3 lw 1.5 lc rgb c_green
    set label 2 sprintf('answer: %.0f GPUs ', answer) at answer, graph 0.95 right tc rgb c_green
}
if (censored > 0) {
    set label 3 sprintf('%.0f quantile%s censored at the horizon: left out', censored, censored > 1 ? 's' : '') \
        at graph 0.02, graph 0.04 left tc rgb c_grey
}
set ylabel 'days to train'
if (deadline == deadline) {
    set arrow 4 from graph 0, first deadline to graph 1, first deadline nohead dt 2 lw 1.5 lc rgb c_red
    set label 5 sprintf('deadline %.4g days', deadline) at graph 0.02, first deadline offset 0, 0.7 left tc rgb c_red
}
plot datadir.'size.csv' using 1:2 with linespoints pt 7 ps 1.0 lw 2 lc rgb c_blue title 'P50', \
     '' using 1:3 with linespoints pt 5 ps 1.0 lw 2 lc rgb c_orange title 'P90'
unset label 2
unset label 3
unset label 5
unset arrow 4

set ylabel 'TCO over the run (million USD)'
if (!has_cost) {
    set label 6 'no cost section: no TCO' at graph 0.5, graph 0.5 center tc rgb c_grey
    set yrange [0:1]
}
plot datadir.'size.csv' using 1:($4 / 1e6) with linespoints pt 7 ps 1.0 lw 2 lc rgb c_blue title 'P50', \
     '' using 1:($5 / 1e6) with linespoints pt 5 ps 1.0 lw 2 lc rgb c_orange title 'P90'
unset multiplot
