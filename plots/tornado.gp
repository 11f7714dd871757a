# plots/tornado.gp - which uncertain input moves a figure of a sweep most:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim sweep FILE.cfg --reps N --tornado -o SWEEP.h5
#   dcsim plot SWEEP.h5 --kind tornado [--metric FIGURE]
#
# With /tornado (dcsim sweep --tornado): for each uncertain input, the
# figure with that input at its low and at its high quantile (the others
# at their base values), as a bar from the one to the other across the
# base value (the vertical line); the largest swing on top.  Without it,
# from /sensitivity: each input's Spearman rank correlation with the
# figure over the replications (bars) and its standardised rank regression
# coefficient (diamonds), the largest |rho| on top.  One panel per grid
# point (the first four).
#
# Data: tornado_G.csv (G = 1, 2, ... the grid point)
#       tornado:      input, at_lo, at_hi, base, swing, p_lo, p_hi
#       sensitivity:  input, spearman, srrc
# Variables: mode ('tornado' or 'sensitivity'), metric, npanels, npoints,
# ninputs, points[], bases[], p_lo, p_hi (the quantiles of the tornado's runs).

set multiplot layout npanels, 1 title sprintf("%s: what moves %s — %s", \
    mode eq 'tornado' ? 'Tornado' : 'Sensitivity', metric, scenario) font ',12' textcolor rgb c_ink
# The figure's range over every panel (before the ranges below restrict stats).
if (mode eq 'tornado') {
    lo = 1e308
    hi = -1e308
    do for [g = 1:npanels] {
        stats datadir.sprintf('tornado_%d.csv', g) using 2:3 nooutput
        lo = STATS_min_x < lo ? STATS_min_x : lo
        lo = STATS_min_y < lo ? STATS_min_y : lo
        hi = STATS_max_x > hi ? STATS_max_x : hi
        hi = STATS_max_y > hi ? STATS_max_y : hi
    }
    big = abs(hi) > abs(lo) ? abs(hi) : abs(lo)
    xs = big >= 1e10 ? 1e9 : big >= 1e7 ? 1e6 : big >= 1e4 ? 1e3 : 1
    xsname = xs == 1e9 ? ' (billions)' : xs == 1e6 ? ' (millions)' : xs == 1e3 ? ' (thousands)' : ''
    pad = (hi - lo) * 0.08 + (hi == lo ? abs(hi) * 0.01 + 1 : 0)
}
set yrange [ninputs - 0.4:-0.6]
set ytics scale 0
set grid xtics noytics
set border 1
set style fill solid 1.0 noborder
set lmargin 36
set rmargin 4
set key at screen 0.5, screen 0.005 center bottom horizontal samplen 1.5
set bmargin 4.5
do for [g = 1:npanels] {
    if (g > 1) { unset key }
    file = datadir.sprintf('tornado_%d.csv', g)
    set title (npoints > 1 ? points[g] : '')
    if (mode eq 'tornado') {
        set xrange [(lo - pad) / xs:(hi + pad) / xs]
        set xlabel (g == npanels ? metric.xsname : '')
        set format x '%g'
        unset arrow
        set arrow 1 from bases[g] / xs, graph 0 to bases[g] / xs, graph 1 nohead lw 1.5 lc rgb c_ink front
        set title sprintf('%sall inputs at their median: %.4g (the line)', npoints > 1 ? points[g].': ' : '', bases[g] / xs)
        plot file using (($4 + $2) / 2 / xs):0:(abs($2 - $4) / 2 / xs):(0.35):ytic(1) with boxxyerror fc rgb c_blue \
                title sprintf('input at its low quantile (P%.0f)', 100 * p_lo), \
             '' using (($4 + $3) / 2 / xs):0:(abs($3 - $4) / 2 / xs):(0.35) with boxxyerror fc rgb c_orange \
                title sprintf('input at its high quantile (P%.0f)', 100 * p_hi)
    } else {
        set xrange [-1.05:1.75]
        set xtics -1, 0.5, 1
        set xlabel (g == npanels ? sprintf('rank correlation with %s', metric) : '')
        set format x '%.1f'
        set label 2 'rho    SRRC' at 1.12, graph 1 left offset 0, 0.6 tc rgb c_grey
        unset arrow
        set arrow 1 from 0, graph 0 to 0, graph 1 nohead lw 1 lc rgb c_ink front
        plot file using ($2 / 2):0:(abs($2) / 2):(0.35):ytic(1) with boxxyerror fc rgb c_blue title 'Spearman rho', \
             '' using 3:0 with points pt 13 ps 1.5 lc rgb c_red title 'SRRC', \
             '' using (1.12):0:(sprintf('%+.2f   %+.2f', $2, $3)) with labels left tc rgb c_ink notitle
    }
}
unset multiplot
