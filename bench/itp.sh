#!/bin/sh
# The ITP benchmark: the nine Microsoft ITP clusters replayed by dcsim one after the other, against plain Python.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# usage: bench/itp.sh DCSIM [ITP_DIR]
#   DCSIM    the dcsim program
#   ITP_DIR  the traces (default: ../shared/data/itp beside the source tree,
#            else /work/shared/data/itp); skipped with a message when absent
# environment: ITP_DAYS    days of each trace replayed (default 30)
#              ITP_SIZING  daily (default: the cluster holds the largest
#                          daily mean of the zero-wait node demand) or peak
#                          (its instantaneous peak: nobody waits)
#              ITP_CPU_REPS  N > 0: also each cluster's CPU time (user +
#                          system, median of N runs by bench/measure beside
#                          DCSIM: make bench/measure), dcsim's and Python's,
#                          and a process's cost whatever its work: a 1-job
#                          trace (the first cluster's first job) replayed by
#                          both, and `python -c pass`.  dcsim's runs here
#                          write over the trace of the run before (the old
#                          file's removal is in its time: a little more than
#                          the timed runs above pay).
#
# For each cluNN.csv: bench/itp_replay.py prepare converts it to dcsim's job
# CSV and a scenario in a temporary directory (never in the repository) and
# sizes the cluster.  Then, timed as whole processes: the nine `dcsim run
# NAME.cfg --quiet -o NAME.h5` (trace on) one after the other, and the nine
# `python3 bench/itp_replay.py replay` of the same policy (FIFO queue, EASY
# backfilling, exact estimates).  Then (untimed) every job's start time of
# dcsim's /jobs table is checked against Python's.  Prints one row per
# cluster and the totals; exit status 1 if a start time differs.
#
# What the times hold: nine processes each side, each with its start.
# Python is the interpreter itself (sys.executable), not a wrapper found
# first on PATH (pyenv's shim is a bash script that forks some forty
# processes per start); its start (the site module and whatever .pth files
# the installation has) is timed alone as nine `python -c pass` and shown,
# with the ratio over the replays without it.  dcsim's side writes a trace
# of every job and event (Python's writes start times).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
bench_args 1 2 "DCSIM [ITP_DIR]" "$@"
dcsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
bench_itp "$here" "${2:-}"
days=${ITP_DAYS:-30}
sizing=${ITP_SIZING:-daily}
bench_tmpdir itp
work=$tmp
py=$("$py" -c 'import sys; print(sys.executable)') || exit 1

names=""
for f in "$itp"/cluster*.csv; do
    "$py" "$here/itp_replay.py" prepare "$f" "$work" "$days" "$sizing" >> "$work/sizes" || exit 1
    names="$names $(basename "$f" .csv)"
done

now_ms() { date +%s%N | awk '{ printf "%.1f", $1 / 1e6 }'; }

# dcsim: all nine, one after the other, trace on
t0=$(now_ms)
for n in $names; do
    (cd "$work" && "$dcsim" run "$n.cfg" --quiet -o "$n.h5" > /dev/null) || { echo "$0: dcsim failed on $n" >&2; exit 1; }
done
t1=$(now_ms)
# plain Python: the same nine
for n in $names; do
    nodes=$(awk -v n="$n" '$1 == n { print $2 }' "$work/sizes")
    "$py" "$here/itp_replay.py" replay "$work/$n.csv" "$nodes" "$work/$n.py.txt" || exit 1
done
t2=$(now_ms)
# the interpreter's start alone, nine times
for n in $names; do
    "$py" -c pass || exit 1
done
t3=$(now_ms)

status=0
printf '%-10s %6s %7s %10s  %s\n' cluster nodes jobs wait_mean_h check
for n in $names; do
    nodes=$(awk -v n="$n" '$1 == n { print $2 }' "$work/sizes")
    jobs=$(awk -v n="$n" '$1 == n { print $3 }' "$work/sizes")
    "$dcsim" export "$work/$n.h5" /jobs -o "$work/$n.jobs.csv" || exit 1
    wait=$("$dcsim" export "$work/$n.h5" /summary | awk -F, '$1 == "jobs.wait_mean_h" { printf "%.3f", $2 }')
    res=$("$py" "$here/itp_replay.py" check "$work/$n.jobs.csv" "$work/$n.py.txt") || status=1
    printf '%-10s %6s %7s %10s  %s\n' "$n" "$nodes" "$jobs" "$wait" "$(echo "$res" | head -1)"
done
awk -v d="$t0" -v e="$t1" -v f="$t2" -v g="$t3" -v py="$py" 'BEGIN {
    printf "dcsim, nine whole processes (trace on): %.0f ms\n", e - d
    printf "Python replay, nine whole processes:   %.0f ms (%s)\n", f - e, py
    printf "Python start alone, nine python -c pass: %.0f ms\n", g - f
    printf "dcsim is %.1fx faster (%.1fx without Python'"'"'s starts)\n", (f - e) / (e - d), (f - e - (g - f)) / (e - d) }'

reps=${ITP_CPU_REPS:-0}
if [ "$reps" -gt 0 ]; then
    measure=$(dirname "$dcsim")/bench/measure
    bench_built "make bench/measure" "$measure"
    first=${names# }
    first=${first%% *}
    head -n 2 "$work/$first.csv" > "$work/one_job.csv"
    sed "s/$first\.csv/one_job.csv/" "$work/$first.cfg" > "$work/one_job.cfg"
    first_nodes=$(awk -v n="$first" '$1 == n { print $2 }' "$work/sizes")
    cpu() { "$measure" --reps "$reps" -- "$@" | tail -n 1 | sed 's/.*cpu_ms_median=\([0-9.]*\).*/\1/'; }
    echo "CPU time, median of $reps runs each (bench/measure):"
    printf '%-10s %7s %9s %10s %6s\n' cluster jobs dcsim_ms python_ms ratio
    for n in one_job $names; do
        if [ "$n" = one_job ]; then nodes=$first_nodes jobs=1; else
            nodes=$(awk -v n="$n" '$1 == n { print $2 }' "$work/sizes")
            jobs=$(awk -v n="$n" '$1 == n { print $3 }' "$work/sizes")
        fi
        d=$(cd "$work" && cpu "$dcsim" run "$n.cfg" --quiet -o "$n.cpu.h5") || exit 1
        p=$(cpu "$py" "$here/itp_replay.py" replay "$work/$n.csv" "$nodes" "$work/$n.cpu.txt") || exit 1
        printf '%-10s %7s %9s %10s %6s\n' "$n" "$jobs" "$d" "$p" "$(awk -v d="$d" -v p="$p" 'BEGIN { printf "%.1f", p / d }')"
        [ "$n" = one_job ] || echo "$d $p" >> "$work/cpu"
    done
    s=$(cpu "$py" -c pass) || exit 1
    awk -v s="$s" '{ d += $1; p += $2 } END {
        printf "%d clusters: dcsim %.1f ms, Python %.1f ms: %.1fx; python -c pass %.1f ms (%d of them: %.1f ms)\n", NR, d, p, p / d, s, NR, NR * s }' "$work/cpu"
fi
exit $status
