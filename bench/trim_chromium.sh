#!/usr/bin/env bash
# gltrace trim on a browser's GPU process: Debian's chromium, headless,
# drawing tests/apps/webgl_page.html through ANGLE on the system's GLES for
# BUDGET ms of virtual time, recorded as apps.chromium records it. It never
# swaps: its draws go into textures (tiles, layers) and pbuffers. Its last
# calls are trimmed from four starts (a quarter, a half, 85% and 97% of its
# calls), each made three ways in one run: as trim makes it; keeping the
# draws into textures (--keep-texture-draws: without step 9, which writes
# the textures' pixels at the start instead); and keeping the state
# commands too (--keep-state-commands, without step 8). For each: the
# setup's calls against the calls before the start, the size, whether its
# check passed on the first try. The numbers of replay/TRIM.md
# ("Measured").
#   bench/trim_chromium.sh [BUILD_DIR] [BUDGET]
set -euo pipefail
build=$(cd "${1:-build}" && pwd) budget=${2:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)
command -v chromium >/dev/null || { echo "chromium not installed (ci/setup.sh)"; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$build/bin/gltrace" record -o "$tmp/%n-%p.gltrace" -- chromium --headless=new --no-sandbox --ignore-gpu-blocklist \
  --use-gl=angle --use-angle=gles-egl --ozone-platform=headless --user-data-dir="$tmp/profile" \
  --screenshot="$tmp/shot.png" --window-size=400,300 --virtual-time-budget="$budget" \
  "file://$here/tests/apps/webgl_page.html" >"$tmp/record.log" 2>&1
trace=
for f in "$tmp"/*.gltrace; do
  "$build/bin/gltrace" info "$f" | grep -q -- '--type=gpu-process' && trace=$f
done
[ -n "$trace" ] || { echo "no GPU process trace (see $tmp/record.log)"; cat "$tmp/record.log"; exit 1; }
calls=$("$build/bin/gltrace" info "$trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["calls"])')
echo "original: $calls calls, $(stat -c %s "$trace") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for first in $((calls / 4)) $((calls / 2)) $((calls * 85 / 100)) $((calls * 97 / 100)); do
  echo "calls $first-$((calls - 1)):"
  for how in "" --keep-texture-draws "--keep-texture-draws --keep-state-commands"; do
    # shellcheck disable=SC2086
    out=$("$build/bin/gltrace" trim "$trace" --calls $first-$((calls - 1)) $how -o "$tmp/t.gltrace" 2>&1 || true)
    setup=$(echo "$out" | sed -n 's/.*after a setup of \([0-9]*\) of.*/\1/p')
    bytes=$(echo "$out" | sed -n 's/^size: \([0-9]*\) bytes, \([0-9.]*%\).*/\1 bytes (\2)/p')
    texture=$(echo "$out" | sed -n 's/.*: \([0-9]*\) draws and clears into textures; .* the pixels of \([0-9]*\) texture levels.*/, \1 draws into textures left out, \2 levels written/p')
    checked=$(echo "$out" | grep -q 'checked: its replay matches' && ! echo "$out" | grep -q '^note:' &&
              echo "checked exact on the first try" || echo "NOT exact on the first try")
    echo "  ${how:-as made}: setup of $setup calls, $bytes$texture, $checked"
  done
done
