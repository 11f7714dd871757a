# bench/common.sh: the prologue the benchmark scripts share: arguments, built programs, a temporary folder, the ITP traces.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Sourced by bench/*.sh (`. "$(dirname "$0")/common.sh"`), POSIX sh:
#   bench_args N_MIN N_MAX USAGE "$@"  usage message and exit 2 unless N_MIN..N_MAX arguments
#   bench_built TARGET PROG...         exit 1 naming the make target unless every PROG is built
#   bench_tmpdir NAME                  $tmp: a new folder, removed at exit; SIGINT/SIGTERM exit 130
#   bench_itp HERE [DIR]               $itp: the ITP traces (DIR, else ../shared/data/itp beside
#                                      the source tree, else /work/shared/data/itp) and $py:
#                                      python3; exit 0 with a message (skipped) when either is missing

bench_args() {
    _min=$1 _max=$2 _usage=$3
    shift 3
    if [ $# -lt "$_min" ] || [ $# -gt "$_max" ]; then
        echo "usage: $0 $_usage" >&2
        exit 2
    fi
}

bench_built() {
    _target=$1
    shift
    for _prog in "$@"; do
        [ -x "$_prog" ] || { echo "$0: $_prog is not built ($_target builds it)" >&2; exit 1; }
    done
}

bench_tmpdir() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/dcsim-$1.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 130' INT TERM
}

bench_itp() {
    itp=${2:-$1/../../shared/data/itp}
    [ -d "$itp" ] || itp=/work/shared/data/itp
    if [ ! -r "$itp/cluster01.csv" ]; then
        echo "$0: no ITP traces in $itp: skipped"
        exit 0
    fi
    py=$(command -v python3) || { echo "$0: python3 not found: skipped"; exit 0; }
}
