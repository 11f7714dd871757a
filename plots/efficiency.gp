# plots/efficiency.gp - the seed's effective compute: `dcsim plot TRACE.h5 --kind efficiency`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Seed 000's troubleshooting formula: effective compute = peak x device
# utilisation x network efficiency x data efficiency x scheduling
# efficiency, each factor measured from the GPU-hour breakdown
# (analysis/efficiency.h; dcsim report --efficiency prints the same with its
# lines), as horizontal bars in percent, the biggest loss first, then their
# product, the effective share of peak.
#
# Data: bars.csv  label, value (the factor), share_pct (the factor x 100)
# Variables: nbars, kernel (the kernel efficiency used), kernel_known (0:
#            device utilisation counts time only), days.

set title sprintf("Effective compute — %s (seed %d), %.1f days: peak x the factors, the biggest loss first", \
                  scenario, seed, days)
set xlabel sprintf('%% of what the factor could be%s', \
                   kernel_known ? sprintf(' (device: kernel efficiency %.2f included)', kernel) \
                                : ' (device: time only, no kernel efficiency in the trace)')
set yrange [nbars - 0.4:-0.6]
set ytics scale 0
set grid xtics noytics
set border 1
set xrange [0:118]
set xtics 0, 20, 100
set lmargin 22
bar_rgb(l) = l eq 'effective / peak' ? 0x0072B2 : 0xD55E00
plot datadir.'bars.csv' using ($3 / 2):0:($3 / 2):(0.36):(bar_rgb(strcol(1))):ytic(1) \
        with boxxyerror fc rgb variable, \
     '' using 3:0:(sprintf(' %.1f%%', $3)) with labels left tc rgb c_ink
