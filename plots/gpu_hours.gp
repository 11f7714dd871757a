# plots/gpu_hours.gp - where the GPU-hours went: `dcsim plot TRACE.h5 --kind gpu_hours`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shows every GPU-hour the cluster could have delivered over the run (its
# capacity) split into useful work and each loss (down for repair, idle
# spare, work rolled back, checkpoints, restarts, waiting, and whatever the
# models add: thermal or power throttling, exposed communication...), as
# horizontal bars in share of the capacity, each labelled with its GPU-hours.
# The lines sum to the capacity.
#
# Data: bars.csv  label, value (GPU-h), share_pct (of the capacity)
#       from /summary/gpu_hours.* without gpu_hours.capacity, the largest first
# Variables: nbars, total (the capacity, GPU-h), sum, days.

set title sprintf("Where the GPU-hours went — %s (seed %d): capacity %s GPU-h over %.1f days", \
                  scenario, seed, kfmt(total), days)
set xlabel 'share of the capacity (%)'
set yrange [nbars - 0.4:-0.6]
set ytics scale 0
set grid xtics noytics
set border 1
set xrange [0:118]
set xtics 0, 20, 100
set lmargin 14
bar_rgb(l) = l eq 'useful' ? 0x009E73 : 0xD55E00
plot datadir.'bars.csv' using ($3 / 2):0:($3 / 2):(0.36):(bar_rgb(strcol(1))):ytic(1) \
        with boxxyerror fc rgb variable, \
     '' using 3:0:(sprintf(' %.1f%%  (%s GPU-h)', $3, kfmt($2))) with labels left tc rgb c_ink
