#!/usr/bin/env bash
# What capture costs before the start of a mid-run capture, with writing
# off (capture/cap_defer.c: a state command waits until something reads
# it and is dropped when a later one of its key replaces it first; queries
# are not written), against running untraced, recording every call
# (GLTRACE=1), and the same start with every call written
# (GLTRACE_COALESCE=0, what --start-frame did before). The whole run is
# before the start (GLTRACE_START_FRAME far past its end), as the frames
# before a late start are.
#
# Workloads: bench/callloop (the call-heavy loop: a uniform and a blend
# toggle), bench/replay/callmix's four mixes (written for replay, not for
# this: attribute values, buffer and texture bindings, uniforms behind
# pointers, plain state, matrices), and bench/frames (a frame loop that
# draws: every draw reads what was set before it, so little is held; and
# its upload mode, a 256x256 RGBA texture written each frame, which
# capture leaves out and reads back: capture/cap_texhold.c).
# Per workload ROUNDS rounds, the four ways interleaved; per way the time
# inside the loop (ns per call, or fps for frames), the process's CPU time
# (user + system, the writer thread's compression included) and the trace's
# bytes; then the ratios' median and [min..max] over the rounds.
#   bench/held_back_cost.sh [BUILD_DIR] [ITERATIONS] [FRAMES] [ROUNDS]
set -euo pipefail
build=${1:-build}; iters=${2:-1000000}; frames=${3:-1000}; rounds=${4:-5}
bin=$build/bin
lib=$(cd "$bin" && pwd)/libgltrace.so
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "load: $(uptime | sed 's/.*load/load/')"
far=1000000000000
# one NAME WAY ARGV...: runs it, appends "loop cpu bytes" to $tmp/NAME.WAY
one() {
  local name=$1 way=$2; shift 2
  local out=$tmp/t.gltrace env=()
  rm -f "$out"
  case $way in
    untraced) env=() ;;
    full) env=(GLTRACE=1 GLTRACE_OUT="$out" LD_PRELOAD="$lib") ;;
    held) env=(GLTRACE=1 GLTRACE_OUT="$out" GLTRACE_START_FRAME=$far LD_PRELOAD="$lib") ;;
    written) env=(GLTRACE=1 GLTRACE_OUT="$out" GLTRACE_START_FRAME=$far GLTRACE_COALESCE=0 LD_PRELOAD="$lib") ;;
  esac
  env "${env[@]}" /usr/bin/time -f "cpu=%U+%S" "$@" >"$tmp/out" 2>"$tmp/err"
  local loop cpu bytes=0
  loop=$(sed -n 's/.*loop_ns=\([0-9]*\).*/\1/p; s/.*fps=\([0-9.]*\).*/\1/p' "$tmp/out" | head -1)
  cpu=$(sed -n 's/^cpu=\(.*\)/\1/p' "$tmp/err" | bc)
  [ -f "$out" ] && bytes=$(stat -c %s "$out")
  [ -n "$loop" ] || { echo "$name $way: no result: $(tail -3 "$tmp/err")" >&2; exit 1; }
  echo "$loop $cpu $bytes" >>"$tmp/$name.$way"
}
workloads=("callloop|$bin/callloop $iters|$((iters * 4))"
           "callmix-blend|$bin/callmix blend $iters|$((iters * 3))"
           "callmix-attrib|$bin/callmix attrib $iters|$((iters * 8))"
           "callmix-state|$bin/callmix state $iters|$((iters * 6))"
           "callmix-matrix|$bin/callmix matrix $iters|$((iters * 7))"
           "frames-320x240|$bin/frames 320 240 $frames draw|0"
           "frames-upload|$bin/frames 320 240 $frames upload|0")
for r in $(seq "$rounds"); do
  for w in "${workloads[@]}"; do
    IFS='|' read -r name cmd calls <<<"$w"
    for way in untraced full held written; do
      # shellcheck disable=SC2086
      one "$name" "$way" $cmd
    done
  done
done
for w in "${workloads[@]}"; do
  IFS='|' read -r name cmd calls <<<"$w"
  python3 - "$tmp" "$name" "$calls" <<'PY'
import statistics, sys
tmp, name, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
ways = ['untraced', 'full', 'held', 'written']
rows = {w: [list(map(float, l.split())) for l in open(f'{tmp}/{name}.{w}')] for w in ways}
def span(xs):
    return f'{statistics.median(xs):.2f} [{min(xs):.2f}..{max(xs):.2f}]'
# in the loop: ns per call (lower is better), or fps (higher is better): as a cost, time per unit
cost = {w: [(r[0] / calls if calls else 1e9 / r[0]) for r in rows[w]] for w in ways}
unit = 'ns/call' if calls else 'ms/1000 frames'
scale = 1 if calls else 1e-3
med = {w: statistics.median(cost[w]) * scale for w in ways}
print(f'{name}: in the loop, median {unit}: untraced {med["untraced"]:.1f}, full {med["full"]:.1f}, '
      f'held back {med["held"]:.1f}, every call written {med["written"]:.1f}; '
      f'CPU s: ' + ', '.join(f'{w} {statistics.median([r[1] for r in rows[w]]):.2f}' for w in ways) +
      f'; trace bytes: full {statistics.median([r[2] for r in rows["full"]]):.0f}, '
      f'held {statistics.median([r[2] for r in rows["held"]]):.0f}, '
      f'written {statistics.median([r[2] for r in rows["written"]]):.0f}')
n = len(rows['held'])
ratio = lambda a, b, k: [rows[a][i][k] / rows[b][i][k] if k else cost[a][i] / cost[b][i] for i in range(n)]
print(f'  loop time held / untraced {span(ratio("held", "untraced", 0))}, held / full {span(ratio("held", "full", 0))}, '
      f'held / written {span(ratio("held", "written", 0))}')
print(f'  CPU time held / untraced {span(ratio("held", "untraced", 1))}, held / full {span(ratio("held", "full", 1))}, '
      f'held / written {span(ratio("held", "written", 1))}')
PY
done
