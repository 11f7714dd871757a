# plots/interruptions.gp - interruptions by cause: `dcsim plot TRACE.h5 --kind interruptions`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shows the job's interruptions by failure class as horizontal bars, the most
# frequent on top, each labelled with its count and its share of all
# interruptions (the shape of Meta's Llama 3 interruption table).
#
# Data: bars.csv  label, value (interruptions), share_pct
#       from /summary/interruptions.* (the share of /summary/job.interruptions)
# Variables: nbars, total (interruptions), days (simulated time).

bar_max = 0
stats datadir.'bars.csv' using 2 nooutput
if (exists("STATS_max")) { bar_max = STATS_max }
# 1/0 is an error in gnuplot 5.4 ("undefined value"), not NaN: a run without
# interruptions (an inference service) gets its own title.
if (total > 0) {
    set title sprintf("Interruptions of the job by cause — %s (seed %d): %d in %.1f days, one every %.3g h", \
                      scenario, seed, total, days, 24 * days / total)
} else {
    set title sprintf("Interruptions of the job by cause — %s (seed %d): none in %.1f days", scenario, seed, days)
}
set xlabel 'interruptions'
set yrange [nbars - 0.4:-0.6]
set ytics scale 0
set grid xtics noytics
set border 1
set xrange [0:(bar_max > 0 ? bar_max * 1.22 : 1)]
set lmargin 18
if (bar_max < 8) { set xtics 1 }
plot datadir.'bars.csv' using ($2 / 2):0:($2 / 2):(0.36):ytic(1) with boxxyerror fc rgb c_blue, \
     '' using 2:0:(sprintf(' %d  (%.1f%%)', $2, $3)) with labels left tc rgb c_ink
