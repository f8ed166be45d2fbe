#!/usr/bin/env bash
# Configures and builds gltrace into a build folder.
#   ci/build.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
cmake -S "$here" -B "$build" -DGLTRACE_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)"
