# plots/step.gp - where the time of one training step goes:
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
#   dcsim plot TRACE.h5 --kind step                  (one bar)
#   dcsim plot --kind step A.h5 B.h5 ...             (one bar per trace)
#   dcsim plot --kind step --scan FILE.cfg --vary job.nodes=V1,V2,... [--vary cluster.nodes=...]
#
# Shows the step-time model's optimizer step (models/workload/steptime.h, with the
# fabric healthy) as stacked bars: the model's compute at the kernel
# efficiency, activation recompute, the pipeline's fill-and-drain bubble,
# communication not hidden behind compute, optimizer traffic to host memory,
# and waiting for data.  The parts sum to the step time, written above each
# bar with the effective MFU.  A scan of the job's size shows the bubble
# growing as each pipeline gets fewer micro-batches of a fixed batch.
#
# Data: step.csv  point label, seconds of each part drawn (the columns named
#       by comps[]: only parts some bar has), step.time_s, step.mfu,
#       step.scaling_efficiency, job.gpus (means over replications)
#       from /summary/step.*
# Variables: ncomp, comps[], npoints, points[], reps, labellen.
# Left: seconds per step; right: each part's share of the step.

set multiplot layout 1, 2 title sprintf("Where the time of a training step goes — %s", scenario) \
    font ',12' textcolor rgb c_ink
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border rgb '#FFFFFF'
set boxwidth (npoints > 1 ? 0.65 : 0.35)
set grid noxtics ytics
set xtics scale 0 norotate
# Long labels slant (labellen: the longest, in characters).
if (npoints * (labellen + 2) > (npoints > 1 ? 44 : 60)) { set xtics rotate by -25 left }
set key inside top left vertical Left reverse samplen 1.5 opaque

tcol = ncomp + 2
part_rgb(j) = comps[j] eq 'compute' ? 0x009E73 : comps[j] eq 'recompute' ? 0x56B4E9 : \
              comps[j] eq 'pipeline bubble' ? 0xE69F00 : comps[j] eq 'exposed communication' ? 0xD55E00 : \
              comps[j] eq 'memory offload' ? 0xCC79A7 : comps[j] eq 'data stall' ? 0x0072B2 : 0x8C8C8C

set title 'seconds per step (label: step time, effective MFU)'
set ylabel 'seconds per optimizer step'
set yrange [0:*]
set offsets 0, 0, graph 0.35, 0
plot for [j = 1:ncomp] datadir.'step.csv' using (column(j + 1)):xtic(1) lc rgb part_rgb(j) title comps[j], \
     '' using 0:(column(tcol)):(sprintf('%.3g s, %.1f%%', column(tcol), 100 * column(tcol + 1))) \
        with labels offset 0, 0.8 tc rgb c_ink notitle

set title 'share of the step (label: compute share = scaling efficiency)'
set ylabel 'share of the step (%)'
set yrange [0:112]
set ytics 0, 20, 100
set offsets 0, 0, 0, 0
unset key
plot for [j = 1:ncomp] datadir.'step.csv' using (100 * column(j + 1) / column(tcol)):xtic(1) lc rgb part_rgb(j), \
     '' using 0:(104):(sprintf('%.1f%%', 100 * column(2) / column(tcol))) with labels tc rgb c_ink notitle
unset multiplot
