#!/bin/sh
# Tests: the source tree's layout rules (docs/DEVELOPING.md): which way includes point, and file headers.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Checks, over the C sources of the tree in $DCSIM_SRCDIR (default: the
# folder above this script):
#  1. sim/ includes only sim/ (it is a library its tests link alone);
#  2. analysis/ includes only analysis/ and sim/;
#  3. models/cluster.* and models/law_params.h include only sim/ and each
#     other; only models/registry.c includes every domain;
#  4. a file of models/DOMAIN/ includes its own domain, sim/, cluster.h and
#     law_params.h, and another domain's header only along an allowed edge
#     (ALLOWED below, the table of docs/DEVELOPING.md);
#  5. cli/ includes no domain header (it reaches models through the registry
#     and the cluster);
#  6. every source file (C, shell, gnuplot, automake) opens with one or two
#     lines saying what it is for, then the copyright and SPDX line;
#  7. the number of bad-input cases docs/DEVELOPING.md and docs/errors.md
#     give for tests/test_errors is the number in its table (cases[]).
# Each broken rule is printed as FILE:LINE: what; exit status 1 if any.

# Domain edges (FROM:TO): workload uses the fabric's accessors (collectives,
# topology, storage transfers), orbital the power model's IT power, cost the
# topology's parameters (the fabric's bill of materials), facility the
# inference service's job and energy hook (the power model reports the
# energy of the service's nodes), cost the scheduler's pools (a spot
# pool's nodes and the hours they were held).
ALLOWED="workload:fabric orbital:facility cost:fabric facility:workload cost:workload"

src=${DCSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src" || exit 2
status=0
fail() {
    echo "$1" >&2
    status=1
}

domains=$(for d in models/*/; do basename "$d"; done)

# Prints FILE:LINE:HEADER for every quoted include of a file.
includes() {
    awk '/^[ \t]*#[ \t]*include[ \t]*"/ { h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); print FILENAME ":" FNR ":" h }' "$@"
}

exists_in() { # header, folder...
    h=$1
    shift
    for dir in "$@"; do
        [ -f "$dir/$h" ] && return 0
    done
    return 1
}

for f in sim/*.[ch]; do
    includes "$f"
done | { while IFS=: read -r file line h; do
    case $h in config.h) continue ;; esac
    exists_in "$h" sim || fail "$file:$line: sim/ includes \"$h\", which is not in sim/"
done; exit $status; } || status=1

for f in analysis/*.[ch]; do
    includes "$f"
done | { while IFS=: read -r file line h; do
    case $h in config.h) continue ;; esac
    exists_in "$h" analysis sim || fail "$file:$line: analysis/ includes \"$h\" (only analysis/ and sim/)"
done; exit $status; } || status=1

for f in models/cluster.[ch] models/law_params.h models/registry.h; do
    includes "$f"
done | { while IFS=: read -r file line h; do
    case $h in cluster.h | law_params.h | registry.h) continue ;; esac
    exists_in "$h" sim || fail "$file:$line: $file includes \"$h\" (only sim/ and the root of models/)"
done; exit $status; } || status=1

for d in $domains; do
    for f in models/"$d"/*.[ch]; do
        includes "$f"
    done | { while IFS=: read -r file line h; do
        case $h in
        cluster.h | law_params.h) continue ;;
        */*)
            to=${h%%/*}
            [ "$to" = "$d" ] && { fail "$file:$line: \"$h\": a header of the same domain is included by its name alone"; continue; }
            ok=0
            for e in $ALLOWED; do
                [ "$e" = "$d:$to" ] && ok=1
            done
            [ $ok -eq 1 ] || fail "$file:$line: $d includes \"$h\": the edge $d -> $to is not allowed (tests/layout.sh, docs/DEVELOPING.md)"
            [ -f "models/$h" ] || fail "$file:$line: \"$h\" does not exist"
            ;;
        *)
            exists_in "$h" "models/$d" sim || fail "$file:$line: \"$h\" is neither in models/$d nor in sim/"
            ;;
        esac
    done; exit $status; } || status=1
done

for f in cli/*.[ch]; do
    includes "$f"
done | { while IFS=: read -r file line h; do
    case $h in */*) fail "$file:$line: cli/ includes the domain header \"$h\" (use the registry or an accessor)" ;; esac
done; exit $status; } || status=1

# 6. headers
for f in $(find sim models analysis cli tests bench fuzz -name '*.[ch]') ; do
    awk -v f="$f" 'NR == 1 && (!/^\/\* / || /discrete-event simulator of AI datacenters\.$/) {
                       print f ":1: the first line must say what the file is for"; bad = 1 }
                   NR <= 3 && /SPDX-License-Identifier/ { spdx = 1 }
                   NR == 3 { exit }
                   END { if (!spdx) { print f ": no SPDX-License-Identifier line within the first three lines"; bad = 1 }
                         exit bad }' "$f" >&2 || status=1
done
for f in $(find plots scenarios tests bench fuzz .ci -name '*.sh' -o -name '*.gp' -o -name run) Makefile.am configure.ac autogen.sh; do
    [ -f "$f" ] || continue
    awk -v f="$f" 'NR == 1 && /^#!/ { shebang = 1; next }
                   NR == 1 + shebang && (!/^# / || /discrete-event simulator of AI datacenters/) {
                       print f ":" NR ": the first line must say what the file is for"; bad = 1 }
                   NR <= 4 + shebang && /SPDX-License-Identifier/ { spdx = 1 }
                   NR == 4 + shebang { exit }
                   END { if (!spdx) { print f ": no SPDX-License-Identifier line near the top"; bad = 1 }
                         exit bad }' "$f" >&2 || status=1
done

# 7. the bad-input catalogue's size as the docs state it
n_cases=$(awk '/^static const err_case cases\[\] = \{/ { p = 1; next } p && /^\};/ { p = 0 }
               p && /^    \{"/ { n++ } END { print n + 0 }' tests/test_errors.c)
[ "$n_cases" -gt 0 ] || fail "tests/test_errors.c: no cases[] table found"
grep -n 'test_errors' -A1 docs/DEVELOPING.md | sed -n 's/^\([0-9]*\)[:-].* \([0-9][0-9]*\) cases .*/\1 \2/p' |
    while read -r line n; do
        [ "$n" = "$n_cases" ] || echo "docs/DEVELOPING.md:$line: says $n cases for tests/test_errors, its table has $n_cases"
    done | grep . >&2 && status=1
grep -n 'test_errors.c. runs [0-9]* bad inputs' docs/errors.md | sed -n 's/^\([0-9]*\):.* runs \([0-9]*\) bad inputs.*/\1 \2/p' |
    { found=0; while read -r line n; do
        found=1
        [ "$n" = "$n_cases" ] || echo "docs/errors.md:$line: says $n bad inputs for tests/test_errors.c, its table has $n_cases"
    done; [ $found -eq 1 ] || echo "docs/errors.md: no line 'tests/test_errors.c runs N bad inputs'"; } | grep . >&2 && status=1

[ $status -eq 0 ] && echo "layout: includes point down the layers and along allowed edges; every file says what it is for; the docs give test_errors' size"
exit $status
