#!/usr/bin/env bash
# What `gltrace record --start-frame N --frames K` costs, against running
# untraced and recording in full. It records in full and trims once the
# program has exited (capture has no tracking of the state with writing
# off yet), so the app runs as fast as under a full recording: the
# difference is the trim at the end, and the disk the full run takes
# meanwhile. Two loads: the call-heavy loop (bench/callloop.c: ns per call
# inside the loop; it has no frames, so --start-frame 0) and a frame loop
# (bench/frames.c draw: frames per second inside the loop, a 3-frame trim
# from the middle). Wall times are of the whole gltrace record command.
#   bench/start_frame_cost.sh [BUILD_DIR] [ITERATIONS] [FRAMES]
set -euo pipefail
build=${1:-build}; iters=${2:-1000000}; frames=${3:-2000}
bin=$build/bin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
wall() { local s e; s=$(date +%s.%N); "$@" >"$tmp/out" 2>"$tmp/err"; e=$(date +%s.%N); echo "$e - $s" | bc; }
echo "load: $(uptime | sed 's/.*load/load/')"
calls=$((iters * 4))
n=$(wall "$bin/callloop" "$iters"); nl=$(sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p' "$tmp/out")
f=$(wall "$bin/gltrace" record -o "$tmp/full.gltrace" -- "$bin/callloop" "$iters"); fl=$(sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p' "$tmp/out")
t=$(wall "$bin/gltrace" record --start-frame 0 -o "$tmp/sf.gltrace" -- "$bin/callloop" "$iters"); tl=$(sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p' "$tmp/out")
python3 - "$calls" "$nl" "$fl" "$tl" "$n" "$f" "$t" "$(stat -c %s "$tmp/full.gltrace")" "$(stat -c %s "$tmp/sf.gltrace")" <<'PY'
import sys
calls, nl, fl, tl = map(int, sys.argv[1:5]); n, f, t = map(float, sys.argv[5:8]); fs, ts = map(int, sys.argv[8:10])
print(f"callloop, {calls} calls: in the loop untraced {nl/calls:.1f} ns/call, full recording {fl/calls:.1f}, "
      f"--start-frame 0 {tl/calls:.1f}; whole command {n:.2f} s, {f:.2f} s, {t:.2f} s; trace {fs} and {ts} bytes")
PY
mid=$((frames / 2))
n=$(wall "$bin/frames" 64 64 "$frames" draw); nf=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out")
f=$(wall "$bin/gltrace" record -o "$tmp/ffull.gltrace" -- "$bin/frames" 64 64 "$frames" draw); ff=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out")
t=$(wall "$bin/gltrace" record --start-frame $mid --frames 3 -o "$tmp/fsf.gltrace" -- "$bin/frames" 64 64 "$frames" draw)
tf=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out")
echo "frames, $frames frames 64x64: in the loop untraced $nf fps, full recording $ff, --start-frame $mid --frames 3 $tf;" \
     "whole command $n s, $f s, $t s; trace $(stat -c %s "$tmp/ffull.gltrace") and $(stat -c %s "$tmp/fsf.gltrace") bytes"
