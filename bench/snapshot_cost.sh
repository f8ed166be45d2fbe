#!/usr/bin/env bash
# Capture's time per snapshot against a bare glReadPixels, in one run:
# bench/frames (a light scene on an EGL pbuffer, llvmpipe) at 320x240 and
# 1920x1080, four ways interleaved in every round:
#   native    untraced
#   readback  untraced, the app's own glReadPixels of the surface each frame
#   none      gltrace record --fb=none (calls only)
#   swap      gltrace record --fb=swap (a snapshot every frame)
# Per round: snapshot ms = 1000/fps(swap) - 1000/fps(none), the time a
# snapshot adds to a frame of the app's loop; read ms = 1000/fps(readback)
# - 1000/fps(native), what the app's own read adds. Prints each round's
# ratio, then medians and the spread. Goal (issue 14): ratio <= 2.
# The fps is timed inside the app's loop (start-up, compaction excluded).
#
# Then the same on the app's thread, by the records' own durations (no fps
# difference, so no noise of two separate runs): a snapshot's record holds
# what taking it cost the app's thread (from before the read to the
# record's end), the app's glReadPixels record what the driver's read
# took; both come first after the frame's draws, so both include waiting
# for them. Medians over every frame but the first of each round.
#
#   bench/snapshot_cost.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
build=${1:-build}; rounds=${2:-7}
bin=$build/bin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

fps() { "$@" 2>/dev/null | sed -n 's/.*fps=\([0-9.]*\).*/\1/p' | tail -1; }

for size in "320 240 3000" "1920 1080 150"; do
  set -- $size
  w=$1 h=$2 n=$3
  out=$tmp/$w.txt
  : >"$out"
  fps "$bin/frames" "$w" "$h" "$n" draw >/dev/null # warm up
  for r in $(seq "$rounds"); do
    nat=$(fps "$bin/frames" "$w" "$h" "$n" draw)
    rb=$(fps "$bin/frames" "$w" "$h" "$n" readback)
    gn=$(fps "$bin/gltrace" record --fb=none -o "$tmp/n.gltrace" -- "$bin/frames" "$w" "$h" "$n" draw)
    gs=$(fps "$bin/gltrace" record --fb=swap -o "$tmp/s.gltrace" -- "$bin/frames" "$w" "$h" "$n" draw)
    echo "$nat $rb $gn $gs" >>"$out"
  done
  python3 - "$w" "$h" "$n" "$out" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics as st
import sys
w, h, n, path, load = sys.argv[1:]
rows = [list(map(float, l.split())) for l in open(path)]
snap = [1e3 / gs - 1e3 / gn for nat, rb, gn, gs in rows]
read = [1e3 / rb - 1e3 / nat for nat, rb, gn, gs in rows]
ratio = [s / r if r > 0 else float('nan') for s, r in zip(snap, read)]
print(f'{w}x{h}, {n} frames, {len(rows)} rounds (load {load}):')
for i, (row, s, r, q) in enumerate(zip(rows, snap, read, ratio)):
    print(f'  round {i + 1}: fps native {row[0]:.1f} readback {row[1]:.1f} --fb=none {row[2]:.1f} --fb=swap {row[3]:.1f}'
          f' | snapshot {s:.3f} ms, glReadPixels {r:.3f} ms, ratio {q:.2f}')
ms, mr = st.median(snap), st.median(read)
good = sorted(q for q in ratio if q == q)
print(f'  median: snapshot {ms:.3f} ms, glReadPixels {mr:.3f} ms, ratio of medians {ms / mr:.2f}; '
      f'per-round ratios {good[0]:.2f}..{good[-1]:.2f}, median {st.median(good):.2f} (goal <= 2)')
PY
done

echo "On the app's thread (record durations: gltraceSnapshot in draw mode with --fb=swap, the app's own"
echo "glReadPixels in readback mode with --fb=none):"
for size in "320 240 600" "1920 1080 60"; do
  set -- $size
  w=$1 h=$2 n=$3
  for r in $(seq "$rounds"); do
    "$bin/gltrace" record --fb=swap -o "$tmp/s.gltrace" -- "$bin/frames" "$w" "$h" "$n" draw >/dev/null 2>&1
    "$bin/gltrace" record --fb=none -o "$tmp/r.gltrace" -- "$bin/frames" "$w" "$h" "$n" readback >/dev/null 2>&1
    "$bin/gltrace" dump --json "$tmp/s.gltrace" | python3 -c "
import json, statistics, sys
d = [json.loads(l)['dur'] for l in sys.stdin if '\"gltraceSnapshot\"' in l]
print(statistics.median(d[1:]))" >>"$tmp/snapdur.$w"
    "$bin/gltrace" dump --json "$tmp/r.gltrace" | python3 -c "
import json, statistics, sys
d = [json.loads(l)['dur'] for l in sys.stdin if '\"glReadPixels\"' in l]
print(statistics.median(d[1:]))" >>"$tmp/readdur.$w"
  done
  python3 - "$w" "$h" "$n" "$tmp/snapdur.$w" "$tmp/readdur.$w" <<'PY'
import statistics as st
import sys
w, h, n, sp, rp = sys.argv[1:]
snap = [float(l) / 1e6 for l in open(sp)]
read = [float(l) / 1e6 for l in open(rp)]
ratio = sorted(s / r for s, r in zip(snap, read))
print(f'  {w}x{h}, {n} frames a round: snapshot {st.median(snap):.3f} ms [{min(snap):.3f}..{max(snap):.3f}], '
      f'glReadPixels {st.median(read):.3f} ms [{min(read):.3f}..{max(read):.3f}]; per-round ratio '
      f'{ratio[0]:.2f}..{ratio[-1]:.2f}, median {st.median(ratio):.2f} (goal <= 2)')
PY
done
