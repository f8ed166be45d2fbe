#!/usr/bin/env bash
# The main job on a bundled sample: install what is needed, build, record the
# ES3 sample headless (EGL surfaceless on llvmpipe), show what the trace
# holds, then replay it headless and compare every recorded snapshot.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/ci/setup.sh"
bash "$here/ci/build.sh" "$here/build"
cd "$here/build"
./bin/gltrace record -o es3_scene.gltrace -- ./tests/apps/es3_scene
./bin/gltrace info es3_scene.gltrace
# The whole dump to a file, its start on the terminal (a pipe into head
# would end dump with SIGPIPE, which pipefail makes this script's failure).
./bin/gltrace dump es3_scene.gltrace > es3_scene.txt
head -n 40 es3_scene.txt
./bin/gltrace replay es3_scene.gltrace --out replay-es3_scene
