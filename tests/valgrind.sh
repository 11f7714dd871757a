#!/usr/bin/env bash
# Runs the end-to-end tests with every dcsim under valgrind memcheck (make check-valgrind).
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# make check-valgrind: the end-to-end tests (test_cli, test_errors: every
# command, good and bad input, signals, full disk) with every dcsim they
# start run under valgrind's memcheck.  Any memory error or definite or
# indirect leak makes that dcsim exit 99, which its test reports as a wrong
# exit status, and fails this script.  A dcsim killed by a signal (a second
# SIGINT kills at once, by design) holds memory that only its dead frames
# pointed to: its leaks are not leaks, and only its memory errors count;
# one killed by SIGKILL leaves a log of its header alone (no summary).
# Usage: tests/valgrind.sh BUILDDIR SRCDIR
set -euo pipefail
build=$1
src=$2
out=$build/valgrind-out
mkdir -p "$out"
wrap=$out/dcsim-valgrind
cat >"$wrap" <<WRAP
#!/bin/sh
exec valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \\
    --errors-for-leak-kinds=definite,indirect --track-origins=no --child-silent-after-fork=yes \\
    --log-file=$out/vg.%p.log "$build/dcsim" "\$@"
WRAP
chmod +x "$wrap"
rm -f "$out"/vg.*.log
status=0
for t in test_cli test_errors; do
    echo "== $t with dcsim under valgrind"
    DCSIM=$wrap DCSIM_SRCDIR=$src "$build/tests/$t" >"$out/$t.log" 2>&1 || status=1
    grep -E "asserts|tests  " "$out/$t.log" || true
done
# A clean run's log says "ERROR SUMMARY: 0 errors"; show any other (a run
# killed by a signal only for a memory error: an invalid access, an
# uninitialised value, a mismatched or invalid free, a bad syscall argument).
for f in "$out"/vg.*.log; do
    [ -e "$f" ] || continue
    if grep -q "ERROR SUMMARY: 0 errors" "$f"; then
        rm -f "$f"
        continue
    fi
    if grep -q "Process terminating with default action of signal" "$f" &&
        ! grep -Eq "Invalid (read|write|free)|uninitialised|Mismatched free|overlap|Syscall param" "$f"; then
        echo "== $f: killed by a signal, its leaks not counted ($(grep -o 'signal [0-9]* ([A-Z]*)' "$f" | head -1))"
        rm -f "$f"
        continue
    fi
    # SIGKILL (test_errors kills a sweep mid-write on purpose) stops valgrind
    # too, before its summary: memcheck writes each error as it finds it, so
    # a log with no summary and nothing after its header found none
    if ! grep -q "ERROR SUMMARY" "$f" &&
        [ "$(grep -cvE '^==[0-9]+== (Memcheck, a memory error detector|Copyright|Using Valgrind|Command:|Parent PID:|$)' "$f")" -eq 0 ]; then
        echo "== $f: killed without a summary (SIGKILL), no error written before"
        rm -f "$f"
        continue
    fi
    echo "== $f"
    grep -v "^==[0-9]*== *$" "$f" | head -60
    status=1
done
[ $status -eq 0 ] && echo "valgrind: memcheck clean, no leaks" || echo "valgrind: FAILED (see $out)"
exit $status
