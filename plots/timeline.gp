# plots/timeline.gp - job timeline: `dcsim plot TRACE.h5 --kind timeline`.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shows, against time, the state of the training job as a coloured band
# (computing, restarting, waiting for nodes, done: in each of 600 bins, the
# share of its time in each state, so that a band over months stays true to
# thousands of minute-long phases), a tick per
# checkpoint, and one row per failure class with a mark per failure: filled
# when the failure interrupted the job, open when it struck a node the job
# was not using (an idle spare, a node already down).
#
# Data (comma-separated; times in seconds):
#   state_share.csv  t_mid_s, width_s, then the share of the bin in each state:
#                    pending, waiting, restarting, running, checkpointing, done,
#                    detecting (a hung job before its failure is detected)
#   states.csv       t0_s, t1_s, state  (0 pending, 1 waiting, 2 restarting,
#                    3 running, 4 checkpointing, 5 done, 6 detecting: the exact intervals,
#                    for anyone who edits this script)     both from /series/job_state
#   checkpoints.csv  time_s, write_s                        from /events (checkpoint)
#   failures.csv     time_s, class, node                    from /events (failure)
#   interrupts.csv   time_s, class, lost_gpu_h              from /events (interrupt)
# Variables: nclasses, classes[] (names, most frequent first; "class" above
# is the index in it), class_failures[], class_interrupts[], ninterrupts,
# ncheckpoints, ettr.

nrows = nclasses + 2

set title sprintf("Job timeline — %s (seed %d): ETTR %.1f%%, %d interruptions, %d checkpoints", \
                  scenario, seed, 100 * ettr, ninterrupts, ncheckpoints)
set xlabel sprintf('time (%s)', tunit)
set xrange [0:tend]
set yrange [nrows + 0.6:0.4]
set ytics scale 0 ('job state' 1, 'checkpoints' 2)
maxlen = 12
do for [i = 1:nclasses] {
    lab = sprintf('%s failures (%d)', classes[i], class_failures[i])
    set ytics add (lab i + 2)
    maxlen = strlen(lab) > maxlen ? strlen(lab) : maxlen
}
set lmargin maxlen + 2
set grid xtics noytics
set border 1
set key outside right top vertical Left reverse samplen 1.5 spacing 1.3

# The band: green (computing: running or checkpointing; the checkpoints
# have their own row) where nothing else is drawn; in each bin, the share of
# time waiting, restarting and detecting rises from the bottom edge, the share done or
# pending hangs from the top edge.
band = 0.64
set object 1 rectangle from 0, 1 - band / 2 to tend, 1 + band / 2 fc rgb c_green fs solid 1.0 noborder back
share(k) = k == 1 ? $4 : k == 2 ? $5 : k == 3 ? $8 : k == 4 ? $3 : $9
layer_rgb(k) = k == 1 ? 0xD55E00 : k == 2 ? 0xE69F00 : k == 3 ? 0xC8C8C8 : k == 4 ? 0xE8E8E8 : 0xCC79A7
ymid(k) = k == 1 ? 1 + band / 2 - band * $4 / 2 : k == 2 ? 1 + band / 2 - band * ($4 + $5 / 2) : \
          k == 3 ? 1 - band / 2 + band * $8 / 2 : k == 4 ? 1 - band / 2 + band * ($8 + $3 / 2) : \
          1 + band / 2 - band * ($4 + $5 + $9 / 2)

plot \
    for [k = 1:5] datadir.'state_share.csv' \
        using ($1 / tscale):(ymid(k)):(0.5 * $2 / tscale):(band * share(k) / 2):(layer_rgb(k)) \
        with boxxyerror fc rgb variable, \
    datadir.'checkpoints.csv' using ($1 / tscale):(2 - 0.25):(0):(0.5) with vectors nohead lw 0.6 lc rgb c_blue, \
    datadir.'failures.csv' using ($1 / tscale):($2 + 2):(pal($2)) with points pt 6 ps 1.3 lw 1.5 lc rgb variable, \
    datadir.'interrupts.csv' using ($1 / tscale):($2 + 2):(pal($2)) with points pt 7 ps 1.3 lc rgb variable, \
    keyentry with boxes fc rgb '#009E73' title 'computing', \
    keyentry with vectors nohead lw 1 lc rgb c_blue title 'checkpoint', \
    keyentry with boxes fc rgb '#E69F00' title 'restarting', \
    keyentry with boxes fc rgb '#D55E00' title 'waiting for nodes', \
    keyentry with boxes fc rgb '#CC79A7' title 'hung, until detected', \
    keyentry with boxes fc rgb '#C8C8C8' title 'done', \
    keyentry with points pt 7 ps 1.2 lc rgb c_ink title 'failure: job interrupted', \
    keyentry with points pt 6 ps 1.2 lc rgb c_ink title 'failure off the job'
