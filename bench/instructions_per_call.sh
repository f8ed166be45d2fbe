#!/usr/bin/env bash
# Instructions per call of capture and of replay, under callgrind: a
# repeatable measure (the same count whatever else the machine does) for
# checking that a change leaves the per-call paths as they were. Start-up
# cancels out: each figure is the difference between runs of bench/callloop
# with ITERS and 2*ITERS iterations (4 GL calls each), divided by the extra
# calls.
#   capture: `callloop` preloaded with GLTRACE=1: the app's thread (the
#            wrappers and the encoder; compression runs on a thread of the
#            library's own and is not counted)
#   replay:  `gltrace replay` of the two recordings
#   bench/instructions_per_call.sh [BUILD_DIR] [ITERS]
set -euo pipefail
build=${1:-build}; iters=${2:-25000}
bin=$build/bin; lib=$bin/libgltrace.so
command -v valgrind >/dev/null || { echo "valgrind not installed (ci/setup.sh)"; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ir() { # output-file command... -> instructions of the main thread
  # Threads counted apart: the app's thread is the one the wrappers slow
  # down, and the background compression varies with when the writer ran.
  local out=$1; shift
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out-01"
}
per_call() { python3 -c "print(f'{($2 - $1) / ($3 * 4):.1f}')" "$@"; }

declare -A cap rep
for n in "$iters" $((iters * 2)); do
  cap[$n]=$(LD_PRELOAD=$lib GLTRACE=1 GLTRACE_OUT="$tmp/c$n.gltrace" ir "$tmp/cg.c$n" "$bin/callloop" "$n")
  LD_PRELOAD=$lib GLTRACE=1 GLTRACE_OUT="$tmp/r$n.gltrace" "$bin/callloop" "$n" >/dev/null
  rep[$n]=$(ir "$tmp/cg.r$n" "$bin/gltrace" replay --quiet "$tmp/r$n.gltrace")
done
echo "capture: $(per_call "${cap[$iters]}" "${cap[$((iters * 2))]}" "$iters") instructions/call"
echo "replay:  $(per_call "${rep[$iters]}" "${rep[$((iters * 2))]}" "$iters") instructions/call"
