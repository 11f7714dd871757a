# plots/histogram.gp - the Monte Carlo distribution of one figure of a sweep:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim sweep FILE.cfg --reps N [--vary KEY=V1,V2,...] -o SWEEP.h5
#   dcsim plot SWEEP.h5 --kind histogram [--metric FIGURE]     (default: the first figure of /stats)
#
# Left: the histogram of the figure over the replications of each grid
# point (one colour per point, bins common to all, each bar the share of
# its point's replications); right: the empirical CDF.  The P50 (dashed)
# and P90 (solid) of each point are marked on both, with their values: the
# sweep's /stats (type-7 quantiles), so they are the numbers dcsim sweep
# printed.
#
# Data: hist.csv       bin_center, bin_width, share_pct of grid point 1, 2, ...
#       cdf.csv        value, F: one block per grid point (index g - 1)
#       quantiles.csv  grid_point (from 0), p50, p90, n, source ("stats" or "runs")
#       from /runs (the figure's column, grid_point), /stats, /params
# Variables: metric, unit, npoints, points[] (the grid points' assignments),
# nbins, reps (replications of the largest point), xlo, xhi.

set multiplot layout 1, 2 title sprintf("%s over %d replications — %s", metric, reps, scenario) \
    font ',12' textcolor rgb c_ink
# Big numbers on a scaled axis (millions, billions).
big = abs(xhi) > abs(xlo) ? abs(xhi) : abs(xlo)
xs = big >= 1e10 ? 1e9 : big >= 1e7 ? 1e6 : big >= 1e4 ? 1e3 : 1
xsname = xs == 1e9 ? 'billion ' : xs == 1e6 ? 'million ' : xs == 1e3 ? 'thousand ' : ''
ulabel = (unit ne '' || xs > 1) ? sprintf('%s (%s%s)', metric, xsname, unit) : metric
set xlabel ulabel
set xrange [xlo / xs:xhi / xs]
set format x '%g'
set grid xtics ytics
set key top right opaque
array p50[npoints]
array p90[npoints]
do for [g = 1:npoints] {
    stats datadir.'quantiles.csv' using ($1 == g - 1 ? $2 : NaN) nooutput
    p50[g] = STATS_max / xs
    stats datadir.'quantiles.csv' using ($1 == g - 1 ? $3 : NaN) nooutput
    p90[g] = STATS_max / xs
}
do for [g = 1:npoints] {
    set arrow 10 * g + 1 from p50[g], graph 0 to p50[g], graph 0.93 nohead dt 2 lw 1.5 lc rgb pal(g)
    set arrow 10 * g + 2 from p90[g], graph 0 to p90[g], graph 0.93 nohead lw 1.5 lc rgb pal(g)
    set label 10 * g + 1 sprintf('P50 %.4g', p50[g]) at p50[g], graph 0.97 - 0.13 * (g - 1) right offset -0.3, 0 \
        tc rgb pal(g) front
    set label 10 * g + 2 sprintf('P90 %.4g', p90[g]) at p90[g], graph 0.91 - 0.13 * (g - 1) left offset 0.3, 0 \
        tc rgb pal(g) front
}

set title 'histogram (dashed: P50, solid: P90)'
set ylabel 'share of the replications (%)'
set yrange [0:*]
set offsets 0, 0, graph 0.1 + 0.13 * npoints, 0
unset key
set style fill transparent solid (npoints > 1 ? 0.45 : 0.8) noborder
plot for [g = 1:npoints] datadir.'hist.csv' using ($1 / xs):(column(g + 2)):($2 / xs) with boxes lc rgb pal(g)

set title 'cumulative distribution'
set ylabel 'probability of a value at most x'
set yrange [0:1.02]
set offsets 0, 0, 0, 0
set ytics 0, 0.1, 1
set key bottom right opaque
do for [g = 1:npoints] {
    if (g % 2) {
        set label 10 * g + 1 sprintf('P50 %.4g', p50[g]) at p50[g], 0.5 right offset -0.6, 0.3 tc rgb pal(g) front
        set label 10 * g + 2 sprintf('P90 %.4g', p90[g]) at p90[g], 0.9 right offset -0.6, 0.3 tc rgb pal(g) front
    } else {
        set label 10 * g + 1 sprintf('P50 %.4g', p50[g]) at p50[g], 0.5 left offset 0.6, -0.3 tc rgb pal(g) front
        set label 10 * g + 2 sprintf('P90 %.4g', p90[g]) at p90[g], 0.9 left offset 0.6, -0.3 tc rgb pal(g) front
    }
    unset arrow 10 * g + 1
    unset arrow 10 * g + 2
}
plot for [g = 1:npoints] datadir.'cdf.csv' index (g - 1) using ($1 / xs):2 with steps lw 2 lc rgb pal(g) \
        title (npoints > 1 ? points[g] : sprintf('%d replications', reps)), \
     for [g = 1:npoints] datadir.'quantiles.csv' using ($1 == g - 1 ? $2 / xs : NaN):(0.5) with points pt 7 ps 1.2 lc rgb pal(g) notitle, \
     for [g = 1:npoints] datadir.'quantiles.csv' using ($1 == g - 1 ? $3 / xs : NaN):(0.9) with points pt 5 ps 1.2 lc rgb pal(g) notitle
unset multiplot
