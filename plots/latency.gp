# plots/latency.gp - latency percentiles of inference services:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot TRACE.h5 --kind latency
#   dcsim plot --kind latency A.h5 B.h5 ...          (e.g. the HBM and the DDR route)
#   dcsim plot --kind latency --scan FILE.cfg --vary KEY=V1,V2,...
#
# Shows, in three panels (time to first token, time per output token,
# end-to-end), the P50, P90 and P99 and the mean of the requests'
# latencies, one bar per trace or scan point, with the scenario's SLO
# (inference.slo.*, of the first run's scenario) as a dashed line where it
# has one (the axis always reaches it); a logarithmic axis where the runs
# and the SLO differ by more than 30 times.  The legend, above the panels,
# gives each run's share of requests within the SLO.
#
# Data: latency.csv  measure (1 ttft, 2 tpot, 3 e2e), statistic (1 P50, 2 P90,
#       3 P99, 4 mean), seconds of point 1, 2, ...
#       from /summary/inference.{ttft,tpot,e2e}_{p50,p90,p99,mean}_s
# Variables: npoints, points[], slo[3] (NaN: none), attain[] (SLO attainment).

array mnames[3] = ['time to first token', 'time per output token', 'end-to-end']
# The range of each measure over the runs (before any range is set).
array mlo[3]
array mhi[3]
do for [m = 1:3] {
    mlo[m] = 1e308
    mhi[m] = 0
    do for [p = 1:npoints] {
        stats datadir.'latency.csv' using ($1 == m ? column(p + 2) : NaN) nooutput
        if (STATS_min > 0 && STATS_min < mlo[m]) { mlo[m] = STATS_min }
        if (STATS_max > mhi[m]) { mhi[m] = STATS_max }
    }
}
set multiplot layout 1, 3 title (npoints > 1 ? "Inference latency, side by side" : sprintf("Inference latency — %s", scenario)) font ',12' textcolor rgb c_ink
set style fill solid 1.0 noborder
bw = 0.8 / npoints
set boxwidth bw absolute
set grid noxtics ytics
set xtics scale 0 ('P50' 0, 'P90' 1, 'P99' 2, 'mean' 3)
set xrange [-0.6:3.6]
# The legend below the panels, never over the bars.
set bmargin 5
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 1 Left reverse samplen 1.5 width 2
x(m, s, p) = m == column(1) ? column(2) - 1 + (p - (npoints + 1) / 2.0) * bw : NaN
do for [m = 1:3] {
    set title mnames[m]
    set ylabel (m == 1 ? 'seconds' : '')
    # A logarithmic axis when the runs differ by more than 30 times.
    lo = mlo[m]
    hi = mhi[m]
    # The SLO line inside the range, however far it is from the bars.
    if (slo[m] == slo[m] && slo[m] > 0) {
        if (slo[m] > hi) { hi = slo[m] }
        if (slo[m] < lo) { lo = slo[m] }
    }
    if (hi > 30 * lo) {
        set logscale y
        set yrange [lo / 2:hi * 3]
        set format y '%g'
    } else {
        unset logscale y
        set yrange [0:hi * 1.12 + (hi > 0 ? 0 : 1)]
    }
    if (slo[m] == slo[m]) {
        set arrow 1 from graph 0, first slo[m] to graph 1, first slo[m] nohead dt 2 lw 1.5 lc rgb c_red front
        set label 1 sprintf('SLO %.3g s', slo[m]) at graph 0.98, first slo[m] right offset 0, 0.6 tc rgb c_red front
    } else {
        unset arrow 1
        unset label 1
    }
    if (m > 1) { unset key }
    plot for [p = 1:npoints] datadir.'latency.csv' using (x(m, 0, p)):(column(p + 2)) with boxes lc rgb pal(p) \
        title (attain[p] == attain[p] ? sprintf('%s (SLO met: %.2f%%)', points[p], 100 * attain[p]) : points[p])
}
unset multiplot
