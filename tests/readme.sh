#!/bin/sh
# The README's commands: the quick-start lines agree with .ci/run, and the walk-through runs as written.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Checks, with the dcsim of the build tree ($DCSIM) and the sources ($DCSIM_SRCDIR):
#  - the README's test line is exactly the line .ci/run runs, and its
#    first line (install, build, run the flagship) starts with that line's
#    apt-get part;
#  - every command of "A first hour with dcsim" (the indented lines that
#    start with dcsim or python3) runs, in a fresh directory where
#    scenarios/ is the source tree's, and leaves what the README says;
#  - the summary lines the README shows are lines dcsim prints, and the
#    sweep's means are those the README quotes (a model change that moves
#    them fails here until the README is updated).
# The lessons (step 7) are run by tests/lessons.sh.
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
readme="$DCSIM_SRCDIR/README.md"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# --- the quick start against .ci/run ---
ci_line=$(sed -n '/^# --- README quick start, second line (keep identical) ---$/{n;p;}' "$DCSIM_SRCDIR/.ci/run")
[ -n "$ci_line" ] || bad ".ci/run has no line after '# --- README quick start, second line (keep identical) ---'"
grep -qxF "    $ci_line" "$readme" || bad "README.md does not show .ci/run's line exactly: $ci_line"
deps=${ci_line%% && ./autogen.sh*}
first_line="$deps && ./autogen.sh && ./configure && make -j2 && make install && dcsim run scenarios/10k_gpu.cfg"
grep -qxF "    $first_line" "$readme" ||
    bad "README.md's first quick-start line is not .ci/run's apt-get part, the build and install, and the flagship run: $first_line"
echo "quick start: README and .ci/run agree"

# --- the walk-through ---
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_readme.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/run"
ln -s "$DCSIM" "$work/bin/dcsim"
ln -s "$DCSIM_SRCDIR/scenarios" "$work/run/scenarios"
# A fresh Debian's python3 is /usr/bin/python3 (with python3-h5py).
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
ln -s "$(command -v $py || echo /nonexistent)" "$work/bin/python3"
PATH="$work/bin:$PATH"
export PATH

section=$(sed -n '/^## A first hour with dcsim$/,/^## /p' "$readme")
printf '%s\n' "$section" | sed -n 's/^    \(dcsim .*\|python3 .*\)$/\1/p' > "$work/commands"
[ "$(wc -l < "$work/commands")" -ge 6 ] || bad "found only $(wc -l < "$work/commands") walk-through commands"
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    case "$cmd" in
    python3*)
        if ! python3 -c 'import h5py' 2>/dev/null; then
            echo "step $n skipped (no h5py: apt-get install python3-h5py): $cmd"
            continue
        fi ;;
    esac
    (cd "$work/run" && sh -c "$cmd") > "$work/out.$n" 2> "$work/err.$n"
    status=$?
    if [ $status -ne 0 ]; then
        bad "walk-through step '$cmd' exited $status: $(cat "$work/err.$n")"
    else
        echo "ran: $cmd"
    fi
done < "$work/commands"

cd "$work/run" || exit 1
[ -s 10k_gpu.h5 ] || bad "dcsim run scenarios/10k_gpu.cfg wrote no 10k_gpu.h5"
grep -q '"job.ettr":' 10k_gpu.json 2>/dev/null || bad "10k_gpu.json has no job.ettr"
ls 10k_gpu_figures/*.png > /dev/null 2>&1 || bad "dcsim plot 10k_gpu.h5 drew nothing into 10k_gpu_figures/"
head -c 200 gpu_hours.svg 2>/dev/null | grep -q '<svg' || bad "gpu_hours.svg is not an SVG"
[ -s sweep.h5 ] || bad "the sweep wrote no sweep.h5"
grep -q '<svg' 10k_gpu.html 2>/dev/null || bad "dcsim report --html wrote no page with figures (10k_gpu.html)"
grep -q '<h2>Risk</h2>' sweep.html 2>/dev/null || bad "the sweep's page (sweep.html) has no risk table"
[ "$(head -c 4 sweep_days.png 2>/dev/null | tail -c 3)" = PNG ] || bad "sweep_days.png is not a PNG"

# The summary lines shown in step 1 are lines of the run's output.
run_out=$(grep -l '^Where the GPU-hours went' "$work"/out.* | head -1)
printf '%s\n' "$section" | sed -n '/^```$/,/^```$/p' | sed '1d;$d' | sed -n '/^```$/q;p' |
    grep -v '^ *\.\.\.$' > "$work/shown"
while IFS= read -r line; do
    grep -qxF -- "$line" "$run_out" || bad "README shows '$line', dcsim run prints no such line"
done < "$work/shown"

# The sweep's mean days to train, as step 5 quotes them.
sweep_out=$(grep -l '^grid point 1 of 3' "$work"/out.* | head -1)
means=$(awk '$1 == "job.completion_days" { printf "%s%.1f", n++ ? " " : "", $2 }' "$sweep_out")
set -- $means
quote="mean days to train: $1 at 500 s, $2 at 1,000 s, $3 at 2,000 s"
printf '%s\n' "$section" | tr '\n' ' ' | grep -qF "$quote" || bad "README step 5 should say '$quote'"

[ $fail -eq 0 ] && echo "the README's walk-through runs as written"
exit $fail
