# plots/style.gp - the look every figure of `dcsim plot` shares.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# dcsim runs, for a figure of kind KIND:
#   gnuplot setup.gp -e "set output 'FIGURE'" plots/style.gp plots/KIND.gp
# setup.gp (written by dcsim) sets the terminal (pngcairo, svg or pdfcairo,
# chosen by the figure's extension, with noenhanced text) and the variables
# every script may use:
#   datadir   directory of the data files, ending with '/'
#   scenario  the scenario's name (for titles)      label  the trace's name
#   seed      the run's seed                        nruns  number of runs drawn
#   fmt       'png', 'svg' or 'pdf'
#   tscale    seconds per unit of the time axis     tunit  'hours' or 'days'
#   tend      end of the run, in tunit
# and the figure's own (listed at the top of each script).  `dcsim plot
# --kind KIND --data DIR` keeps setup.gp, the data and a plot.sh that redraws
# the figure, for anyone who wants to change a script.

set encoding utf8
set datafile separator comma
set datafile commentschars '#'

# Colours of Okabe and Ito (2008), told apart by colour-blind readers.
c_blue   = '#0072B2'
c_orange = '#E69F00'
c_green  = '#009E73'
c_red    = '#D55E00'
c_purple = '#CC79A7'
c_sky    = '#56B4E9'
c_yellow = '#F0E442'
c_grey   = '#8C8C8C'
c_ink    = '#303030'
array palette[8] = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#7F6A00', '#444444']
# palette colour i (from 1, cycling) as an integer for "lc rgb variable".
pal(i) = int(i - 1) % 8 == 0 ? 0x0072B2 : int(i - 1) % 8 == 1 ? 0xE69F00 : int(i - 1) % 8 == 2 ? 0x009E73 : \
         int(i - 1) % 8 == 3 ? 0xD55E00 : int(i - 1) % 8 == 4 ? 0xCC79A7 : int(i - 1) % 8 == 5 ? 0x56B4E9 : \
         int(i - 1) % 8 == 6 ? 0x7F6A00 : 0x444444

set border 3 lw 1 lc rgb '#606060'
set tics nomirror out scale 0.5 textcolor rgb c_ink
set xtics nomirror
set ytics nomirror
set style line 100 lt 1 lw 1 lc rgb '#E6E6E6' dt solid
set grid ls 100, ls 100
set grid noxtics ytics
set key noautotitle textcolor rgb c_ink
set key top left Left reverse samplen 2 spacing 1.1 nobox opaque
set style fill solid 1.0 noborder
set title textcolor rgb c_ink font ',12'
set xlabel textcolor rgb c_ink
set ylabel textcolor rgb c_ink
lw = 2.0
# A thousands separator for big numbers in labels.
kfmt(x) = abs(x) >= 1e6 ? sprintf('%.3g M', x / 1e6) : abs(x) >= 1e4 ? sprintf('%.0f k', x / 1e3) : sprintf('%.4g', x)
