#!/usr/bin/env bash
# bench/boundary.sh: the boundary sweep: every ranged key at its minimum and maximum on every shipped scenario.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# For each scenario and each key with a numeric range in `dcsim keys`, runs
# `dcsim run SCENARIO --no-trace --quiet --set KEY=MIN` and the same at MAX
# (an exclusive bound nudged inside it: 0 becomes 1e-300, b becomes b x (1 +-
# 1e-12)), list keys on their first element ([] -> [0]), each run under a
# memory limit (ulimit -v) and a time limit (timeout).  A run may succeed
# (0) or refuse the value (2: bad input) with a message of the shape
# `dcsim: FILE:LINE: KEY: ...` or, for a value that came from --set,
# `dcsim: (--set) KEY: ...` (or `dcsim: --set KEY=VALUE: ...` from the parser
# of --set: a list element the scenario lacks); anything else is a defect
# (bench/sweepcheck.sh, shared with bench/combos.sh): a crash (a signal), a
# hang (over the time limit), over the memory limit, status 1 (a failure that
# is not the input's), a refusal whose message names no file, line and key, or
# a sanitizer's report on standard error (ASan, UBSan, LeakSanitizer) whatever
# the status.  Each defect is printed with the command that reproduces it.
#
# usage: bench/boundary.sh [DCSIM [SRCDIR]]       (make boundary)
# environment: BOUNDARY_TIME_S   time limit per run (default 20)
#              BOUNDARY_MEM_KB   ulimit -v per run (default 2000000; unlimited under ASan, which
#                             reserves terabytes of address space: give it ASAN_OPTIONS=hard_rss_limit_mb)
#              BOUNDARY_SCENARIOS  scenarios to run (default: every scenarios/**/*.cfg)
#              BOUNDARY_HORIZON_DAYS  horizon of each run (default 2; the horizon_days key keeps its own)
#              BOUNDARY_KEYS  an extended regular expression: only matching keys
#              BOUNDARY_LONG_X  the time limit's factor for horizon_days at its maximum (default 20):
#                             a 100-year horizon is a long run by definition, not a hang (mixed/shared.cfg's
#                             service runs to the horizon: ~30 s on a quiet 2-core machine, 82 s under load 8)
#              BOUNDARY_PLAN  a file of lines `KEY SCENARIO` (KEY as listed, [0] for []): each key's
#                             two values run on its scenario only, instead of on every scenario; a
#                             ranged key without a line is a defect, so the plan covers every key
#                             (tests/test_boundary.c makes one: make check)
#              BOUNDARY_LIST=1  print the values (`KEY VALUE`, two lines a key) and run nothing
# Prints one line per defect and the counts; exit status 1 when there is a defect, 2 on bad usage.
set -u
. "$(dirname "$0")/sweepcheck.sh"
dcsim=${1:-./dcsim}
src=${2:-.}
time_s=${BOUNDARY_TIME_S:-20}
mem_kb=${BOUNDARY_MEM_KB:-2000000}
horizon=${BOUNDARY_HORIZON_DAYS:-2}
keys_re=${BOUNDARY_KEYS:-.}
sweep_need "$dcsim"
scenarios=${BOUNDARY_SCENARIOS:-$(find "$src/scenarios" -name '*.cfg' | sort)}
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim-boundary.XXXXXX")
trap 'rm -rf "$work"' EXIT

# KEY LOW HIGH: the values to try, one line each (from the Range column).
"$dcsim" keys | awk -F'|' -v re="$keys_re" "$sweep_awk"'
    sweep_range() {
        key = sweep_key(); if (key !~ re) next
        gsub(/\[\]/, "[0]", key)
        lo = inside(R_LO + 0, 1, R_LO_EX); hi = inside(R_HI + 0, 0, R_HI_EX)
        if (R_INT) { lo = sprintf("%.0f", R_LO + R_LO_EX); hi = sprintf("%.0f", R_HI - R_HI_EX) }
        print key, lo; print key, hi
    }' >"$work/values"
n_values=$(wc -l <"$work/values")
if [ "${BOUNDARY_LIST:-0}" = 1 ]; then
    cat "$work/values"
    exit 0
fi

# SCENARIO KEY VALUE: the runs, in order.
if [ -n "${BOUNDARY_PLAN:-}" ]; then
    if [ ! -r "$BOUNDARY_PLAN" ]; then
        echo "$0: cannot read the plan $BOUNDARY_PLAN" >&2
        exit 2
    fi
    awk 'NR == FNR { if (NF == 2) sc[$1] = $2; next }
         ($1 in sc) { print sc[$1], $1, $2; next }
         { print "-", $1, $2 }' "$BOUNDARY_PLAN" "$work/values" >"$work/runs"
else
    for sc in $scenarios; do
        awk -v sc="$sc" '{ print sc, $1, $2 }' "$work/values"
    done >"$work/runs"
fi

last_sc=
while read -r sc key value; do
    if [ "$sc" = - ]; then
        total=$((total + 1))
        sweep_defect "no scenario in the plan for $key ($BOUNDARY_PLAN)"
        continue
    fi
    if [ -n "$last_sc" ] && [ "$sc" != "$last_sc" ] && [ -z "${BOUNDARY_PLAN:-}" ]; then
        echo "boundary: $last_sc done ($total runs so far: $ok ran, $refused refused, $defects defects)" >&2
    fi
    last_sc=$sc
    sets=(--set "$key=$value")
    limit_s=$time_s
    if [ "$key" = horizon_days ]; then
        awk -v v="$value" -v h="$horizon" 'BEGIN { exit !(v + 0 > 100 * h) }' && limit_s=$((time_s * ${BOUNDARY_LONG_X:-20}))
    else
        sets+=(--set "horizon_days=$horizon")
    fi
    sweep_run "$sc" "$limit_s" "$sc --set $key=$value" "${sets[@]}"
done <"$work/runs"
[ -n "$last_sc" ] && [ -z "${BOUNDARY_PLAN:-}" ] &&
    echo "boundary: $last_sc done ($total runs so far: $ok ran, $refused refused, $defects defects)" >&2
if [ -n "${BOUNDARY_PLAN:-}" ]; then
    what="$n_values values on their plan's scenarios"
else
    what="$n_values values x scenarios"
fi
echo "boundary: $total runs ($what), $ok ran, $refused refused with a message (status 2), $defects defects; limits ${time_s} s, ${mem_kb} KB"
[ "$defects" -eq 0 ]
