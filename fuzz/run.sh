#!/usr/bin/env bash
# dcsim - discrete-event simulator of AI datacenters.  Copyright (C) 2026 the dcsim developers.
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer harnesses with clang (ASan + UBSan + coverage) and runs
# each for FUZZ_SECONDS (default 60).  Usage: fuzz/run.sh SRCDIR BUILDDIR
# A crash leaves its input in BUILDDIR/fuzz/artifacts/; turn it into a
# regression test (tests/test_cli.c bad_cases or a suite) before fixing.
set -euo pipefail
src=$1
build=$2
secs=${FUZZ_SECONDS:-60}
CC=${FUZZ_CC:-clang}
out=$build/fuzz-out
mkdir -p "$out/artifacts"
flags="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
incs="-I$src/sim -I$src/models -I$src/analysis -I$build $(pkg-config --cflags gsl libconfig hdf5-serial)"
libs="$(pkg-config --libs gsl libconfig hdf5-serial) -lm"
core=$(ls "$src"/sim/*.c "$src"/models/*.c)
for h in "$src"/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    echo "== $name: building"
    $CC $flags $incs $core "$h" $libs -o "$out/$name"
    corpus=$out/corpus-$name
    mkdir -p "$corpus"
    case $name in
        fuzz_scenario) cp "$src"/scenarios/*.cfg "$src"/scenarios/*/*.cfg "$corpus"/ 2>/dev/null || true ;;
        fuzz_set) cp "$src"/fuzz/corpus/set/* "$corpus"/ ;;
    esac
    echo "== $name: running for $secs s"
    LSAN_OPTIONS=suppressions=$src/fuzz/lsan.supp "$out/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$out/artifacts/$name-" -print_final_stats=1 "$corpus" 2>&1 |
        grep -E "stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Done" || true
done
if ls "$out"/artifacts/* >/dev/null 2>&1; then
    echo "fuzz: crashes found in $out/artifacts"
    exit 1
fi
echo "fuzz: no crash found"
