#!/bin/sh
# dcsim's FIFO and EASY start times against the independent replay of tests/easy_ref.py.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs tests/easy_ref.py (standard library only) on the dcsim program:
# six synthetic traces of 2,000-3,000 jobs (FIFO and EASY; exact run-time
# estimates, estimates three times the run time, and a fixed limit that is
# also every job's estimate); every job's start time must equal the
# reference's.  Skipped (status 77) with a message where python3 is absent.
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || echo /nonexistent)
if ! "$py" -c 'import heapq, csv' 2>/dev/null; then
    echo "SKIP: the reference replay needs python3 (apt-get install -y python3)"
    exit 77
fi
exec "$py" "$DCSIM_SRCDIR/tests/easy_ref.py" "$DCSIM"
