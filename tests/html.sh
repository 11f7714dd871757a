#!/bin/sh
# dcsim report --html, a run's page and a sweep's, opened in headless Chromium.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# Writes the page of the small scenario's trace and of a small sweep with
# uncertain inputs, checks that each is self-contained (no script, no
# reference outside the file, figures inline as SVG, the tables the page
# promises), renders each in Debian's headless Chromium with the network
# off, and checks that the browser logged no console message (the page has
# no script: any is an error) and that the screenshot is not blank (much
# larger than the screenshot of an empty page of the same size).  Skipped,
# status 77, with a message where /usr/bin/chromium is absent.
set -u
: "${DCSIM:?set DCSIM to the dcsim program}" "${DCSIM_SRCDIR:?set DCSIM_SRCDIR to the source tree}"
chromium=/usr/bin/chromium
work=$(mktemp -d "${TMPDIR:-/tmp}/dcsim_html.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$DCSIM" run "$DCSIM_SRCDIR/scenarios/small.cfg" -o run.h5 --quiet || exit 1
"$DCSIM" sweep "$DCSIM_SRCDIR/scenarios/invest/programme.cfg" --reps 6 --vary cost.owned=1.0,0.0 \
    --set horizon_days=400.0 -o sweep.h5 --quiet || exit 1
for page in run sweep; do
    "$DCSIM" report $page.h5 --html $page.html > out.txt 2> err.txt || { bad "dcsim report $page.h5 --html: $(cat err.txt)"; continue; }
    grep -qx "wrote $page.html" out.txt || bad "dcsim report --html did not say what it wrote"
    grep -qi '<script' $page.html && bad "$page.html has a script"
    # Only the SVG namespace URIs may name another place.
    if grep -o '\(src\|href\)="[^"#][^"]*"\|url(\|https\?://[^"]*' $page.html | grep -v '^http://www.w3.org/' | grep -q .; then
        bad "$page.html refers to something outside itself: $(grep -o '\(src\|href\)="[^"#][^"]*"\|url(\|https\?://[^"]*' $page.html | grep -v '^http://www.w3.org/' | head -3)"
    fi
    [ "$(grep -c '<svg' $page.html)" -ge 2 ] || bad "$page.html has fewer than two inline figures"
done
grep -q '<h2>Where the GPU-hours went</h2>' run.html || bad "run.html has no GPU-hour breakdown"
grep -q '<h2>Interruptions by cause</h2>' run.html || bad "run.html has no interruptions by cause"
grep -q '<td><code>job.ettr</code></td>' run.html || bad "run.html has no summary table"
grep -q '<h2>Risk</h2>' sweep.html || bad "sweep.html has no risk table"
grep -q '<h2>Statistics per grid point</h2>' sweep.html || bad "sweep.html has no statistics"
grep -q 'tornado: ' sweep.html || bad "sweep.html has no tornado (its sweep has uncertain inputs)"

if [ ! -x "$chromium" ]; then
    echo "SKIP: rendering in a browser needs Debian's chromium (apt-get install -y chromium); the pages were checked"
    [ $fail -eq 0 ] && exit 77
    exit $fail
fi
printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n' > empty.html
shot() { # shot PAGE: PAGE.png, the browser's log in PAGE.log
    mkdir -p "profile.$1"
    timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile.$1" \
        --enable-logging=stderr --v=0 --window-size=1200,2400 --screenshot="$work/$1.png" \
        "file://$work/$1.html" > "$1.out" 2> "$1.log"
}
shot empty || bad "chromium failed on an empty page: $(tail -3 empty.log)"
for page in run sweep; do
    shot $page || { bad "chromium failed on $page.html: $(tail -3 $page.log)"; continue; }
    grep -q 'CONSOLE' $page.log && bad "$page.html: console messages: $(grep CONSOLE $page.log | head -3)"
    [ "$(head -c 4 $page.png | tail -c 3)" = PNG ] || { bad "$page.png is not a PNG"; continue; }
    size=$(wc -c < $page.png)
    blank=$(wc -c < empty.png)
    [ "$size" -gt $((blank * 4)) ] || bad "$page.png ($size bytes) looks blank (an empty page: $blank bytes)"
    echo "$page.html: rendered, $size bytes of screenshot against $blank for an empty page, no console message"
done
[ $fail -eq 0 ] && echo "the HTML reports are self-contained and render in a browser"
exit $fail
