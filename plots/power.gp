# plots/power.gp - power, cooling and throttling over time: `dcsim plot TRACE.h5 --kind power`
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Needs a trace of a scenario with the power and cooling models (scenarios/power/).
#
# Shows, against time: the facility power, the IT power and the cooling
# power (MW) with the site's cap; the outdoor and the inlet temperature (C)
# with the cooling's throttle and shutdown temperatures; the speed factor
# of computing jobs (100%: full speed) from power caps and heat.  A run of
# months changes these every few minutes: each series is drawn in 800 bins
# as its time-weighted mean (line) and its range within the bin (band).
#
# Data: power_it_w.csv, power_cooling_w.csv, power_facility_w.csv,
#       temp_inlet_c.csv, temp_ambient_c.csv, throttle.csv
#       t_mid_s, mean, min, max      (from /series/NAME, binned)
# Variables: throttle_c, shutdown_c (cooling.*; NaN if not set), cap_mw
# (power.site_cap_mw), pue, cap_throttled_h, heat_throttled_h.

stats datadir.'throttle.csv' using (100 * $3) nooutput
slo = STATS_min >= 99 ? 90 : STATS_min - (100 - STATS_min) * 0.15
set multiplot layout 3, 1 title sprintf("Power and cooling — %s: PUE %.3f, throttled %.0f h by power caps, %.0f h by heat", \
    scenario, pue, cap_throttled_h == cap_throttled_h ? cap_throttled_h : 0, \
    heat_throttled_h == heat_throttled_h ? heat_throttled_h : 0) font ',12' textcolor rgb c_ink
set xrange [0:tend]
set grid xtics ytics
set key top left opaque horizontal
set lmargin 11
set rmargin 4
set xtics format ''
set tmargin 1.5
set bmargin 0.8
set style fill transparent solid 0.25 noborder
t(c) = column(c) / tscale

set ylabel 'power (MW)'
set yrange [0:*]
if (cap_mw == cap_mw) { set arrow 1 from 0, cap_mw to tend, cap_mw nohead dt 2 lw 1.5 lc rgb c_red front }
plot datadir.'power_facility_w.csv' using (t(1)):($3 / 1e6):($4 / 1e6) with filledcurves lc rgb c_blue notitle, \
     '' using (t(1)):($2 / 1e6) with lines lw lw lc rgb c_blue title 'facility', \
     datadir.'power_it_w.csv' using (t(1)):($3 / 1e6):($4 / 1e6) with filledcurves lc rgb c_green notitle, \
     '' using (t(1)):($2 / 1e6) with lines lw lw lc rgb c_green title 'IT', \
     datadir.'power_cooling_w.csv' using (t(1)):($3 / 1e6):($4 / 1e6) with filledcurves lc rgb c_orange notitle, \
     '' using (t(1)):($2 / 1e6) with lines lw lw lc rgb c_orange title 'cooling', \
     NaN with lines dt 2 lw 1.5 lc rgb c_red title (cap_mw == cap_mw ? sprintf('site cap %.3g MW', cap_mw) : '')
unset arrow 1

set ylabel 'temperature (°C)'
set yrange [*:*]
if (throttle_c == throttle_c) { set arrow 2 from 0, throttle_c to tend, throttle_c nohead dt 2 lw 1.5 lc rgb c_red front }
if (shutdown_c == shutdown_c) { set arrow 3 from 0, shutdown_c to tend, shutdown_c nohead dt 3 lw 1.5 lc rgb c_red front }
plot datadir.'temp_ambient_c.csv' using (t(1)):3:4 with filledcurves lc rgb c_sky notitle, \
     '' using (t(1)):2 with lines lw 1.5 lc rgb c_sky title 'outdoor', \
     datadir.'temp_inlet_c.csv' using (t(1)):3:4 with filledcurves lc rgb c_purple notitle, \
     '' using (t(1)):2 with lines lw lw lc rgb c_purple title 'inlet', \
     NaN with lines dt 2 lw 1.5 lc rgb c_red title (throttle_c == throttle_c ? sprintf('throttle at %.3g °C', throttle_c) : ''), \
     NaN with lines dt 3 lw 1.5 lc rgb c_red title (shutdown_c == shutdown_c ? sprintf('shutdown at %.3g °C', shutdown_c) : '')
unset arrow 2
unset arrow 3

set bmargin 3.5
set xtics format '%g'
set xlabel sprintf('time (%s)', tunit)
set ylabel 'job speed (% of full)'
set yrange [slo:101.5]
plot datadir.'throttle.csv' using (t(1)):(100 * $3):(100 * $4) with filledcurves lc rgb c_red notitle, \
     '' using (t(1)):(100 * $2) with lines lw lw lc rgb c_red title 'speed factor from power caps and heat (mean; band: range)'
unset multiplot
