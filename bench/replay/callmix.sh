#!/usr/bin/env bash
# Replay per call and replay's fixed cost, gltrace against apitrace's
# eglretrace, on call mixes other than bench/callloop's (bench/replay/callmix.c)
# and on an empty trace. Each tool records each workload itself with its
# default options (`gltrace record`, `apitrace trace --api egl`); the replays
# run headless (EGL surfaceless, llvmpipe), interleaved: every round runs
# every command once in a shuffled order, ROUNDS rounds after a warm-up one.
# Reported per workload: the median whole-process wall time of each tool,
# the ratio gltrace / eglretrace -b of the medians, the spread of the ratio
# over the rounds (each round's own pair), and the same ratio in CPU time.
#   bash bench/replay/callmix.sh [BUILD_DIR] [ROUNDS]   (defaults: build 5)
set -euo pipefail
build=$(cd "${1:-build}" && pwd); rounds=${2:-5}
bin=$build/bin; gt=$bin/gltrace
for t in "$gt" "$bin/callmix" "$bin/callloop"; do
  [ -x "$t" ] || { echo "callmix.sh: $t not built" >&2; exit 2; }
done
for t in apitrace eglretrace python3; do
  command -v $t >/dev/null || { echo "callmix.sh: $t not installed (ci/setup.sh)" >&2; exit 2; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; cd "$work"
unset DISPLAY WAYLAND_DISPLAY
export WAFFLE_PLATFORM=surfaceless_egl # eglretrace on EGL surfaceless, as gltrace replay

# name, program and arguments: about 3 M calls each, and the empty trace
work_names=(blend attrib state matrix callloop empty)
declare -A prog=(
  [blend]="$bin/callmix blend 1000000"    # 3 calls an iteration
  [attrib]="$bin/callmix attrib 400000"   # 8
  [state]="$bin/callmix state 500000"     # 6
  [matrix]="$bin/callmix matrix 430000"   # 7
  [callloop]="$bin/callloop 750000"       # 4
  [empty]="$bin/callmix blend 0"          # start-up, context, a shader compile, no loop
)
# callloop draws nothing and never clears, so the picture its swap leaves is
# undefined: recorded without pictures (and replayed with --allow-empty).
declare -A rec_opt=([callloop]=--fb=none) rep_opt=([callloop]=--allow-empty)
for w in "${work_names[@]}"; do
  # shellcheck disable=SC2086
  "$gt" record ${rec_opt[$w]:-} -o $w.gltrace -- ${prog[$w]} >/dev/null 2>rec.err || { cat rec.err >&2; exit 1; }
  # shellcheck disable=SC2086
  apitrace trace --api egl -o $w.trace ${prog[$w]} >/dev/null 2>rec.err || { cat rec.err >&2; exit 1; }
done
# A timing counts only if the replay is right: each once first, checked.
for w in "${work_names[@]}"; do
  # shellcheck disable=SC2086
  "$gt" replay ${rep_opt[$w]:-} "$w.gltrace" >out 2>&1 || { cat out >&2; echo "callmix.sh: $w.gltrace does not replay" >&2; exit 1; }
  sed 's/^/  /' out
  eglretrace -b "$w.trace" >out 2>&1 || { cat out >&2; echo "callmix.sh: $w.trace does not replay" >&2; exit 1; }
done
echo "load before: $(uptime)"
python3 - "$rounds" "$gt" "${work_names[@]}" <<'PY'
import os, random, statistics as st, subprocess, sys, time
rounds, gt, names = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
cmds = {}
for w in names:
    cmds['gt', w] = [gt, 'replay', '-q'] + (['--allow-empty'] if w == 'callloop' else []) + [f'{w}.gltrace']
    cmds['api', w] = ['eglretrace', '-b', f'{w}.trace']
wall = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
for r in range(rounds + 1):  # round 0 warms the page cache; not counted
    order = list(cmds)
    random.shuffle(order)
    for k in order:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmds[k], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        t = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f'callmix.sh: {" ".join(cmds[k])}: exit {os.waitstatus_to_exitcode(status)}')
        if r:
            wall[k].append(t)
            cpu[k].append(ru.ru_utime + ru.ru_stime)
print(f'{rounds} interleaved rounds; medians; ratio = gltrace replay / eglretrace -b, whole process')
print(f'{"workload":10} {"gltrace s":>10} {"eglretrace s":>13} {"ratio":>6}  {"per-round ratios (min-max)":>27}  {"cpu ratio":>9}')
for w in names:
    g, a = wall['gt', w], wall['api', w]
    per = sorted(x / y for x, y in zip(g, a))
    cr = st.median(cpu['gt', w]) / st.median(cpu['api', w])
    print(f'{w:10} {st.median(g):10.3f} {st.median(a):13.3f} {st.median(g) / st.median(a):6.2f}  '
          f'{per[0]:12.2f} - {per[-1]:<12.2f}  {cr:9.2f}')
e_g, e_a = st.median(wall['gt', 'empty']), st.median(wall['api', 'empty'])
print('per call above the empty trace (ns): ' + ', '.join(
    f'{w} {(st.median(wall["gt", w]) - e_g) / n * 1e9:.0f} vs {(st.median(wall["api", w]) - e_a) / n * 1e9:.0f}'
    for w, n in (('blend', 3e6), ('attrib', 3.2e6), ('state', 3e6), ('matrix', 3.01e6), ('callloop', 3e6))
    if w in names))
PY
echo "load after: $(uptime)"
