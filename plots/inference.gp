# plots/inference.gp - an inference service over time: `dcsim plot TRACE.h5 --kind inference`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shows, against time: the offered load (requests per second) and the
# replicas (right axis, scaled so that the line is also the load they are
# rated for: replicas x inference.replica_capacity_qps); the GPU utilisation of the
# replicas with the autoscaler's target; the requests waiting for a batch
# slot.  Series are step functions recorded every autoscale interval.
#
# Data: inference_qps.csv, inference_replicas.csv, inference_utilization.csv,
#       inference_queue.csv   time_s, value   (from /series/NAME)
# Variables: slo (share of requests within the SLO), drop (share dropped),
# util (mean GPU utilisation), capacity_qps (rated requests/s of one replica),
# target (the autoscaler's target utilisation, NaN without one).

set multiplot layout 3, 1 title sprintf("Inference service — %s: SLO met by %.2f%% of requests, %.3f%% dropped, GPU utilisation %.1f%%", \
    scenario, 100 * slo, 100 * drop, 100 * util) font ',12' textcolor rgb c_ink
set xrange [0:tend]
set grid xtics ytics
set key top left opaque horizontal
set lmargin 12
set rmargin 12
set xtics format ''
set tmargin 1.5
set bmargin 0.8

set ylabel 'requests/s'
set y2label 'replicas' tc rgb c_orange
set yrange [0:*]
# The replicas' axis is the load axis / one replica's rated requests/s:
# the replicas line is also the rated capacity of the service.
set link y2 via y / capacity_qps inverse y * capacity_qps
stats datadir.'inference_replicas.csv' using 2 nooutput
rstep = 10 ** floor(log10(STATS_max > 1 ? STATS_max / 4 : 1))
rstep = STATS_max / rstep > 20 ? 5 * rstep : STATS_max / rstep > 8 ? 2 * rstep : rstep
set y2tics 0, rstep format '%g' tc rgb c_orange
plot datadir.'inference_qps.csv' using ($1 / tscale):2 with steps lw lw lc rgb c_blue title 'offered load', \
     datadir.'inference_replicas.csv' using ($1 / tscale):($2 * capacity_qps) with steps lw 1.5 lc rgb c_orange \
        title sprintf('replicas (right axis) = rated capacity at %.3g requests/s each', capacity_qps)
unset link y2
unset y2label
unset y2tics

set ylabel 'GPU utilisation (%)'
set yrange [0:105]
if (target == target) { set arrow 1 from 0, 100 * target to tend, 100 * target nohead dt 3 lw 1.5 lc rgb c_red }
plot datadir.'inference_utilization.csv' using ($1 / tscale):(100 * $2) with steps lw lw lc rgb c_green \
        title 'utilisation of the ready replicas', \
     NaN with lines dt 3 lw 1.5 lc rgb c_red title (target == target ? 'autoscaler target' : '')
unset arrow 1

set bmargin 3.5
set xtics format '%g'
set xlabel sprintf('time (%s)', tunit)
set ylabel 'requests waiting'
set yrange [0:*]
plot datadir.'inference_queue.csv' using ($1 / tscale):2 with steps lw lw lc rgb c_purple title 'queue'
unset multiplot
