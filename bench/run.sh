#!/bin/sh
# The benchmarks of make bench: the event queue's hold model, then whole dcsim runs.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).

# The benchmarks (`make bench`): the event queue's hold model, then whole
# dcsim runs timed by bench/measure (median wall time, peak RSS).
#
# usage: bench/run.sh BUILDDIR SRCDIR
# environment: REPS        runs of each 10k-GPU case (default 5)
#              REPS_LARGE  runs of each 128,000-node case (default: REPS;
#                          set it to 1 if those runs become slow)
#              EVENTQ_ARGS arguments for bench_eventq (default: none)

set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILDDIR SRCDIR" >&2
    exit 2
fi
builddir=$1
srcdir=$2
reps=${REPS:-5}
reps_large=${REPS_LARGE:-$reps}
bench_eventq=$builddir/bench/bench_eventq
measure=$builddir/bench/measure
dcsim=$builddir/dcsim
scenario=$srcdir/scenarios/10k_gpu.cfg

for prog in "$bench_eventq" "$measure"; do
    if [ ! -x "$prog" ]; then
        echo "$0: $prog is not built (make bench builds it)" >&2
        exit 1
    fi
done

status=0

echo "== event queue (bench_eventq)"
# shellcheck disable=SC2086 # EVENTQ_ARGS is a list of words
"$bench_eventq" ${EVENTQ_ARGS:-} || status=1
echo

echo "== dcsim, whole process (bench/measure: median wall time, peak RSS)"
if [ ! -x "$dcsim" ]; then
    echo "$0: $dcsim is not built: skipping the dcsim runs" >&2
    exit 1
fi
if [ ! -r "$scenario" ]; then
    echo "$0: $scenario not found: skipping the dcsim runs" >&2
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dcsim-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
trace=$tmp/x.h5

printf '%-22s %5s %12s %12s %10s\n' case reps wall_ms peak_rss_kb trace_kb

# case_row LABEL REPS CMD ARGS...: one row of the table.
case_row() {
    label=$1
    n=$2
    shift 2
    rm -f "$trace"
    if ! "$measure" --reps "$n" -- "$@" >"$tmp/out" 2>"$tmp/err"; then
        printf '%-22s %5s  FAILED: %s\n' "$label" "$n" "$*"
        sed 's/^/    /' "$tmp/err" | tail -n 20
        status=1
        return
    fi
    line=$(tail -n 1 "$tmp/out")
    wall=$(printf '%s\n' "$line" | sed -n 's/.*wall_ms_median=\([0-9.]*\).*/\1/p')
    rss=$(printf '%s\n' "$line" | sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p')
    tkb=-
    if [ -f "$trace" ]; then
        tkb=$(( $(wc -c <"$trace") / 1024 ))
    fi
    printf '%-22s %5s %12s %12s %10s\n' "$label" "$n" "${wall:-?}" "${rss:-?}" "$tkb"
}

case_row "10k GPUs" "$reps" \
    "$dcsim" run "$scenario" --quiet --no-trace
case_row "10k GPUs + trace" "$reps" \
    "$dcsim" run "$scenario" --quiet -o "$trace"
# 1,024,000 GPUs need a fabric with more pods and a global batch of at least
# one micro-batch per data-parallel rank (8,000 ranks of 8,192 tokens).
large="--set cluster.nodes=128000 --set job.nodes=128000 --set cluster.spare_nodes=6400"
large="$large --set network.switch_radix=512 --set parallelism.global_batch_tokens=134217728.0"
# ... and a site and a cooling plant 100 times the flagship's.
large="$large --set power.site_cap_mw=1130.0 --set cooling.capacity_kw=1500000.0"
# shellcheck disable=SC2086 # $large is a list of words
case_row "128k nodes" "$reps_large" \
    "$dcsim" run "$scenario" --quiet --no-trace $large
# shellcheck disable=SC2086
case_row "128k nodes + trace" "$reps_large" \
    "$dcsim" run "$scenario" --quiet -o "$trace" $large

exit $status
