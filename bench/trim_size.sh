#!/usr/bin/env bash
# gltrace trim on a long recording: a glmark2-es2 scene mix (a new context
# per scene) recorded under Xvfb with the default --fb=swap, then
# three-frame trims at a few points: each trim's size against the
# original's, its setup against the calls before it, and the wall time of
# the trim (replaying the original up to the start, writing, replaying the
# trim to check it). The numbers of replay/TRIM.md.
#   bench/trim_size.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in glmark2-es2 xvfb-run; do
  command -v $t >/dev/null || { echo "$t not installed (ci/setup.sh)"; exit 2; }
done
xvfb-run -a -s "-screen 0 1024x768x24" "$build/bin/gltrace" record -o "$tmp/gm.gltrace" -- glmark2-es2 \
  --size 160x120 -b build:use-vbo=true:duration=2 -b texture:duration=2 -b shading:shading=phong:duration=2 \
  -b jellyfish:duration=2 -b effect2d:duration=2 -b terrain:duration=2 >/dev/null 2>&1
frames=$("$build/bin/gltrace" info "$tmp/gm.gltrace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])')
echo "original: $frames frames, $(stat -c %s "$tmp/gm.gltrace") bytes; load: $(uptime | sed 's/.*load/load/')"
for k in 100 $((frames / 2)) $((frames - 10)); do
  start=$(date +%s.%N)
  out=$("$build/bin/gltrace" trim "$tmp/gm.gltrace" --frames $k-$((k + 2)) -o "$tmp/t.gltrace")
  end=$(date +%s.%N)
  size=$(echo "$out" | sed -n 's/^size: \([0-9]*\) bytes, \([0-9.]*\)%.*/\1 bytes, \2%/p')
  setup=$(echo "$out" | sed -n 's/.*after a setup of \([0-9]*\) of the \([0-9]*\) calls.*/setup \1 of \2 calls/p')
  check=$(echo "$out" | sed -n 's/^checked: //p')
  printf 'frames %d-%d: %s, %s, %.1f s (%s)\n' $k $((k + 2)) "$size" "$setup" "$(echo "$end - $start" | bc)" "$check"
done
