#!/usr/bin/env bash
# What a repeat of `gltrace replay TRIM --loop N` costs when it starts from
# the state the kept frames changed written back (replay/rp_reset.c),
# against starting from its setup replayed again into new contexts
# (--loop-rebuild, the only way before). Both replay the same kept frames
# with --benchmark; what differs is the reset.
#
# Workloads, recorded here as a user would: glmark2-es2 scenes (build,
# texture, shading, jellyfish, terrain: trims 3 frames from each scene's
# middle; and the scenes drawing into framebuffer objects, desktop,
# shadow, refract, bloom, whose textures the written reset copies back),
# es2gears_x11, mpv playing a test pattern (uploads each frame, timer
# queries, fences) and GStreamer's glvideomixer (uploads through its own
# vertex arrays), under Xvfb; mpv and gst-launch-1.0 are left out when
# missing. None was written for this.
# Per trim ROUNDS rounds, three runs interleaved: no --loop, --loop N
# written, --loop N rebuilt; a repeat's time is (run - the run without
# --loop) / N. Reports per trim the ms per repeat each way and the ratio
# written / rebuilt, median and [min..max] over the rounds, with the
# reset each way took (calls written, or why it rebuilt).
#   bench/loop_reset.sh [BUILD_DIR] [N] [ROUNDS]
set -euo pipefail
build=${1:-build}; n=${2:-50}; rounds=${3:-5}
g=$(cd "$build/bin" && pwd)/gltrace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for tool in xvfb-run glmark2-es2 es2gears_x11; do
  command -v "$tool" >/dev/null || { echo "loop_reset.sh: $tool not found (ci/setup.sh installs it)" >&2; exit 2; }
done
echo "load: $(uptime | sed 's/.*load/load/')"
xrun() { xvfb-run -a -s "-screen 0 1024x768x24" "$@"; }

# The recordings and their trims: NAME TRACE FIRST_FRAME
xrun "$g" record -o "$tmp/gm.gltrace" -- glmark2-es2 -s 320x240 -b build:duration=1 -b texture:duration=1 \
  -b shading:shading=phong:duration=1 -b jellyfish:duration=1 -b terrain:duration=1 >/dev/null 2>&1
xrun "$g" record -o "$tmp/fbo.gltrace" -- glmark2-es2 -s 320x240 -b desktop:duration=1 -b shadow:duration=1 \
  -b refract:duration=1 -b bloom:duration=1 >/dev/null 2>&1
xrun "$g" record -o "$tmp/gears.gltrace" -- timeout 3 es2gears_x11 >/dev/null 2>&1 || true
if command -v mpv >/dev/null; then
  xrun "$g" record -o "$tmp/rec-mpv.gltrace" -- mpv --no-config --vo=gpu --gpu-context=x11egl --opengl-es=yes \
    --hwdec=no --frames=90 --no-audio --geometry=320x240 --really-quiet av://lavfi:testsrc=size=320x240:rate=30 \
    >/dev/null 2>&1 || true
fi
if command -v gst-launch-1.0 >/dev/null; then
  GST_GL_PLATFORM=egl GST_GL_API=gles2 GST_GL_WINDOW=x11 xrun "$g" record -o "$tmp/rec-mix.gltrace" -- \
    gst-launch-1.0 -q glvideomixer name=m sink_1::xpos=40 sink_1::ypos=20 sink_1::alpha=0.7 ! glimagesink sync=false \
    videotestsrc num-buffers=80 pattern=ball ! video/x-raw,width=160,height=120 ! glupload ! glcolorconvert ! m. \
    videotestsrc num-buffers=80 pattern=smpte ! video/x-raw,width=80,height=60 ! glupload ! \
    gltransformation rotation-z=30 ! m. >/dev/null 2>&1 || true
fi
frames() { "$g" replay "$1" --benchmark --no-progress 2>&1 | sed -n 's/.*: \([0-9]*\) frames in.*/\1/p'; }
gm=$(frames "$tmp/gm.gltrace"); fbo=$(frames "$tmp/fbo.gltrace"); gears=$(frames "$tmp/gears.gltrace")
trims=()
for part in 1 3 5 7 9; do trims+=("glmark2-$part $tmp/gm.gltrace $((gm * part / 10))"); done
for part in 1 3 5 7; do trims+=("glmark2-fbo-$part $tmp/fbo.gltrace $((fbo * (2 * part + 1) / 16))"); done
trims+=("es2gears $tmp/gears.gltrace $((gears / 2))")
for app in mpv mix; do
  rec=$tmp/rec-$app.gltrace # not $tmp/$app.gltrace: that is where its trim goes
  if [ -f "$rec" ]; then trims+=("$app $rec $(( $(frames "$rec") / 2 ))"); fi
done

secs() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000 )); }
for t in "${trims[@]}"; do
  read -r name trace first <<<"$t"
  cut=$tmp/$name.gltrace
  "$g" trim "$trace" --frames "$first-$((first + 2))" -o "$cut" >/dev/null 2>&1 || { echo "$name: trim failed"; continue; }
  how_w=$("$g" replay "$cut" --benchmark --loop 1 --no-progress 2>&1 | grep -o 'repeats reset by [^:]*\(: .*\)\?' | head -1)
  : >"$tmp/$name.r"
  for _ in $(seq "$rounds"); do
    base=$(secs "$g" replay "$cut" --benchmark --no-progress)
    w=$(secs "$g" replay "$cut" --benchmark --loop "$n" --no-progress)
    b=$(secs "$g" replay "$cut" --benchmark --loop "$n" --loop-rebuild --no-progress)
    echo "$base $w $b" >>"$tmp/$name.r"
  done
  python3 - "$name" "$n" "$tmp/$name.r" "$how_w" <<'EOF'
import statistics, sys
name, n, path, how = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = [list(map(int, l.split())) for l in open(path)]
w = [(r[1] - r[0]) / n / 1000 for r in rows]
b = [(r[2] - r[0]) / n / 1000 for r in rows]
ratio = [x / y for x, y in zip(w, b) if y > 0]
print(f'{name}: ms per repeat written {statistics.median(w):.2f}, rebuilt {statistics.median(b):.2f}; '
      f'written / rebuilt {statistics.median(ratio):.3f} [{min(ratio):.3f}..{max(ratio):.3f}] '
      f'over {len(rows)} rounds ({how})')
EOF
done
