#!/usr/bin/env bash
# gltrace trim on a GStreamer GL pipeline (gltestsrc ! glcolorconvert !
# gleffects ! glimagesink, GLES 2 through EGL in an X window under Xvfb,
# W x H, BUFFERS buffers): three-frame trims at a sixth, a half and near
# the end, each made three ways in one run: as trim makes it, keeping the
# state commands a later one replaced (--keep-state-commands, without
# step 8), and keeping the frames a later one repeats
# (--keep-repeated-frames, without step 4: the pipeline alternates between
# two output textures, so each frame repeats the one two before it). For
# each: the setup's calls, the size, and whether its check passed. The
# numbers of replay/TRIM.md ("Measured").
#   bench/trim_gstreamer.sh [BUILD_DIR] [BUFFERS] [WxH]
set -euo pipefail
build=$(cd "${1:-build}" && pwd) buffers=${2:-300} size=${3:-320x240}
for t in gst-launch-1.0 xvfb-run; do
  command -v $t >/dev/null || { echo "$t not installed (ci/setup.sh)"; exit 2; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export GST_GL_PLATFORM=egl GST_GL_API=gles2 GST_GL_WINDOW=x11
xvfb-run -a -s "-screen 0 1024x768x24" "$build/bin/gltrace" record -o "$tmp/gst-%p.gltrace" -- \
  gst-launch-1.0 -q gltestsrc num-buffers="$buffers" pattern=mandelbrot ! \
  "video/x-raw(memory:GLMemory),width=${size%x*},height=${size#*x}" ! glcolorconvert ! gleffects effect=twirl ! \
  glimagesink sync=false >"$tmp/record.log" 2>&1
trace=$(ls "$tmp"/gst-*.gltrace)
frames=$("$build/bin/gltrace" info "$trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])')
echo "original: $frames frames, $(stat -c %s "$trace") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bin/gltrace" replay "$trace" --no-progress 2>&1 | tail -1
for k in $((frames / 6)) $((frames / 2)) $((frames - 6)); do
  echo "frames $k-$((k + 2)):"
  for how in "" --keep-state-commands --keep-repeated-frames; do
    out=$("$build/bin/gltrace" trim "$trace" --frames $k-$((k + 2)) $how -o "$tmp/t.gltrace" 2>&1 || true)
    setup=$(echo "$out" | sed -n 's/.*after a setup of \([0-9]*\) of.*/\1/p')
    bytes=$(echo "$out" | sed -n 's/^size: \([0-9]*\) bytes, \([0-9.]*%\).*/\1 bytes (\2)/p')
    checked=$(echo "$out" | grep -q 'checked: its replay matches 3 of 3' && echo "checked exact" || echo "NOT exact")
    echo "  ${how:-as made}: setup of $setup calls, $bytes, $checked"
  done
done
