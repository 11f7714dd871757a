# plots/waits.gp - queue waits by job size:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot TRACE.h5 --kind waits
#   dcsim plot --kind waits A.h5 B.h5 ...            (e.g. two schedulers on one trace)
#   dcsim plot --kind waits --scan FILE.cfg --vary KEY=V1,V2,...
#
# Shows, in four panels (P50, P90, P99, mean), the time the jobs of each
# size class waited in the queue (all their waits), one bar per trace or
# scan point; the size classes by the GPUs a job asked for (1, 2-4, 5-8,
# 9-64, more than 64: models/workload/jobstats.h), each labelled with its
# number of jobs (of the first run).  An empty class has no bar.
#
# Data: waits.csv  size class (1-5), statistic (1 P50, 2 P90, 3 P99, 4 mean),
#       hours of point 1, 2, ...
#       from /summary/jobs.{gpus_1,gpus_2_4,gpus_5_8,gpus_9_64,gpus_65_up}.wait_{p50,p90,p99,mean}_h
# Variables: npoints, points[], njobs[5] (jobs per class, first run).

array snames[4] = ['P50', 'P90', 'P99', 'mean']
# The highest bar of each panel, before any range is set (stats keeps to them).
array shi[4]
do for [s = 1:4] {
    shi[s] = 0
    do for [p = 1:npoints] {
        stats datadir.'waits.csv' using ($2 == s ? column(p + 2) : NaN) nooutput
        if (STATS_records > 0 && STATS_max > shi[s]) { shi[s] = STATS_max }
    }
}
set multiplot layout 1, 4 title (npoints > 1 ? "Queue waits by job size, side by side" : sprintf("Queue waits by job size — %s", scenario)) font ',12' textcolor rgb c_ink
set style fill solid 1.0 noborder
bw = 0.8 / npoints
set boxwidth bw absolute
set grid noxtics ytics
set xtics scale 0 (sprintf("1\n(%.0f)", njobs[1]) 0, sprintf("2-4\n(%.0f)", njobs[2]) 1, sprintf("5-8\n(%.0f)", njobs[3]) 2, \
                   sprintf("9-64\n(%.0f)", njobs[4]) 3, sprintf(">64\n(%.0f)", njobs[5]) 4)
set xrange [-0.6:4.6]
set xlabel 'GPUs (jobs)' offset 0, -0.5
set bmargin 8
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 1 Left reverse samplen 1.5 width 2
x(s, p) = s == column(2) ? column(1) - 1 + (p - (npoints + 1) / 2.0) * bw : NaN
do for [s = 1:4] {
    hi = shi[s]
    set title snames[s]
    set ylabel (s == 1 ? 'hours' : '')
    set yrange [0:hi * 1.12 + (hi > 0 ? 0 : 1)]
    if (s > 1) { unset key }
    plot for [p = 1:npoints] datadir.'waits.csv' using (x(s, p)):(column(p + 2)) with boxes lc rgb pal(p) title points[p]
}
unset multiplot
