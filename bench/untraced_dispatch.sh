#!/usr/bin/env bash
# What libgltrace.so costs a GL call when it is loaded but not tracing
# (issue 6: "no more than one indirect call over the bare driver"), in one
# run: bench/callloop (4 cheap GL calls per iteration) bare, preloaded with
# GLTRACE=0, and preloaded listening for a host that never connects
# (GLTRACE_LISTEN with ,stream: the idle table; without it the app spools,
# a full recording, bench/midrun_cost.sh). Two measures:
#   * wall time per call, best of REPEATS interleaved rounds (noisy on a
#     shared machine);
#   * instructions per call under callgrind, from the difference between
#     runs of ITERS and 2*ITERS iterations (start-up cancels out; repeatable).
#   bench/untraced_dispatch.sh [BUILD_DIR] [ITERS] [REPEATS]
set -euo pipefail
build=${1:-build}; iters=${2:-2000000}; reps=${3:-7}
bin=$build/bin; lib=$bin/libgltrace.so
command -v valgrind >/dev/null || { echo "valgrind not installed (ci/setup.sh)"; exit 2; }
sock="abstract:gltrace-bench-$$"
run() { # variant iterations -> loop_ns
  case $1 in
    bare) env -u LD_PRELOAD "$bin/callloop" "$2" ;;
    off) LD_PRELOAD=$lib GLTRACE=0 "$bin/callloop" "$2" ;;
    idle) LD_PRELOAD=$lib GLTRACE_LISTEN=$sock,stream "$bin/callloop" "$2" 2>/dev/null ;;
  esac | sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p'
}
declare -A best
for _ in $(seq "$reps"); do
  for v in $(printf 'bare\noff\nidle\n' | shuf); do
    ns=$(run "$v" "$iters")
    if [ -z "${best[$v]:-}" ] || [ "$ns" -lt "${best[$v]}" ]; then best[$v]=$ns; fi
  done
done
ir() { # variant iterations -> instructions of the whole run
  local out; out=$(mktemp)
  case $1 in
    bare) valgrind --tool=callgrind --callgrind-out-file="$out" "$bin/callloop" "$2" ;;
    off) LD_PRELOAD=$lib GLTRACE=0 valgrind --tool=callgrind --callgrind-out-file="$out" "$bin/callloop" "$2" ;;
    idle) LD_PRELOAD=$lib GLTRACE_LISTEN=$sock,stream valgrind --tool=callgrind --callgrind-out-file="$out" \
            "$bin/callloop" "$2" ;;
  esac >/dev/null 2>&1
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out"; rm -f "$out"
}
small=$((iters / 10))
declare -A irpc
for v in bare off idle; do
  a=$(ir "$v" "$small"); b=$(ir "$v" $((small * 2)))
  irpc[$v]=$(python3 -c "print(($b - $a) / ($small * 4))")
done
python3 - "$iters" "${best[bare]}" "${best[off]}" "${best[idle]}" "${irpc[bare]}" "${irpc[off]}" "${irpc[idle]}" <<'PY'
import sys
iters = int(sys.argv[1]); calls = iters * 4
bare, off, idle = (int(x) / calls for x in sys.argv[2:5])
ib, io, ii = map(float, sys.argv[5:8])
print(f"calls per run: {calls}; wall time best of the rounds, instructions from callgrind")
print(f"bare driver                    {bare:6.2f} ns/call   {ib:7.1f} instructions/call")
print(f"preloaded, GLTRACE=0           {off:6.2f} ns/call   {io:7.1f} instructions/call   "
      f"(+{off - bare:5.2f} ns, +{io - ib:4.1f} instr, ratio {off / bare:5.3f})")
print(f"preloaded, listening, no host  {idle:6.2f} ns/call   {ii:7.1f} instructions/call   "
      f"(+{idle - bare:5.2f} ns, +{ii - ib:4.1f} instr, ratio {idle / bare:5.3f})")
PY
