# plots/nodes.gp - healthy nodes and repairs: `dcsim plot TRACE.h5 --kind nodes`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shows, against time, the healthy nodes of the cluster (busy or spare) with
# the number the job needs (below it, the job waits), and under it the nodes
# down (failed, waiting for or under repair) and the repair queue (failures
# waiting for a free crew).  All three are step functions.
#
# Data (comma-separated; each file time_s, value, with a last row at the end
# of the run):
#   nodes_up.csv      from /series/nodes_up
#   nodes_down.csv    from /series/nodes_down
#   repair_queue.csv  from /series/repair_queue
# Variables: cluster_nodes, job_nodes, availability, repairs, crew_utilization.

# A series that never changed in the run (no failure: no repair queue) has
# no rows, and stats then defines no STATS_* at all: test with exists().
up_min = cluster_nodes == cluster_nodes ? cluster_nodes : 0
up_max = up_min
stats datadir.'nodes_up.csv' using 2 nooutput
if (exists("STATS_min")) { up_min = STATS_min; up_max = STATS_max }
lo = (job_nodes == job_nodes && job_nodes < up_min) ? job_nodes : up_min
hi = cluster_nodes == cluster_nodes ? cluster_nodes : up_max
pad = (hi - lo) * 0.15 + 0.5
down_max = 0
stats datadir.'nodes_down.csv' using 2 nooutput
if (exists("STATS_max")) { down_max = STATS_max }
stats datadir.'repair_queue.csv' using 2 nooutput
if (exists("STATS_max")) { down_max = STATS_max > down_max ? STATS_max : down_max }

set multiplot title sprintf("Healthy nodes and repairs — %s (seed %d): node availability %.2f%%, %d repairs, crews busy %.0f%%", \
                            scenario, seed, 100 * availability, repairs, 100 * crew_utilization) \
              font ',12' textcolor rgb c_ink
set lmargin 10
set rmargin 24
set xrange [0:tend]
set key outside right top vertical Left reverse

# Top: healthy nodes.
set origin 0, 0.40
set size 1, 0.53
set bmargin 1
set format x ''
set ylabel 'nodes'
set yrange [lo - pad:hi + pad]
set ytics autofreq
if (hi - lo < 12) { set ytics 1 }
set format y '%.0f'
plot datadir.'nodes_up.csv' using ($1 / tscale):2 with steps lw lw lc rgb c_green title 'healthy nodes', \
     job_nodes with lines dt 2 lw 1.5 lc rgb c_ink title sprintf('the job needs %.0f', job_nodes)

# Bottom: down and queued.
set origin 0, 0.0
set size 1, 0.42
set tmargin 1
set bmargin 3.5
set format x '%g'
set xlabel sprintf('time (%s)', tunit)
set ylabel 'nodes'
set yrange [0:(down_max > 0 ? down_max * 1.2 + 0.5 : 1)]
set ytics autofreq
if (down_max < 10) { set ytics 1 }
plot datadir.'nodes_down.csv' using ($1 / tscale):2 with steps lw lw lc rgb c_red title 'nodes down (failed or in repair)', \
     datadir.'repair_queue.csv' using ($1 / tscale):2 with steps lw 1.5 lc rgb c_blue title 'failures waiting for a crew'
unset multiplot
