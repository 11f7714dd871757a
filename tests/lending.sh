#!/bin/sh
# scenarios/compare/lending.sh makes its points (what lending between virtual clusters buys) and its README block is what it prints.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Runs scenarios/compare/lending.sh with the dcsim of the build tree
# ($DCSIM; sources in $DCSIM_SRCDIR) and checks, from its own table:
#  - lending both ways cuts the mean wait below 0.6 x the fixed pools' and
#    each pool's mean wait below its fixed one, with every job completed;
#  - reclaims at once lose work (GPU-hours > 0), reclaims with 300 s of
#    notice lose none (the jobs checkpoint on their way out);
#  - lending one way leaves the lender's wait exactly as with fixed pools
#    (its reclaims give it its nodes back at once) and lowers the
#    borrower's;
#  - the block after "<!-- output of ./lending.sh" in
#    scenarios/compare/README.md is what it prints (make lending
#    regenerates it).
# With --update, rewrites the block instead of comparing.
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
export DCSIM
update=false
[ "${1:-}" = --update ] && update=true
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_lending.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

regen='make lending'
script_errors='printf\|awk:\|null\|nan'
. "$DCSIM_SRCDIR/tests/scriptcheck.sh"
run compare lending

# variant(26) vision lang mean p90 util lent reclaims lost jobs
awk 'NR > 2 { key = substr($0, 1, 26); sub(/ +$/, "", key); split(substr($0, 27), v, " "); n++
              for (i = 1; i <= 9; i++) f[key, i] = v[i]
              if (v[9] != 720) { print key ": " v[9] " jobs completed, not 720"; e = 1 } }
     END { if (n != 4) { print "expected 4 rows, got " n; exit 1 }
           F = "fixed pools"; L = "lending"; N = "lending, 300 s notice"; O = "vision lends to language"
           if (!(f[L, 3] < 0.6 * f[F, 3])) { print "mean wait " f[L, 3] " lending, " f[F, 3] " fixed"; e = 1 }
           if (!(f[L, 1] < f[F, 1] && f[L, 2] < f[F, 2])) { print "a pool waits longer with lending"; e = 1 }
           if (!(f[L, 6] > 0 && f[L, 7] > 0 && f[L, 8] > 0)) { print "lending lent, reclaimed or lost nothing"; e = 1 }
           if (f[N, 8] != 0 || !(f[N, 7] > 0)) { print "with notice: " f[N, 7] " reclaims lost " f[N, 8]; e = 1 }
           if (f[F, 6] != 0 || f[F, 8] != 0) { print "fixed pools lent or lost GPU-hours"; e = 1 }
           if (f[O, 1] != f[F, 1]) { print "the lender waits " f[O, 1] " h, " f[F, 1] " h with fixed pools"; e = 1 }
           if (!(f[O, 2] < f[F, 2])) { print "the borrower waits " f[O, 2] " h, " f[F, 2] " h fixed"; e = 1 }
           exit e }' "$work/lending.out" > "$work/why" || bad "lending.sh: $(cat "$work/why")"

check compare lending
[ $fail -eq 0 ] && echo "compare/lending.sh makes its points and scenarios/compare/README.md shows what it prints"
exit $fail
