# plots/checkpoint.gp - ETTR against the checkpoint interval:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot --kind checkpoint --scan FILE.cfg --vary checkpoint.interval_s=V1,V2,... [--reps N]
#   dcsim plot --kind checkpoint A.h5 B.h5 ...
#
# Shows the effective training time ratio (useful work / job GPUs x time)
# of simulated runs against the compute time between checkpoints tau (mean
# and 95% confidence interval of the replications of each interval), with
# two models for exponential interruptions:
#   Daly (2006), expected wall time for work Ts:
#     E[Tw] = M e^(R/M) (e^((tau + C)/M) - 1) Ts / tau, so ETTR = Ts / E[Tw]
#   first order (Young 1974; Kokolis et al. 2025):
#     ETTR ~= (1 - (R + tau/2)/M) / (1 + C/tau)
# and the optimum intervals marked: Young tau = sqrt(2 C M), Daly
#     tau = sqrt(2 C M) [1 + sqrt(C/(2M))/3 + C/(18 M)] - C.
# C: checkpoint write time, M: mean time between interruptions expected
# from the failure rates, R: restart time (sources in models/workload/checkpoint.h).
#
# Data: checkpoint.csv  interval_s, ettr_mean, ettr_ci95, n
#       from /summary/job.checkpoint_interval_s and /summary/step.ettr_time (the
#       time ratio: with the step-time model job.ettr is it x the scaling
#       efficiency), or /summary/job.ettr without the step-time model
# Variables: C, M, R (seconds), npoints, xmin, xmax, best_s, best_ettr, reps.

young = sqrt(2 * C * M)
daly = C < 2 * M ? sqrt(2 * C * M) * (1 + sqrt(C / (2 * M)) / 3 + C / (18 * M)) - C : M
ettr_daly(t) = t / (M * exp(R / M) * (exp((t + C) / M) - 1))
ettr_first(t) = (1 - (R + t / 2) / M) / (1 + C / t)

set title sprintf("ETTR against the checkpoint interval — %s: C = %.3g s, M = %.3g h, R = %.3g s", \
                  scenario, C, M / 3600, R)
set xlabel 'compute time between checkpoints τ (minutes)'
set ylabel 'effective training time ratio (%)'
set logscale x 2
lo = (xmin < young ? xmin : young) / 60 / 1.5
hi = (xmax > young ? xmax : young) / 60 * 1.5
set xrange [lo:hi]
set format x '%g'
set grid xtics ytics
set key bottom left
set samples 400
stats datadir.'checkpoint.csv' using (100 * $2) nooutput
ymin = STATS_min
ymax = STATS_max
ymax = 100 * ettr_daly(daly) > ymax ? 100 * ettr_daly(daly) : ymax
lo = ymin - (ymax - ymin) * 0.6 - 0.5
set yrange [lo > 0 ? lo : 0:ymax + (ymax - ymin) * 0.25 + 0.3]
set arrow 1 from young / 60, graph 0 to young / 60, graph 1 nohead dt 2 lw 1.5 lc rgb c_red
set label 1 sprintf(' Young √(2CM) = %.3g min', young / 60) at young / 60, graph 0.96 left tc rgb c_red
set label 2 sprintf(' Daly: %.3g min', daly / 60) at young / 60, graph 0.90 left tc rgb c_orange
plot 100 * ettr_daly(x * 60) with lines lw 2 lc rgb c_orange title "Daly's expected ETTR", \
     100 * ettr_first(x * 60) with lines lw 1.5 dt 2 lc rgb c_grey title 'first-order model', \
     datadir.'checkpoint.csv' using ($1 / 60):(100 * $2):(100 * $3) with yerrorbars pt 7 ps 1.1 lw 1.5 \
        lc rgb c_blue title sprintf('simulated (%.0f run%s per point, 95%% CI)', reps, reps > 1 ? 's' : '')
