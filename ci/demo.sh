#!/usr/bin/env bash
# The main job on a bundled sample: install what is needed, build, record the
# ES2 sample headless (EGL surfaceless on llvmpipe), then show the trace.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/ci/setup.sh"
bash "$here/ci/build.sh" "$here/build"
cd "$here/build"
./bin/gltrace record -o es2_triangle.gltrace -- ./tests/apps/es2_triangle
./bin/gltrace info es2_triangle.gltrace
./bin/gltrace dump es2_triangle.gltrace | head -n 60
