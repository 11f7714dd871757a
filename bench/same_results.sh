#!/bin/sh
# bench/same_results.sh: checks that two dcsim binaries give the same results on every shipped scenario.
# SPDX-License-Identifier: GPL-3.0-or-later.  Copyright (C) 2026 the dcsim developers; see COPYING.
#
# For a change that must not move any figure (a refactoring, a speed-up):
# runs every scenarios/**/*.cfg with both binaries, same seed, and compares
# the JSON summaries byte for byte and the HDF5 traces with h5diff (every
# dataset and attribute but the wall-clock `started_at`).
#
# usage: bench/same_results.sh OLD_DCSIM NEW_DCSIM [SRCDIR]
#   OLD_DCSIM   the binary before the change (e.g. built from `git stash` or
#               a worktree of the parent commit)
#   NEW_DCSIM   the binary after it
#   SRCDIR      the source tree whose scenarios/ are run (default: .)
# environment: SAME_HORIZON_DAYS  run each scenario for at most this many
#              days (default: the scenario's own horizon)
#              SAME_TRACES=export  compare the traces as NEW_DCSIM's `dcsim
#              export` CSV of every dataset either lists (for a change of the
#              trace's format, whose bytes then differ) instead of h5diff
# Exit status 0 when every scenario agrees, 1 when one differs (named on
# standard error), 2 on bad usage.

set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 OLD_DCSIM NEW_DCSIM [SRCDIR]" >&2
    exit 2
fi
src=${3:-.}
for b in "$1" "$2"; do
    if [ ! -x "$b" ] || [ -d "$b" ]; then
        echo "$0: $b is not an executable" >&2
        exit 2
    fi
done
# absolute, since each scenario runs in its own folder (relative trace and
# environment files resolve there)
old=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
new=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
if ! command -v h5diff >/dev/null 2>&1; then
    echo "$0: h5diff not found (Debian package hdf5-tools)" >&2
    exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/same_results.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

set --
if [ -n "${SAME_HORIZON_DAYS:-}" ]; then
    set -- --set "horizon_days=$SAME_HORIZON_DAYS"
fi

status=0
n=0
for cfg in $(find "$src/scenarios" -name '*.cfg' | sort); do
    name=$(echo "${cfg#"$src"/scenarios/}" | tr '/' '_')
    name=${name%.cfg}
    for side in old new; do
        eval bin=\$$side
        # shellcheck disable=SC2154 # bin is set by eval
        (cd "$(dirname "$cfg")" && "$bin" run "$(basename "$cfg")" --quiet --json "$@" \
            -o "$work/$name.$side.h5") > "$work/$name.$side.json" 2> "$work/$name.$side.err"
        echo $? > "$work/$name.$side.rc"
    done
    n=$((n + 1))
    if ! cmp -s "$work/$name.old.rc" "$work/$name.new.rc"; then
        echo "$cfg: exit status $(cat "$work/$name.old.rc") before, $(cat "$work/$name.new.rc") after" >&2
        status=1
        continue
    fi
    if ! cmp -s "$work/$name.old.json" "$work/$name.new.json"; then
        echo "$cfg: the JSON summaries differ:" >&2
        diff "$work/$name.old.json" "$work/$name.new.json" | head -20 >&2
        status=1
    fi
    if ! cmp -s "$work/$name.old.err" "$work/$name.new.err"; then
        echo "$cfg: the messages on standard error differ:" >&2
        diff "$work/$name.old.err" "$work/$name.new.err" | head -20 >&2
        status=1
    fi
    if [ "${SAME_TRACES:-}" = export ] && { [ -f "$work/$name.old.h5" ] || [ -f "$work/$name.new.h5" ]; }; then
        bad=""
        # every dataset either trace lists (format 1's /summary_table has no
        # format 2 counterpart: /summary holds it)
        for side in old new; do
            "$new" export "$work/$name.$side.h5" 2>&1 | sed 's/.*It has: //' | tr ' ' '\n' | grep '^/'
        done | grep -vx /summary_table | sort -u > "$work/$name.list"
        for p in $(cat "$work/$name.list"); do
            "$new" export "$work/$name.old.h5" "$p" -o "$work/$name.old.csv" &&
                "$new" export "$work/$name.new.h5" "$p" -o "$work/$name.new.csv" &&
                cmp -s "$work/$name.old.csv" "$work/$name.new.csv" || { bad=$p; break; }
        done
        if [ -n "$bad" ]; then
            echo "$cfg: the traces differ (export): $bad" >&2
            status=1
        fi
    elif [ -f "$work/$name.old.h5" ] || [ -f "$work/$name.new.h5" ]; then
        # every object and attribute but the wall-clock started_at (h5diff
        # calls two empty tables "not comparable": they are equal)
        h5diff -r -c "$work/$name.old.h5" "$work/$name.new.h5" > "$work/$name.diff" 2>&1
        if ! awk '/^(attribute|dataset|group): / { what = $0 }
                  / differences found$/ && $1 != "0" && what !~ /<started_at of/ { bad = 1; print what }
                  /^Not comparable:/ && !/is an empty dataset$/ { bad = 1; print }
                  /not found|cannot be compared/ { bad = 1; print }
                  END { exit bad }' "$work/$name.diff" > "$work/$name.bad"; then
            echo "$cfg: the traces differ:" >&2
            head -5 "$work/$name.bad" >&2
            status=1
        fi
    fi
done
if [ $status -eq 0 ]; then
    echo "same results on all $n scenarios (JSON summaries, messages, traces)"
fi
exit $status
