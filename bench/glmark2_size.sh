#!/usr/bin/env bash
# Trace bytes per frame on a glmark2-es2 scene mix under Xvfb, gltrace
# (--fb=none: calls and their data only) against apitrace, in one run.
# glmark2 runs each scene for a set time, so the two tracers see different
# frame counts: bytes per frame is the measure.
#   bench/glmark2_size.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in glmark2-es2 apitrace xvfb-run; do
  command -v $t >/dev/null || { echo "$t not installed (ci/setup.sh)"; exit 2; }
done
scenes=(-b build:use-vbo=false:duration=1 -b build:use-vbo=true:duration=1 -b texture:duration=1
        -b shading:shading=phong:duration=1 -b bump:bump-render=normals:duration=1
        -b effect2d:duration=1 -b pulsar:duration=1 -b desktop:duration=1 -b jellyfish:duration=1)
x=(xvfb-run -a -s "-screen 0 1024x768x24")
"${x[@]}" "$build/bin/gltrace" record --fb=none -o "$tmp/g.gltrace" -- glmark2-es2 --size 640x480 "${scenes[@]}" \
  >/dev/null 2>&1
"${x[@]}" apitrace trace --api egl -o "$tmp/a.trace" glmark2-es2 --size 640x480 "${scenes[@]}" >/dev/null 2>&1
gframes=$("$build/bin/gltrace" info "$tmp/g.gltrace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])')
aframes=$(apitrace dump --calls=frame "$tmp/a.trace" 2>/dev/null | grep -c 'eglSwapBuffers' || true)
gs=$(stat -c %s "$tmp/g.gltrace"); as=$(stat -c %s "$tmp/a.trace")
python3 -c "
g, a, gf, af = $gs, $as, $gframes, $aframes
print(f'glmark2-es2 scene mix, 640x480: gltrace --fb=none {g} bytes / {gf} frames = {g/gf:.0f} B/frame; '
      f'apitrace {a} bytes / {af} frames = {a/af:.0f} B/frame; ratio {(g/gf)/(a/af):.3f} (goal <= 0.5)')"
