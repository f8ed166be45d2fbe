#!/usr/bin/env bash
# What listening for a host (GLTRACE_LISTEN) costs an app while no host has
# started tracing, against running untraced and recording in full:
#   spool     GLTRACE_LISTEN=abstract:NAME   every call recorded into the
#             spool (what lets a trace started mid-run replay on its own)
#   stream    GLTRACE_LISTEN=abstract:NAME,stream   nothing recorded until
#             a host starts (the idle table); such a trace lacks what was
#             made before its start
# Instructions per call of the app's thread under callgrind (repeatable
# whatever the load: the difference between ITERS and 2*ITERS iterations of
# bench/callloop, 4 GL calls each), then wall-clock ns per call inside the
# loop of bench/callloop and frames per second of bench/frames (which mean
# something only on a quiet machine: the load is printed), and the bytes
# the spool holds at the end (kept with ,keep for that).
#   bench/midrun_cost.sh [BUILD_DIR] [ITERS_CALLGRIND] [ITERS_WALL] [FRAMES]
set -euo pipefail
build=${1:-build}; ci=${2:-25000}; iters=${3:-1000000}; frames=${4:-2000}
bin=$build/bin; lib=$bin/libgltrace.so
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
name=gltrace-bench-$$
echo "load: $(uptime | sed 's/.*load/load/')"

# run MODE command...: the command under MODE's environment.
run() {
  local mode=$1; shift
  case $mode in
    untraced) env "$@" ;;
    full) env LD_PRELOAD="$lib" GLTRACE=1 GLTRACE_OUT="$tmp/full.gltrace" "$@" ;;
    spool) env LD_PRELOAD="$lib" GLTRACE_LISTEN="abstract:$name,keep" GLTRACE_SPOOL="$tmp" "$@" ;;
    stream) env LD_PRELOAD="$lib" GLTRACE_LISTEN="abstract:$name,stream" "$@" ;;
  esac
}
modes="untraced stream spool full"
per_call() { python3 -c "import sys; a, b, n = map(int, sys.argv[1:]); print(f'{(b - a) / (n * 4):.1f}')" "$@"; }

if command -v valgrind >/dev/null; then
  line="callgrind, instructions per call of the app's thread:"
  for m in $modes; do
    declare -A ir=()
    for n in "$ci" $((ci * 2)); do
      rm -f "$tmp"/gltrace-spool-*
      run "$m" valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.$n" \
        "$bin/callloop" "$n" >/dev/null 2>&1
      ir[$n]=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.$n-01")
    done
    line+=" $m $(per_call "${ir[$ci]}" "${ir[$((ci * 2))]}" "$ci")"
  done
  echo "$line"
else
  echo "valgrind not installed (ci/setup.sh): no instruction counts"
fi

line="callloop, $((iters * 4)) calls, ns per call in the loop:"
for m in $modes; do
  rm -f "$tmp"/gltrace-spool-*
  out=$(run "$m" "$bin/callloop" "$iters" 2>/dev/null)
  ns=$(sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p' <<<"$out")
  line+=" $m $(python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.1f}')" "$ns" $((iters * 4)))"
  [ "$m" = spool ] && spool_calls=$(stat -c %s "$tmp"/gltrace-spool-*)
done
echo "$line; spool at exit $spool_calls bytes"

line="frames, $frames frames 64x64 (draw), frames per second in the loop:"
for m in $modes; do
  rm -f "$tmp"/gltrace-spool-*
  out=$(run "$m" "$bin/frames" 64 64 "$frames" draw 2>/dev/null)
  line+=" $m $(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' <<<"$out")"
  [ "$m" = spool ] && spool_frames=$(stat -c %s "$tmp"/gltrace-spool-*)
done
echo "$line; spool at exit $spool_frames bytes"
