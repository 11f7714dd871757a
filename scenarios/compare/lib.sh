# Shared by the comparison scripts: runs the variants and prints dcsim compare.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Shared by the comparison scripts: finds dcsim, runs each variant into a
# trace in a temporary directory, prints `dcsim compare` for the rows that
# matter (all rows with --all), and with --plot DIR draws the figures.
#
# A script sets: `keys` (an awk regular expression of the summary keys to
# show), calls `variant NAME dcsim-run-arguments...` once per variant (the
# first is the reference of the differences), then `finish [KIND...]` (the
# figures of runs drawn besides the grouped bars of `dcsim compare --plot`;
# `each` may name figures of one trace to draw for every variant).

. "$(dirname "$0")/../find_dcsim.sh"

plot_dir=
all=0
while [ $# -gt 0 ]; do
    case $1 in
    --plot) [ $# -ge 2 ] || { echo "$0: --plot needs a directory" >&2; exit 2; }
            plot_dir=$2; shift 2 ;;
    --all) all=1; shift ;;
    -h|--help) echo "usage: $0 [--all] [--plot DIR]"; exit 0 ;;
    *) echo "$0: unknown argument '$1' (usage: $0 [--all] [--plot DIR])" >&2; exit 2 ;;
    esac
done
if [ -n "$plot_dir" ] && [ ! -d "$plot_dir" ]; then
    mkdir -p "$plot_dir" || exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_compare.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
traces=

# variant NAME ARGS...: dcsim run ARGS -o WORK/NAME.h5 (NAME labels the column).
variant() {
    name=$1
    shift
    if ! "$DCSIM" run "$@" -o "$work/$name.h5" --quiet; then
        echo "$0: the variant '$name' failed" >&2
        exit 2
    fi
    traces="$traces $work/$name.h5"
}

# finish [KIND...]: the table, and with --plot the figures (named after the
# script, and $part when a script compares several things).
finish() {
    # shellcheck disable=SC2086
    if [ "$all" = 1 ]; then
        "$DCSIM" compare $traces || exit 2
    else
        "$DCSIM" compare $traces | awk -v k="$keys" '!seen { print; if ($1 == "figure") seen = 1; next } $1 ~ k' || exit 2
    fi
    [ -n "$plot_dir" ] || return 0
    base=$(basename "$0" .sh)${part:+_$part}
    # shellcheck disable=SC2086
    "$DCSIM" compare $traces --plot -o "$plot_dir/${base}_compare.png" >/dev/null || exit 2
    echo "wrote $plot_dir/${base}_compare.png"
    for kind in "$@"; do
        # shellcheck disable=SC2086
        "$DCSIM" plot --kind "$kind" $traces -o "$plot_dir/${base}_$kind.png" || exit 2
    done
    # Figures of one trace, once per variant ($each: kinds).
    for kind in ${each:-}; do
        for t in $traces; do
            "$DCSIM" plot "$t" --kind "$kind" -o "$plot_dir/${base}_$(basename "$t" .h5)_$kind.png" || exit 2
        done
    done
}

# next_part NAME: start another comparison in the same script.
next_part() {
    traces=
    part=$1
    echo
}
