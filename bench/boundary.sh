#!/usr/bin/env bash
# bench/boundary.sh: the boundary sweep: every ranged key at its minimum and maximum on every shipped scenario.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# For each scenario and each key with a numeric range in `dcsim keys`, runs
# `dcsim run SCENARIO --no-trace --quiet --set KEY=MIN` and the same at MAX
# (an exclusive bound nudged inside it: 0 becomes 1e-300, b becomes b x (1 +-
# 1e-12)), list keys on their first element ([] -> [0]), each run under a
# memory limit (ulimit -v) and a time limit (timeout).  A run may succeed
# (0) or refuse the value (2: bad input, with a message); anything else is a
# defect: a crash (a signal), a hang (over the time limit), over the memory
# limit, or status 1 (a failure that is not the input's).
#
# usage: bench/boundary.sh [DCSIM [SRCDIR]]       (make boundary)
# environment: BOUNDARY_TIME_S   time limit per run (default 20)
#              BOUNDARY_MEM_KB   ulimit -v per run (default 2000000)
#              BOUNDARY_SCENARIOS  scenarios to run (default: every scenarios/**/*.cfg)
#              BOUNDARY_HORIZON_DAYS  horizon of each run (default 2; the horizon_days key keeps its own)
#              BOUNDARY_KEYS  an extended regular expression: only matching keys
#              BOUNDARY_LONG_X  the time limit's factor for horizon_days at its maximum (default 20):
#                             a 100-year horizon is a long run by definition, not a hang (mixed/shared.cfg's
#                             service runs to the horizon: ~30 s on a quiet 2-core machine, 82 s under load 8)
# Prints one line per defect and the counts; exit status 1 when there is a defect.
set -u
dcsim=${1:-./dcsim}
src=${2:-.}
time_s=${BOUNDARY_TIME_S:-20}
mem_kb=${BOUNDARY_MEM_KB:-2000000}
horizon=${BOUNDARY_HORIZON_DAYS:-2}
keys_re=${BOUNDARY_KEYS:-.}
if [ ! -x "$dcsim" ]; then
    echo "$0: $dcsim is not an executable" >&2
    exit 2
fi
scenarios=${BOUNDARY_SCENARIOS:-$(find "$src/scenarios" -name '*.cfg' | sort)}
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim-boundary.XXXXXX")
trap 'rm -rf "$work"' EXIT

# KEY LOW HIGH: the values to try, one line each (from the Range column).
"$dcsim" keys | awk -F'|' -v re="$keys_re" '
    function inside(b, lo, excl) {
        if (!excl) return b
        if (b == 0) return lo ? "1e-300" : "-1e-300"
        return sprintf("%.17g", lo ? (b > 0 ? b * (1 + 1e-12) : b * (1 - 1e-12)) : (b > 0 ? b * (1 - 1e-12) : b * (1 + 1e-12)))
    }
    $2 ~ /`/ && $6 ~ /[\[(][^,]*,[^\])]*[\])]/ {
        key = $2; gsub(/[` ]/, "", key); if (key !~ re) next
        r = $6; gsub(/ /, "", r)
        lo_ex = substr(r, 1, 1) == "("; hi_ex = substr(r, length(r), 1) == ")"
        r = substr(r, 2, length(r) - 2); split(r, b, ",")
        if (b[1] == "" || b[2] == "") next
        gsub(/\[\]/, "[0]", key)
        integer = $3 ~ /integer/
        lo = inside(b[1] + 0, 1, lo_ex); hi = inside(b[2] + 0, 0, hi_ex)
        if (integer) { lo = sprintf("%.0f", b[1] + lo_ex); hi = sprintf("%.0f", b[2] - hi_ex) }
        print key, lo; print key, hi
    }' >"$work/values"
n_values=$(wc -l <"$work/values")

ok=0; refused=0; defects=0; total=0
for sc in $scenarios; do
    while read -r key value; do
        total=$((total + 1))
        sets=(--set "$key=$value")
        limit_s=$time_s
        if [ "$key" = horizon_days ]; then
            awk -v v="$value" -v h="$horizon" 'BEGIN { exit !(v + 0 > 100 * h) }' && limit_s=$((time_s * ${BOUNDARY_LONG_X:-20}))
        else
            sets+=(--set "horizon_days=$horizon")
        fi
        (
            ulimit -v "$mem_kb"
            exec timeout -s KILL "$limit_s" "$dcsim" run "$sc" --no-trace --quiet "${sets[@]}" \
                >/dev/null 2>"$work/err"
        )
        st=$?
        case $st in
        0) ok=$((ok + 1)) ;;
        2)
            if head -c 5 "$work/err" | grep -q dcsim; then
                refused=$((refused + 1))
            else
                defects=$((defects + 1))
                echo "DEFECT status 2 without a message: $sc --set $key=$value"
            fi
            ;;
        137) defects=$((defects + 1)); echo "DEFECT over ${limit_s} s (killed): $sc --set $key=$value" ;;
        *)
            defects=$((defects + 1))
            echo "DEFECT status $st: $sc --set $key=$value: $(head -c 300 "$work/err")"
            ;;
        esac
    done <"$work/values"
    echo "boundary: $sc done ($total runs so far: $ok ran, $refused refused, $defects defects)" >&2
done
echo "boundary: $total runs ($n_values values x scenarios), $ok ran, $refused refused with a message (status 2), $defects defects; limits ${time_s} s, ${mem_kb} KB"
[ "$defects" -eq 0 ]
