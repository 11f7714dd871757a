#!/usr/bin/env bash
# bench/combos.sh: the combination sweep: random sets of 3-8 keys at random values together on random shipped scenarios.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# bench/boundary.sh tries one key at a time; a defect that needs several
# features on together (an elastic job with the step-time model, repair and
# tiered checkpoints: 5dfbf43) it cannot find.  This sweep draws, from a
# seeded generator, COMBOS_RUNS runs, each a scenario (scenarios/**/*.cfg
# and bench/shared.cfg) and 3-8 `--set KEY=VALUE` overrides from the
# schema (`dcsim keys`):
#   a ranged key: one of its ends (an excluded end nudged inside it as in
#     boundary.sh) with probability 0.3, near an end (within 2% of the
#     range) 0.2, anywhere inside 0.5; the range on a log scale when it
#     spans over four decades of positive values (a range from 0: from
#     1e-9 of its top), integers rounded; a key that is a number or `auto`
#     is `"auto"` one time in ten;
#   a boolean: true or false;
#   a string whose Range column lists its choices: one of them;
# list keys on their first element ([] -> [0]); horizon_days is not drawn
# (every run has the short horizon).  Nine keys in ten are drawn from those
# whose groups the scenario's file names (every name of the key's path but
# its last appears in the file as `NAME =` or `NAME :`), so that most
# overrides reach the model that reads them; the tenth from all keys.
# Each run is judged as in boundary.sh (bench/sweepcheck.sh): it may
# succeed (0) or refuse (2) with a message of the shape `dcsim: FILE:LINE:
# KEY: ...`, `dcsim: (--set) KEY: ...` or `dcsim: --set KEY=VALUE: ...`; a
# signal, a hang over the time limit, over the memory limit, status 1, a
# refusal whose message has not that shape or a sanitizer's report on
# standard error is a defect, printed with the command that reproduces it.
# Random values are often refused (a value other keys rule out, a law
# without its parameters), and one refusal stops the whole combination; so
# a refused combination runs again without the override its message blames
# (the one whose key is the key named or lies in its group, else one in the
# named key's group, else the last), until it runs, fails or has no
# override left.  Every such run counts; the summary says how many
# combinations ran and with how many overrides in all.
#
# usage: bench/combos.sh [DCSIM [SRCDIR]]         (make combos)
# environment: COMBOS_SEED    the generator's seed (default 1): the same seed, the same runs
#              COMBOS_RUNS    number of runs (default 200)
#              COMBOS_FIRST   the first run to do (default 1): runs before it are drawn, not run,
#                             so that a long sweep can be cut into pieces with the same seed
#              COMBOS_HORIZON_DAYS  horizon of each run (default 2)
#              COMBOS_TIME_S  time limit per run (default 30)
#              COMBOS_MEM_KB  ulimit -v per run (default 2000000; unlimited under ASan, which
#                             reserves terabytes of address space: give it ASAN_OPTIONS=hard_rss_limit_mb)
#              COMBOS_SCENARIOS  scenarios to draw from (default: every scenarios/**/*.cfg and
#                             bench/shared.cfg)
#              COMBOS_KEYS    an extended regular expression: only matching keys are drawn
#              COMBOS_LIST=1  print the runs (`SCENARIO<TAB>KEY=VALUE<TAB>...`) and run nothing
# Prints one line per defect, a progress line every 50 runs (stderr) and the counts; exit status 1
# when there is a defect, 2 on bad usage.
set -u
. "$(dirname "$0")/sweepcheck.sh"
dcsim=${1:-./dcsim}
src=${2:-.}
seed=${COMBOS_SEED:-1}
runs=${COMBOS_RUNS:-200}
first=${COMBOS_FIRST:-1}
horizon=${COMBOS_HORIZON_DAYS:-2}
time_s=${COMBOS_TIME_S:-30}
mem_kb=${COMBOS_MEM_KB:-2000000}
keys_re=${COMBOS_KEYS:-.}
sweep_need "$dcsim"
for n in "$seed" "$runs" "$first"; do
    case $n in '' | *[!0-9]*)
        echo "$0: COMBOS_SEED, COMBOS_RUNS and COMBOS_FIRST must be whole numbers" >&2
        exit 2 ;;
    esac
done
scenarios=${COMBOS_SCENARIOS:-$(find "$src/scenarios" -name '*.cfg' | sort; echo "$src/bench/shared.cfg")}
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim-combos.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%s\n' $scenarios >"$work/scenarios"

# SCENARIO<TAB>KEY=VALUE...: the runs, drawn from the schema and the scenarios' names.
"$dcsim" keys | awk -F'|' -v re="$keys_re" -v seed="$seed" -v runs="$runs" \
    -v scfile="$work/scenarios" "$sweep_awk"'
    function pick(n) { return 1 + int(rand() * n) }
    function ranged(k,   lo, hi, t, r, v, a, b) {
        lo = lo_of[k]; hi = hi_of[k]
        if (auto[k] && rand() < 0.1) return "\"auto\""
        r = rand()
        if (r < 0.15) v = int_of[k] ? lo + lo_ex[k] : inside(lo, 1, lo_ex[k])
        else if (r < 0.3) v = int_of[k] ? hi - hi_ex[k] : inside(hi, 0, hi_ex[k])
        else {
            t = r < 0.4 ? rand() * 0.02 : r < 0.5 ? 1 - rand() * 0.02 : rand()
            a = lo; b = hi
            if (hi > 0 && lo >= 0 && (lo == 0 || hi / lo > 1e4)) {
                if (a == 0) a = hi * 1e-9
                v = exp(log(a) + t * (log(b) - log(a)))
            } else
                v = a + t * (b - a)
            if (int_of[k]) {
                v = sprintf("%.0f", v)
                if (v + 0 < lo + lo_ex[k]) v = lo + lo_ex[k]
                if (v + 0 > hi - hi_ex[k]) v = hi - hi_ex[k]
            } else {
                if (v <= lo || v >= hi) v = inside(v <= lo ? lo : hi, v <= lo, 1)
                else {
                    t = sprintf("%.6g", v)
                    v = t + 0 > lo && t + 0 < hi ? t : sprintf("%.17g", v)
                }
            }
        }
        return int_of[k] ? sprintf("%.0f", v) : v
    }
    function value(k,   c) {
        if (kind[k] == "bool") return rand() < 0.5 ? "true" : "false"
        if (kind[k] == "enum") { split(choices[k], c, " "); return "\"" c[pick(nchoices[k])] "\"" }
        return ranged(k)
    }
    # 1 when every name of the key but its last is a name the scenario gives.
    function held(s, k,   p, n, i) {
        n = split(k, p, ".")
        for (i = 1; i < n; i++)
            if (p[i] != "[0]" && !((s, p[i]) in names)) return 0
        return 1
    }
    {
        key = sweep_key()
        if (key == "" || key == "horizon_days" || key !~ re) next
        gsub(/\[\]/, "[0]", key)
        if (sweep_range()) {
            kind[key] = "ranged"; lo_of[key] = R_LO + 0; hi_of[key] = R_HI + 0
            lo_ex[key] = R_LO_EX; hi_ex[key] = R_HI_EX; int_of[key] = R_INT
            auto[key] = $3 ~ /auto/
        } else if ($3 ~ /^ *boolean *$/) {
            kind[key] = "bool"
        } else if ($3 ~ /^ *string *$/ && $6 ~ /`/) {
            r = $6; n = 0; list = ""
            while (match(r, /`[^`]*`/)) {
                list = list " " substr(r, RSTART + 1, RLENGTH - 2); n++
                r = substr(r, RSTART + RLENGTH)
            }
            kind[key] = "enum"; choices[key] = list; nchoices[key] = n
        } else next
        keys[++nkeys] = key
    }
    END {
        if (nkeys < 8) { print "combos: only " nkeys " keys match" > "/dev/stderr"; exit 2 }
        while ((getline s < scfile) > 0) {
            sc[++nsc] = s
            while ((getline line < s) > 0) {
                sub(/#.*/, "", line)
                while (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*[=:]/)) {
                    w = substr(line, RSTART, RLENGTH); sub(/[ \t]*[=:]$/, "", w)
                    names[s, w] = 1
                    line = substr(line, RSTART + RLENGTH)
                }
            }
            close(s)
        }
        srand(seed)
        for (run = 1; run <= runs; run++) {
            s = sc[pick(nsc)]; n = 3 + int(rand() * 6); out = s
            delete used
            for (j = 1; j <= n; j++) {
                any = rand() < 0.1
                for (try = 0; try < 200; try++) {
                    k = keys[pick(nkeys)]
                    if (!(k in used) && (any || held(s, k))) break
                }
                if (k in used) continue
                used[k] = 1
                out = out "\t" k "=" value(k)
            }
            print out
        }
    }' >"$work/runs" || exit 2
if [ "${COMBOS_LIST:-0}" = 1 ]; then
    cat "$work/runs"
    exit 0
fi

# drop KEY: the index in $kvs of the override a refusal naming KEY is taken to
# blame: the first whose key is KEY or lies in the group KEY, else the first
# in KEY's group (its path but its last name), else the last.
drop() {
    local i k parent=${1%.*}
    for i in "${!kvs[@]}"; do
        k=${kvs[i]%%=*}
        [ "$k" = "$1" ] || [ "${k#"$1".}" != "$k" ] && { echo "$i"; return; }
    done
    for i in "${!kvs[@]}"; do
        k=${kvs[i]%%=*}
        [ "$parent" != "$1" ] && [ "${k#"$parent".}" != "$k" ] && { echo "$i"; return; }
    done
    echo $((${#kvs[@]} - 1))
}

n=0 combos_ran=0 combos_none=0 sets_ran=0
while IFS=$'\t' read -r -a run; do
    n=$((n + 1))
    [ "$n" -ge "$first" ] || continue
    sc=${run[0]}
    kvs=("${run[@]:1}")
    while :; do
        sets=()
        for kv in "${kvs[@]}"; do
            sets+=(--set "$kv")
        done
        sweep_run "$sc" "$time_s" "run $n: $sc ${sets[*]}" "${sets[@]}" --set "horizon_days=$horizon"
        [ $((total % 50)) -eq 0 ] &&
            echo "combos: $total runs so far (to combination $n): $ok ran, $refused refused, $defects defects" >&2
        [ "$sweep_verdict" = refused ] || break
        if [ ${#kvs[@]} -le 1 ]; then
            combos_none=$((combos_none + 1))
            break
        fi
        i=$(drop "$sweep_named")
        kvs=("${kvs[@]:0:i}" "${kvs[@]:i+1}")
    done
    [ "$sweep_verdict" = ok ] && combos_ran=$((combos_ran + 1)) sets_ran=$((sets_ran + ${#kvs[@]}))
done <"$work/runs"
echo "combos: seed $seed, combinations $first-$runs: $combos_ran ran ($sets_ran overrides in all), $combos_none refused to the last override;" \
    "$total runs, $ok ran, $refused refused with a message (status 2), $defects defects; horizon $horizon days, limits ${time_s} s, ${mem_kb} KB"
[ "$defects" -eq 0 ]
