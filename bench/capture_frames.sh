#!/usr/bin/env bash
# Capture per frame, gltrace against apitrace, in one run on one machine
# (bench/frames.c, EGL surfaceless on llvmpipe):
#  - frame rates at 320x240 and 1920x1080: untraced, apitrace, gltrace
#    --fb=none, gltrace --fb=swap (a snapshot every frame);
#  - the time a snapshot adds per frame against what the app's own
#    glReadPixels of the same surface costs (frames ... readback);
#  - trace bytes per frame with --fb=none against apitrace on a
#    texture-upload-heavy loop (a 256x256 RGBA upload per frame).
# Best of REPEATS runs each.   bench/capture_frames.sh [BUILD_DIR] [REPEATS]
set -euo pipefail
build=${1:-build}; reps=${2:-3}
bin=$build/bin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
command -v apitrace >/dev/null || { echo "apitrace not installed (ci/setup.sh)"; exit 2; }

best() { # highest fps of N runs of a command
  local b=0
  for _ in $(seq "$reps"); do
    local f; f=$("$@" 2>/dev/null | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1)
    b=$(python3 -c "print(max($b, ${f:-0}))")
  done
  echo "$b"
}

printf '%-10s %9s %9s %9s %9s %9s | %12s %12s %6s\n' size native apitrace gl-none gl-swap readback \
  "snapshot ms" "readpix ms" ratio
for size in "320 240 600" "1920 1080 120"; do
  set -- $size
  w=$1 h=$2 n=$3
  nat=$(best "$bin/frames" "$w" "$h" "$n" draw)
  api=$(best apitrace trace --api egl -o "$tmp/a.trace" "$bin/frames" "$w" "$h" "$n" draw)
  gnone=$(best "$bin/gltrace" record --fb=none -o "$tmp/n.gltrace" -- "$bin/frames" "$w" "$h" "$n" draw)
  gswap=$(best "$bin/gltrace" record --fb=swap -o "$tmp/s.gltrace" -- "$bin/frames" "$w" "$h" "$n" draw)
  rb=$(best "$bin/frames" "$w" "$h" "$n" readback)
  python3 - "$w" "$h" "$nat" "$api" "$gnone" "$gswap" "$rb" <<'PY'
import sys
w, h = sys.argv[1:3]
nat, api, gn, gs, rb = map(float, sys.argv[3:])
snap = 1e3 / gs - 1e3 / gn   # ms a snapshot adds per frame
read = 1e3 / rb - 1e3 / nat  # ms the app's own glReadPixels adds per frame
print(f"{w + 'x' + h:<10} {nat:9.1f} {api:9.1f} {gn:9.1f} {gs:9.1f} {rb:9.1f} | {snap:12.3f} {read:12.3f} {snap / read:6.2f}")
PY
done
echo "(fps; snapshot ms = 1000/gl-swap - 1000/gl-none; readpix ms = 1000/readback - 1000/native;"
echo " ratio goal <= 2)"

n=300
apitrace trace --api egl -o "$tmp/u.trace" "$bin/frames" 320 240 $n upload >/dev/null 2>&1
"$bin/gltrace" record --fb=none -o "$tmp/u.gltrace" -- "$bin/frames" 320 240 $n upload >/dev/null 2>&1
gs=$(stat -c %s "$tmp/u.gltrace"); as=$(stat -c %s "$tmp/u.trace")
python3 -c "
g, a, n = $gs, $as, $n
print(f'upload-heavy, {n} frames of a 256x256 RGBA upload: gltrace --fb=none {g/n/1024:.1f} KiB/frame, '
      f'apitrace {a/n/1024:.1f} KiB/frame, ratio {g/a:.3f} (goal <= 0.5)')"
