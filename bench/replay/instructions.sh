#!/usr/bin/env bash
# Instructions (callgrind, all threads, start-up included) of gltrace replay
# and eglretrace -b: per replayed call on each call mix of callmix.c (the
# difference between an ITERS and a 2*ITERS recording, divided by the extra
# calls), and the whole process on an empty trace (the fixed cost). The same
# count whatever else the machine runs, so it shows a change's effect where
# wall time cannot.
#   bash bench/replay/instructions.sh [BUILD_DIR] [ITERS]   (defaults: build 20000)
# MIXES="matrix" limits the per-call part to some mixes.
set -euo pipefail
build=$(cd "${1:-build}" && pwd); iters=${2:-20000}
bin=$build/bin; gt=$bin/gltrace
command -v valgrind >/dev/null || { echo "valgrind not installed (ci/setup.sh)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; cd "$work"
unset DISPLAY WAYLAND_DISPLAY
export WAFFLE_PLATFORM=surfaceless_egl
ir() { # command... -> instructions of all its threads
  valgrind --tool=callgrind --callgrind-out-file=cg.out "$@" >/dev/null 2>&1
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' cg.out | awk '{s += $1} END {print s}'
}
declare -A per=([blend]=3 [attrib]=8 [state]=6 [matrix]=7)
printf '%-8s %14s %14s %6s\n' mix gltrace eglretrace ratio
for mix in ${MIXES:-blend attrib state matrix}; do
  declare -A g a
  for n in "$iters" $((iters * 2)); do
    "$gt" record --fb=none -o $n.gltrace -- "$bin/callmix" $mix $n >/dev/null 2>&1
    apitrace trace --api egl -o $n.trace "$bin/callmix" $mix $n >/dev/null 2>&1
    g[$n]=$(ir "$gt" replay -q --allow-empty $n.gltrace)
    a[$n]=$(ir eglretrace -b $n.trace)
  done
  python3 - "$mix" "${g[$iters]}" "${g[$((iters * 2))]}" "${a[$iters]}" "${a[$((iters * 2))]}" \
    $((iters * ${per[$mix]})) <<'PY'
import sys
mix, (g0, g1, a0, a1, calls) = sys.argv[1], map(int, sys.argv[2:])
g, a = (g1 - g0) / calls, (a1 - a0) / calls
print(f"{mix:8} {g:14.1f} {a:14.1f} {g / a:6.2f}   instructions per call")
PY
done
"$gt" record --fb=none -o e.gltrace -- "$bin/callmix" blend 0 >/dev/null 2>&1
apitrace trace --api egl -o e.trace "$bin/callmix" blend 0 >/dev/null 2>&1
# Also recorded with the defaults, as a user records: the trace then holds
# the surface's first contents and a snapshot, and replay compares it.
"$gt" record -o d.gltrace -- "$bin/callmix" blend 0 >/dev/null 2>&1
g=$(ir "$gt" replay -q --allow-empty e.gltrace); a=$(ir eglretrace -b e.trace)
d=$(ir "$gt" replay -q d.gltrace)
python3 - "$g" "$a" "$d" <<'PY'
import sys
g, a, d = map(int, sys.argv[1:])
print(f"{'empty':8} {g:14d} {a:14d} {g / a:6.2f}   instructions, whole process (--fb=none)")
print(f"{'empty':8} {d:14d} {a:14d} {d / a:6.2f}   instructions, whole process (recorded with the defaults)")
PY
