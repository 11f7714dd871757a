# Shared by the lesson scripts: finds dcsim and the scenarios, runs one simulation, reads its
# figures through dcsim run --get.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# A lesson sets $want (the summary keys it reads, separated by spaces),
# calls `run ARGS...` for each row and `val KEY` for each figure; a run
# that dcsim refuses prints its reason in the row, and a job that does not
# finish within the horizon says "did not finish" (job.completed = 0).

. "$(dirname "$0")/../find_dcsim.sh"
flagship="$here/../10k_gpu.cfg"
errfile=$(mktemp "${TMPDIR:-/tmp}/dcsim_lesson.XXXXXX") || exit 2
trap 'rm -f "$errfile"' EXIT

# run [dcsim run arguments...]: the figures named in $want into $figs; on
# failure dcsim's message (without "dcsim: ") into $run_error and status 1.
run() {
    if figs=$("$DCSIM" run "$@" --no-trace --get "$(echo $want | tr ' ' ,)" 2>"$errfile"); then
        return 0
    fi
    run_error=$(sed 's/^dcsim: //' "$errfile")
    return 1
}

# val KEY: a figure of the last run, as dcsim prints it ("-" when not a number).
val() {
    i=1
    for k in $want; do
        if [ "$k" = "$1" ]; then
            printf '%s\n' "$figs" | cut -f "$i"
            return 0
        fi
        i=$((i + 1))
    done
    echo "$0: $1 is not in want (the lesson's list of figures)" >&2
    exit 2
}

# finished: whether the last run's job completed within the horizon.
finished() {
    [ "$(val job.completed)" = 1 ]
}

# calc EXPR: floating-point arithmetic for the scripts.
calc() {
    awk "BEGIN { x = $1; print x }"
}

# fmt FORMAT VALUE: one number formatted by printf.
fmt() {
    awk -v f="$1" -v x="$2" 'BEGIN { printf f, x }'
}

# The --set options that size the flagship's cluster for G GPUs: 8 GPUs a
# node, 5% spare nodes, repair crews in the flagship's ratio (4 per 1,280
# nodes), a horizon long enough for the slowest run, and a site sized for
# it: no site power cap (power is not these lessons' subject; lesson 1
# shows the IT power each size draws) and the cooling
# plant scaled with the nodes (the flagship's 15 MW per 1,280 nodes, never
# less than its 15 MW).
size_sets() {
    nodes=$(( $1 / 8 ))
    cooling=$(( nodes * 15000 / 1280 ))
    [ "$cooling" -lt 15000 ] && cooling=15000
    echo "--set cluster.nodes=$nodes --set cluster.spare_nodes=$(( (nodes + 19) / 20 ))" \
         "--set job.nodes=$nodes --set repair.crews=$(( (nodes + 319) / 320 )) --set horizon_days=4000.0" \
         "--set power.site_cap_mw=100000.0 --set cooling.capacity_kw=$cooling.0"
}
