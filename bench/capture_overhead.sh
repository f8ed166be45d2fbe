#!/usr/bin/env bash
# Per-call capture cost and trace bytes per call, gltrace against apitrace,
# in one run on one machine: a loop of cheap GL calls (bench/callloop.c)
# recorded natively, under `apitrace trace --api egl` and under gltrace.
#   bench/capture_overhead.sh [BUILD_DIR] [ITERATIONS] [REPEATS]
set -euo pipefail
build=${1:-build}; iters=${2:-1000000}; reps=${3:-5}
bin=$build/bin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
command -v apitrace >/dev/null || { echo "apitrace not installed (ci/setup.sh)"; exit 2; }

best() { # best loop_ns of N runs of a command
  local b=""
  for _ in $(seq "$reps"); do
    local ns; ns=$("$@" 2>/dev/null | sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p' | tail -1)
    if [ -z "$b" ] || [ "$ns" -lt "$b" ]; then b=$ns; fi
  done
  echo "$b"
}
calls=$((iters * 4))
native=$(best "$bin/callloop" "$iters")
ours=$(best "$bin/gltrace" record -o "$tmp/g.gltrace" -- "$bin/callloop" "$iters")
theirs=$(best apitrace trace --api egl -o "$tmp/a.trace" "$bin/callloop" "$iters")
gsize=$(stat -c %s "$tmp/g.gltrace"); asize=$(stat -c %s "$tmp/a.trace")
python3 - "$calls" "$native" "$ours" "$theirs" "$gsize" "$asize" <<'PY'
import sys
calls, native, ours, theirs, gsize, asize = map(int, sys.argv[1:])
g = (ours - native) / calls; a = (theirs - native) / calls
print(f"calls per run            {calls}")
print(f"native                   {native/calls:8.1f} ns/call")
print(f"gltrace added            {g:8.1f} ns/call   trace {gsize/calls:6.2f} bytes/call")
print(f"apitrace added           {a:8.1f} ns/call   trace {asize/calls:6.2f} bytes/call")
print(f"ratio time  gltrace/apitrace  {g/a:6.3f}   (goal <= 0.2)")
print(f"ratio bytes gltrace/apitrace  {gsize/asize:6.3f}   (goal <= 0.5)")
PY
