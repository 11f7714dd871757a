# bench/sweepcheck.sh: what the robustness sweeps share: the Range column's reading, one run under limits and its verdict.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Sourced (bash) by bench/boundary.sh and bench/combos.sh; the functions use
# $dcsim, $mem_kb and $work (a scratch folder), which the caller sets:
#   sweep_need DCSIM   exit 2 with a message unless DCSIM is an executable
#   $sweep_awk   awk functions for the table of `dcsim keys` (fields split on |):
#                sweep_key(): the key of the line ($2 without its backticks);
#                sweep_range(): 1 when $6 is a numeric range [a, b], (a, b], ...
#                with both ends, setting R_LO, R_HI (the bounds as written),
#                R_LO_EX, R_HI_EX (1: that end is excluded) and R_INT (the
#                key is an integer);
#                inside(b, lo, excl): bound b, or just inside it when it is
#                excluded (0 becomes +-1e-300, b becomes b x (1 +- 1e-12));
#                lo: 1 for the lower end
#   sweep_run SCENARIO LIMIT_S WHAT SET...
#                runs `$dcsim run SCENARIO --no-trace --quiet SET...` under
#                `ulimit -v $mem_kb` and `timeout -s KILL LIMIT_S`, and adds
#                it to $total and one of $ok (status 0), $refused (status 2
#                with a message of the shape `dcsim: FILE:LINE: KEY: ...`,
#                `dcsim: (--set) KEY: ...` or, from the parser of --set
#                itself, `dcsim: --set KEY=VALUE: ...`) or $defects (anything else,
#                or a sanitizer's report on standard error whatever the
#                status), printing a defect as `DEFECT REASON: WHAT`, the
#                head of its standard error and the command that reproduces it;
#                $sweep_verdict is then ok, refused or defect, and for a
#                refusal $sweep_named is the key its message names
#   sweep_defect REASON [WHAT]  one more defect, printed so (no command)
# The counters start at 0 here.

ok=0; refused=0; defects=0; total=0

sweep_awk='
function sweep_key(   k) { k = $2; gsub(/[` ]/, "", k); return k }
function sweep_range(   r, b) {
    if ($2 !~ /`/ || $6 !~ /[\[(][^,]*,[^\])]*[\])]/) return 0
    r = $6; gsub(/ /, "", r)
    R_LO_EX = substr(r, 1, 1) == "("; R_HI_EX = substr(r, length(r), 1) == ")"
    r = substr(r, 2, length(r) - 2); split(r, b, ",")
    if (b[1] == "" || b[2] == "") return 0
    R_LO = b[1]; R_HI = b[2]; R_INT = $3 ~ /integer/
    return 1
}
function inside(b, lo, excl) {
    if (!excl) return b
    if (b == 0) return lo ? "1e-300" : "-1e-300"
    return sprintf("%.17g", lo ? (b > 0 ? b * (1 + 1e-12) : b * (1 - 1e-12)) : (b > 0 ? b * (1 - 1e-12) : b * (1 + 1e-12)))
}
'

sweep_need() {
    if [ ! -x "$1" ]; then
        echo "$0: $1 is not an executable" >&2
        exit 2
    fi
}

sweep_defect() {
    defects=$((defects + 1))
    echo "DEFECT $1${2:+: $2}"
}

# A refusal's message (the last line of standard error that is not a warning).
sweep_shape_file='^dcsim: [^ ]+:[0-9]+: [A-Za-z_][][A-Za-z0-9_.]*: '
sweep_shape_set='^dcsim: \(--set\) [A-Za-z_][][A-Za-z0-9_.]*: '
sweep_shape_arg='^dcsim: --set [A-Za-z_][][A-Za-z0-9_.]*=[^:]*: '

sweep_run() {
    local sc=$1 limit_s=$2 what=$3 st msg cmd reason=
    shift 3
    sweep_verdict=defect sweep_named=
    total=$((total + 1))
    (
        ulimit -v "$mem_kb"
        exec timeout -s KILL "$limit_s" "$dcsim" run "$sc" --no-trace --quiet "$@" \
            >/dev/null 2>"$work/err"
    ) </dev/null
    st=$?
    if grep -Eq 'Sanitizer|runtime error:' "$work/err"; then
        reason="status $st with a sanitizer's report"
    else
        case $st in
        0) ok=$((ok + 1)) sweep_verdict=ok ;;
        2)
            msg=$(grep '^dcsim' "$work/err" | grep -v '^dcsim: warning: ' | tail -n 1)
            if [ -z "$msg" ]; then
                reason="status 2 without a message"
            elif printf '%s\n' "$msg" | grep -Eq "$sweep_shape_file|$sweep_shape_set|$sweep_shape_arg"; then
                refused=$((refused + 1)) sweep_verdict=refused
                sweep_named=$(printf '%s\n' "$msg" | sed -E 's/^dcsim: ([^ ]+:[0-9]+: |\(--set\) |--set )([^:=]*).*/\2/')
            else
                reason="status 2, a message without FILE:LINE: KEY: (or (--set) KEY: or --set KEY=VALUE:)"
            fi
            ;;
        137) reason="over ${limit_s} s (killed)" ;;
        1)
            if grep -q 'out of memory' "$work/err"; then
                reason="status 1: out of memory (over the ulimit -v of $mem_kb KB?)"
            else
                reason="status 1"
            fi
            ;;
        *)
            if [ "$st" -gt 128 ]; then
                reason="killed by signal $((st - 128)) (status $st)"
            else
                reason="status $st"
            fi
            ;;
        esac
    fi
    [ -n "$reason" ] || return 0
    sweep_defect "$reason" "$what"
    [ -s "$work/err" ] && echo "  stderr: $(head -c 300 "$work/err" | tr '\n' ' ')"
    cmd=$(printf '%q ' "$dcsim" run "$sc" --no-trace --quiet "$@")
    echo "  reproduce: (ulimit -v $mem_kb; timeout -s KILL $limit_s ${cmd% })"
}
