# Shared by tests/mixed.sh and tests/planning.sh: run a shipped script, and keep its README's output block current.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Sourced (". tests/scriptcheck.sh") after the caller has set $work (a
# scratch directory), $update (true: rewrite the blocks), $regen (the make
# target that regenerates them, for the message), $script_errors (a grep
# pattern of text that must not appear in a script's output) and a function
# bad MESSAGE that records a failure.

# run DIR SCRIPT: scenarios/DIR/SCRIPT.sh's output into $work/SCRIPT.out;
# it must exit 0, write nothing to stderr and print nothing matching
# $script_errors (case-insensitive).
run() {
    if ! sh "$DCSIM_SRCDIR/scenarios/$1/$2.sh" > "$work/$2.out" 2> "$work/$2.err"; then
        bad "$1/$2.sh exited with an error: $(cat "$work/$2.err")"
    elif [ -s "$work/$2.err" ]; then
        bad "$1/$2.sh wrote to stderr: $(cat "$work/$2.err")"
    fi
    if grep -qi "$script_errors" "$work/$2.out"; then
        bad "$1/$2.sh printed an error or a number that is not one: $(grep -i "$script_errors" "$work/$2.out")"
    fi
    echo "ran $1/$2.sh"
}

# check DIR SCRIPT: the ``` block after "<!-- output of ./SCRIPT.sh" in
# scenarios/DIR/README.md is $work/SCRIPT.out (with $update, made so).
check() {
    readme=$DCSIM_SRCDIR/scenarios/$1/README.md
    awk -v f="$work/$2.out" -v tag="<!-- output of ./$2.sh" -v update="$update" -v st="$work/stale" '
        index($0, tag) == 1 { print; expect = 1; found = 1; next }
        expect == 1 && /^```/ { print; state = 1; expect = 0; n = 0; m = 0
            while ((getline line < f) > 0) want[++m] = line
            close(f); next }
        state == 1 && /^```$/ {
            if (update == "true") { for (i = 1; i <= m; i++) print want[i] }
            else { same = n == m; for (i = 1; i <= n && same; i++) same = have[i] == want[i]
                   if (!same) print "stale" > st }
            state = 0; print; next }
        state == 1 { have[++n] = $0; if (update != "true") print; next }
        { print }
        END { if (!found) print "missing" > st }' "$readme" > "$work/README.new"
    if [ -s "$work/stale" ]; then
        if grep -q missing "$work/stale"; then
            bad "scenarios/$1/README.md has no '<!-- output of ./$2.sh' block"
        elif ! $update; then
            bad "scenarios/$1/README.md's block of $2.sh is not what it prints now ($regen regenerates it):"
            cat "$work/$2.out"
        fi
    fi
    if $update && ! cmp -s "$work/README.new" "$readme"; then
        cp "$work/README.new" "$readme" && echo "scenarios/$1/README.md: regenerated (reread the prose beside it)"
    fi
    rm -f "$work/stale"
}
