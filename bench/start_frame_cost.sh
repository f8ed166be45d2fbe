#!/usr/bin/env bash
# What `gltrace record --start-frame N --frames K` costs, against running
# untraced and recording in full. It records the run and trims once the
# program has exited; the frames before N - 1 take no snapshot
# (GLTRACE_START_FRAME) and hold their state commands back until a read
# (capture/cap_defer.c; bench/held_back_cost.sh compares that with every
# call written, on more call mixes). Two loads: the call-heavy loop
# (bench/callloop.c: ns per call inside the loop; it has no frames, so
# --start-frame 0) and a frame loop (bench/frames.c draw at W x H: frames
# per second inside the loop, a 3-frame trim at the end, ROUNDS rounds
# with the ratios' median and spread). Wall times are of the whole
# gltrace record command, the trim at the end included.
#   bench/start_frame_cost.sh [BUILD_DIR] [ITERATIONS] [FRAMES] [WxH] [ROUNDS]
set -euo pipefail
build=${1:-build}; iters=${2:-1000000}; frames=${3:-2000}; size=${4:-320x240}; rounds=${5:-5}
w=${size%x*} h=${size#*x}
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
# The frame loop, ROUNDS rounds interleaved, at W x H: untraced, recorded
# in full, and --start-frame three frames before the end (so nearly every
# frame of the loop is one before the start, which takes no snapshot).
last=$((frames - 3))
for r in $(seq "$rounds"); do
  wall "$bin/frames" "$w" "$h" "$frames" draw >/dev/null; nf=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out")
  f=$(wall "$bin/gltrace" record -o "$tmp/ffull.gltrace" -- "$bin/frames" "$w" "$h" "$frames" draw)
  ff=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out")
  t=$(wall "$bin/gltrace" record --start-frame $last --frames 3 -o "$tmp/fsf.gltrace" -- "$bin/frames" "$w" "$h" "$frames" draw)
  tf=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out")
  echo "$nf $ff $tf $f $t $(stat -c %s "$tmp/ffull.gltrace") $(stat -c %s "$tmp/fsf.gltrace")" >>"$tmp/rounds"
done
python3 - "$tmp/rounds" "$frames" "$w" "$h" "$last" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
frames, w, h, last = sys.argv[2:6]
print(f"frames, {frames} frames {w}x{h}, {len(rows)} rounds: fps in the loop untraced / full recording / "
      f"--start-frame {last} --frames 3; whole command s; trace bytes full and trimmed")
for i, (nf, ff, tf, f, t, fs, ts) in enumerate(rows, 1):
    print(f"  round {i}: {nf:.0f} / {ff:.0f} / {tf:.0f} fps; {f:.2f} s, {t:.2f} s; {fs:.0f} and {ts:.0f} bytes; "
          f"--start-frame / full {tf / ff:.2f}, / untraced {tf / nf:.2f}")
sf = [tf / ff for _, ff, tf, *_ in rows]; su = [tf / nf for nf, _, tf, *_ in rows]
fu = [ff / nf for nf, ff, *_ in rows]
print(f"  fps ratio --start-frame / full recording: median {statistics.median(sf):.2f} [{min(sf):.2f}..{max(sf):.2f}]; "
      f"--start-frame / untraced {statistics.median(su):.2f} [{min(su):.2f}..{max(su):.2f}]; "
      f"full / untraced {statistics.median(fu):.2f} [{min(fu):.2f}..{max(fu):.2f}]")
PY
