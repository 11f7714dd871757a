#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang and runs each for FUZZ_SECONDS.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Builds the libFuzzer harnesses with clang (ASan + UBSan + coverage) and runs
# each for FUZZ_SECONDS (default 60), one after the other.
# Usage: fuzz/run.sh SRCDIR BUILDDIR   (BUILDDIR holds a built dcsim, used to
# make the trace corpus).  FUZZ_HARNESS="fuzz_vary fuzz_trace" runs only those.
# A crash leaves its input in BUILDDIR/fuzz-out/artifacts/; turn it into a
# regression test (tests/test_errors.c or a suite's bad cases) before fixing.
# The corpora grow in BUILDDIR/fuzz-out/corpus-NAME and are kept between runs.
set -euo pipefail
src=$1
build=$2
secs=${FUZZ_SECONDS:-60}
CC=${FUZZ_CC:-clang}
out=$build/fuzz-out
mkdir -p "$out/artifacts"
flags="-g -O1 -std=c11 -pthread -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
incs="-I$src/sim -I$src/models -I$src/analysis -I$build $(pkg-config --cflags gsl libconfig hdf5-serial)"
libs="$(pkg-config --libs gsl libconfig hdf5-serial) -lm"
core=$(ls "$src"/sim/*.c "$src"/models/*.c "$src"/models/*/*.c)
analysis=$(ls "$src"/analysis/*.c)
harnesses=${FUZZ_HARNESS:-$(cd "$src/fuzz" && ls fuzz_*.c | sed 's/\.c$//')}

# Seeds for the trace reader: real traces of the small scenarios, then cut
# short and with bytes flipped.
trace_seeds() {
    local dir=$1 dcsim=$build/dcsim
    [ -x "$dcsim" ] || { echo "fuzz: no $dcsim, trace corpus without real traces"; return 0; }
    "$dcsim" run "$src/scenarios/small.cfg" -o "$dir/small.h5" --quiet --set horizon_days=0.5 >/dev/null
    "$dcsim" run "$src/scenarios/small.cfg" -o "$dir/noevents.h5" --quiet --set horizon_days=0.2 \
        --set trace.events=false >/dev/null 2>&1 || true
    local size
    size=$(stat -c %s "$dir/small.h5")
    head -c $((size / 2)) "$dir/small.h5" >"$dir/small-half.h5"
    head -c 4096 "$dir/small.h5" >"$dir/small-4k.h5"
    cp "$dir/small.h5" "$dir/small-flipped.h5"
    printf '\377\377\377\377' | dd of="$dir/small-flipped.h5" bs=1 seek=$((size / 3)) conv=notrunc status=none
}

status=0
for name in $harnesses; do
    h=$src/fuzz/$name.c
    echo "== $name: building"
    extra=""
    case $name in fuzz_vary | fuzz_trace) extra=$analysis ;; esac
    $CC $flags $incs $core $extra "$h" $libs -o "$out/$name"
    corpus=$out/corpus-$name
    mkdir -p "$corpus"
    case $name in
        fuzz_scenario) cp "$src"/scenarios/*.cfg "$src"/scenarios/*/*.cfg "$corpus"/ 2>/dev/null || true ;;
        fuzz_set | fuzz_vary | fuzz_envcsv | fuzz_csv | fuzz_tracemap | fuzz_swf | fuzz_failurelog) cp "$src"/fuzz/corpus/"${name#fuzz_}"/* "$corpus"/ 2>/dev/null || true ;;
        fuzz_trace) trace_seeds "$corpus" && ls -l "$corpus" | sed -n 's/^/   seed: /p' | head -8 ;;
    esac
    # libhdf5 1.10 itself crashes on some corrupt files (docs/errors.md):
    # fuzz_trace runs in fork mode so that one such crash does not end the
    # run; every crash is still kept in artifacts/.
    # Traces are larger than the other inputs: the seeds are 50-80 kB, and a
    # mutant cut at -max_len would only ever test truncation.
    mode="" maxlen=65536
    [ "$name" = fuzz_trace ] && mode="-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1" maxlen=262144
    echo "== $name: running for $secs s"
    log=$out/$name.log
    # shellcheck disable=SC2086
    LSAN_OPTIONS=suppressions=$src/fuzz/lsan.supp "$out/$name" $mode -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -max_len=$maxlen -artifact_prefix="$out/artifacts/$name-" -print_final_stats=1 "$corpus" \
        >"$log" 2>&1 || status=1
    grep -E "stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Done|DONE" "$log" | sort | uniq -c | tail -8 || true
done
if ls "$out"/artifacts/* >/dev/null 2>&1; then
    echo "fuzz: crashes found in $out/artifacts"
    exit 1
fi
[ $status -eq 0 ] || { echo "fuzz: a harness failed (see $out/*.log)"; exit 1; }
echo "fuzz: no crash found"
