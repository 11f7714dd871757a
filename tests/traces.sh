#!/bin/sh
# The pandas recipe of docs/traces.md, run as written on a fresh trace and sweep.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Extracts the python block after "<!-- recipe: tests/traces.sh runs this
# block -->" in docs/traces.md, runs it with Debian's python3 (python3-h5py,
# python3-pandas; skipped, status 77, with a message where they are absent)
# in a directory holding the flagship's trace and a small sweep, and checks
# what it prints against dcsim: the ETTR (Python's repr and dcsim run --get
# both print the shortest digits that read back exactly) and the number of
# events (dcsim export).
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || echo /nonexistent)
if ! "$py" -c 'import h5py, pandas' 2>/dev/null; then
    echo "SKIP: docs/traces.md's recipe needs python3-h5py and python3-pandas (apt-get install -y python3-h5py python3-pandas)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_traces.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
sed -n '/^<!-- recipe: tests\/traces.sh runs this block -->$/,/^```$/p' "$DCSIM_SRCDIR/docs/traces.md" |
    sed '1,2d;$d' > recipe.py
[ -s recipe.py ] || { echo "FAIL: docs/traces.md has no recipe block"; exit 1; }
"$DCSIM" run "$DCSIM_SRCDIR/scenarios/10k_gpu.cfg" -o 10k_gpu.h5 --quiet || exit 1
"$DCSIM" sweep "$DCSIM_SRCDIR/scenarios/10k_gpu.cfg" --reps 6 --vary checkpoint.interval_s=600,1200 -o sweep.h5 \
    --quiet || exit 1
if ! "$py" recipe.py > out.txt 2> err.txt; then
    echo "FAIL: the recipe of docs/traces.md failed:"
    cat err.txt
    exit 1
fi
cat out.txt
fail=0
ettr=$("$DCSIM" run "$DCSIM_SRCDIR/scenarios/10k_gpu.cfg" --no-trace --get job.ettr)
grep -qx "ETTR $ettr" out.txt || { echo "FAIL: the recipe should print 'ETTR $ettr'"; fail=1; }
grep -q "^fewest nodes up " out.txt || { echo "FAIL: the recipe should print the fewest nodes up (/series)"; fail=1; }
events=$(( $("$DCSIM" export 10k_gpu.h5 /events | wc -l) - 1 ))
grep -qx "events $events" out.txt || { echo "FAIL: the recipe should print 'events $events'"; fail=1; }
grep -q "^$("$DCSIM" --version | head -1 | cut -d' ' -f2) " out.txt ||
    { echo "FAIL: the recipe does not print the trace's dcsim version"; fail=1; }
grep -qF "event columns {'time_s': 's', 'kind': '', " out.txt ||
    { echo "FAIL: the recipe should print the units of /events (time_s in s)"; fail=1; }
grep -q 'grid_point' out.txt || { echo "FAIL: the recipe prints no sweep table"; fail=1; }
[ $fail -eq 0 ] && echo "docs/traces.md's recipe runs and agrees with dcsim"
exit $fail
