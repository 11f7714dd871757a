# Shared by the lesson scripts: finds dcsim and the scenarios, runs one simulation, reads its
# figures.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shared by the lesson scripts: finds dcsim and the scenarios, runs one
# simulation and reads figures from its JSON summary (plain sh and awk).

here=$(cd "$(dirname "$0")" && pwd)
flagship="$here/../10k_gpu.cfg"
if [ -z "${DCSIM:-}" ]; then
    if [ -x "$here/../../dcsim" ]; then
        DCSIM="$here/../../dcsim"          # in the source tree, after make
    elif command -v dcsim >/dev/null 2>&1; then
        DCSIM=dcsim                        # installed
    else
        echo "$0: dcsim not found: build it (make) or set DCSIM=/path/to/dcsim" >&2
        exit 2
    fi
fi

# run [dcsim run arguments...]: the JSON summary into $json; on failure the
# message into $run_error and status 1.
run() {
    if json=$("$DCSIM" run "$@" --no-trace --json 2>/tmp/dcsim_lesson.$$); then
        rm -f /tmp/dcsim_lesson.$$
        return 0
    fi
    run_error=$(sed 's/^dcsim: //' /tmp/dcsim_lesson.$$)
    rm -f /tmp/dcsim_lesson.$$
    return 1
}

# val KEY: a figure of the last run ("null" when not a number).
val() {
    printf '%s\n' "$json" | awk -v k="\"$1\":" '$1 == k { v = $2; sub(/,$/, "", v); print v; found = 1; exit }
        END { if (!found) print "null" }'
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
# nodes), a horizon long enough for the slowest run.
size_sets() {
    nodes=$(( $1 / 8 ))
    echo "--set cluster.nodes=$nodes --set cluster.spare_nodes=$(( (nodes + 19) / 20 ))" \
         "--set job.nodes=$nodes --set repair.crews=$(( (nodes + 319) / 320 )) --set horizon_days=4000.0"
}
