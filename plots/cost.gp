# plots/cost.gp - the total cost of ownership by line:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot TRACE.h5 --kind cost
#   dcsim plot --kind cost A.h5 B.h5 ...
#   dcsim plot --kind cost --scan scenarios/invest/programme.cfg --vary cost.owned=1,0.4,0    (buy vs rent)
#
# Shows the cost model's TCO over the costing window (models/cost/cost.h) as
# stacked bars, one per trace or scan point: the capital as depreciation
# and interest, energy, maintenance, staff, licences, data transfer,
# repairs, the rents (reserved, on demand, spot), the storage tiers' running
# cost and the orbital lines.  Above each bar: the
# total and the cost per useful GPU-hour.  Only lines some bar has are
# drawn.  Scan points are means over their replications.
#
# Data: cost.csv  point label, USD of each line drawn (named by comps[]),
#       cost.tco_usd, cost.usd_per_useful_gpu_h, cost.window_days, cost.total_usd
#       from /summary/cost.*
# Variables: ncomp, comps[], npoints, points[], reps, labellen, unexplained_pct (the
# largest share of a TCO that no drawn line explains: a newer cost line).

set title sprintf("Total cost of ownership by line — %s", scenario)
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border rgb '#FFFFFF'
set boxwidth (npoints > 1 ? 0.6 : 0.35)
set grid noxtics ytics
set xtics scale 0 norotate
# Long labels slant (labellen: the longest, in characters).
if (npoints * (labellen + 2) > (npoints > 1 ? 44 : 60)) { set xtics rotate by -25 left }
stats datadir.'cost.csv' using (column(ncomp + 2)) nooutput
ys = STATS_max >= 1e10 ? 1e9 : STATS_max >= 1e7 ? 1e6 : STATS_max >= 1e4 ? 1e3 : 1
ysname = ys == 1e9 ? 'billion ' : ys == 1e6 ? 'million ' : ys == 1e3 ? 'thousand ' : ''
set ylabel sprintf('%sUSD', ysname)
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set key outside right top vertical Left reverse
tcol = ncomp + 2
# A fixed colour per line, so that figures compare: capital blue, running
# costs green to orange, rents grey.
cost_rgb(c) = c eq 'depreciation' ? 0x0072B2 : c eq 'interest' ? 0x56B4E9 : c eq 'energy' ? 0x009E73 : \
    c eq 'maintenance' ? 0xE69F00 : c eq 'staff' ? 0xCC79A7 : c eq 'licences' ? 0xF0E442 : \
    c eq 'data transfer' ? 0x7F6A00 : c eq 'repairs' ? 0xD55E00 : c eq 'rent (reserved)' ? 0x444444 : \
    c eq 'rent (on demand)' ? 0x8C8C8C : c eq 'spot' ? 0xBBBBBB : c eq 'storage (running)' ? 0x9A6324 : \
    c eq 'orbital capital' ? 0x000075 : c eq 'orbital operations' ? 0x469990 : 0x000000
if (unexplained_pct > 0.5) {
    set label 1 sprintf('lines not drawn: up to %.1f%% of a total', unexplained_pct) at graph 0.01, graph 0.97 tc rgb c_grey
}
plot for [j = 1:ncomp] datadir.'cost.csv' using (column(j + 1) / ys):xtic(1) lc rgb cost_rgb(comps[j]) title comps[j], \
     '' using 0:(column(tcol) / ys):(sprintf('%.4g, $%.2f/useful GPU-h', column(tcol) / ys, column(tcol + 1))) \
        with labels offset 0, 0.8 tc rgb c_ink notitle
