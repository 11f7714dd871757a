# plots/compare.gp - runs side by side:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim compare A.h5 B.h5 ... --plot [-o FILE]     (or dcsim plot --kind compare A.h5 B.h5 ...)
#
# Shows, as grouped bars with one colour per run: left, the GPU-hours each
# run lost by cause, in share of its capacity; right, one small panel per
# headline figure that differs between the runs (ETTR, time to train,
# interruptions, availability, MFU, PUE, energy and its cost, carbon, inlet
# temperature, TCO, cost per useful GPU-hour, SLO, latency: at most 8; the
# first four when none differs) with its unit.
#
# Data (comma-separated, one column per run after the first):
#   compare_lines.csv  line, share_pct of run 1, of run 2, ...  (from /summary/gpu_hours.*)
#   compare_main.csv   figure, value of run 1, of run 2, ...
#   compare_bars.csv   figure (index in main_labels), run (index in runs), value
#                      (0 when the run has none), text of the value ("n/a")
# Variables: runs[] (labels), nruns, nlines, nmain, main_labels[], main_units[].

run_rgb(j) = pal(j)
names = runs[1]
do for [j = 2:nruns] { names = names . (j == nruns ? ' and ' : ', ') . runs[j] }
set multiplot title sprintf('Comparing %s', names) font ',12' textcolor rgb c_ink
set style data histograms
set style histogram clustered gap 1
set style fill solid 1.0 noborder
set boxwidth 0.9
set grid noxtics ytics
set xtics scale 0 rotate by -30 left
set key outside top center horizontal Left reverse # above the bars, never on them

# Left: GPU-hours lost.
set origin 0, 0
set size 0.5, 0.94
set ylabel 'GPU-hours lost (% of the capacity)'
set yrange [0:*]
set title 'Where the GPU-hours were lost'
plot for [j = 1:nruns] datadir.'compare_lines.csv' using (column(j + 1)):xtic(1) lc rgb run_rgb(j) title runs[j]

# Right: the headline figures, one bar per run (none where a run has no value).
cols = 2
rows = int((nmain + 1) / 2)
set style data boxes
set boxwidth 0.7 absolute
set xrange [0.3:nruns + 0.7]
set xtics scale 0 norotate format '' ()
unset key
do for [m = 1:nmain] {
    set origin 0.5 + 0.25 * ((m - 1) % cols), 0.94 * (1 - (int((m - 1) / cols) + 1.0) / rows)
    set size 0.25, 0.94 / rows
    set title main_labels[m] . (main_units[m] ne '' ? ' (' . main_units[m] . ')' : '')
    unset ylabel
    set yrange [0:*]
    set offsets 0, 0, graph 0.15, 0
    plot datadir.'compare_bars.csv' using ($1 == m ? $2 : NaN):3:(pal($2)) with boxes fc rgb variable, \
         '' using ($1 == m ? $2 : NaN):3:4 with labels offset 0, 0.7 tc rgb c_ink
}
unset multiplot
