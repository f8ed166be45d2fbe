#!/usr/bin/env bash
# Snapshot coding (FORMAT.md "Snapshot coding") against raw snapshots as
# format 1 wrote them (GLTRACE_SNAPSHOT_DELTA=0), in one run, same build:
#
#  1. --fb=swap bytes per frame, coded against raw, on glmark2-es2 scenes at
#     320x240 under Xvfb (each alone, their mean, and all of them as one
#     run: the mix) and on bench/frames (an animated scene of ours, 320x240
#     and 1920x1080).                                         goal: <= 1/4
#  2. replay comparing every frame: the coded --fb=swap trace replayed
#     normally against the same trace replayed with --benchmark (no reads)
#     and against the same calls without their snapshots (the coded trace's
#     records less its gltraceSnapshot ones, in the legacy framing, which
#     replay reads uncompressed: a baseline a little cheaper than a
#     --fb=none recording), and per frame against a --fb=none recording of
#     the same program; the raw trace beside it. glmark2 mix recorded with
#     default options, and bench/frames 320x240.
#                                  goals: <= 1.5 (--benchmark), <= 1.1 (--fb=none)
#  (capture's time per snapshot against a bare glReadPixels is
#   bench/capture_frames.sh, run with and without GLTRACE_SNAPSHOT_DELTA=0.)
#
# Times: RUNS rounds (default 5), each command once per round in a shuffled
# order; medians of wall seconds. The machine may be shared: the load
# average is printed before and after.
#   bench/snapshots/run.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}; runs=${2:-5}
gt=$(cd "$build" && pwd)/bin/gltrace
bin=$(dirname "$gt")
for t in glmark2-es2 xvfb-run python3; do
  command -v $t >/dev/null || { echo "run.sh: $t not installed (ci/setup.sh)" >&2; exit 2; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
echo "load before: $(uptime)"
x=(xvfb-run -a -s "-screen 0 1024x768x24")
scenes=(-b build:use-vbo=true:duration=2 -b texture:duration=2 -b shading:shading=phong:duration=2
        -b jellyfish:duration=2 -b effect2d:duration=2 -b terrain:duration=2 -b refract:duration=2
        -b ideas:duration=2)
mix=("${scenes[@]//duration=2/duration=1}")
frames_of() { "$gt" info "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])'; }

# ---- 1. bytes per frame
printf '%-24s %14s %14s %7s\n' workload "raw B/frame" "coded B/frame" ratio
size_row() { # name, then the program
  local name=$1; shift
  local -A per
  local f=${name// /_}; f=${f//,/}
  for d in 0 1; do # interleaved with the other setting by construction: same program, one after the other
    GLTRACE_SNAPSHOT_DELTA=$d "$@" "$gt" record --fb=swap -o "$f-$d.gltrace" -- "${prog[@]}" >/dev/null 2>&1
    per[$d]=$(python3 -c "print($(stat -c %s "$f-$d.gltrace") / $(frames_of "$f-$d.gltrace"))")
  done
  python3 -c "r, c = ${per[0]}, ${per[1]}; print(f'{\"$name\":<24} {r:14.0f} {c:14.0f} {c / r:7.3f}')"
}
# glmark2 runs each scene for a set time, so a mix holds more or fewer frames
# of each scene from run to run (and ratios of a mix move with it): each
# scene alone, then their mean, every scene weighing the same.
for ((i = 1; i < ${#scenes[@]}; i += 2)); do
  scene=${scenes[$i]%%:*}; [ "$scene" = shading ] && scene=shading-phong
    prog=(glmark2-es2 --size 320x240 -b "${scenes[$i]}"); size_row "glmark2-$scene" "${x[@]}" | tee -a rows.txt
done
python3 - <<'PY'
rows = [l.split() for l in open('rows.txt')]
r = sum(float(x[1]) for x in rows) / len(rows); c = sum(float(x[2]) for x in rows) / len(rows)
print(f'{"glmark2 mean of scenes":<24} {r:14.0f} {c:14.0f} {c / r:7.3f}')
PY
prog=(glmark2-es2 --size 320x240 "${mix[@]}"); size_row "glmark2 mix, one run" "${x[@]}"
prog=("$bin/frames" 320 240 600 draw); size_row frames-320x240 env
prog=("$bin/frames" 1920 1080 120 draw); size_row frames-1920x1080 env
echo "(bytes of the whole trace, calls included, over its frames; ratio goal <= 0.25)"

# ---- 2. replay comparing every frame
"${x[@]}" "$gt" record -o gm.gltrace -- glmark2-es2 --size 320x240 "${mix[@]}" >/dev/null 2>&1
GLTRACE_SNAPSHOT_DELTA=0 "${x[@]}" "$gt" record -o gm-raw.gltrace -- glmark2-es2 --size 320x240 "${mix[@]}" \
  >/dev/null 2>&1
"${x[@]}" "$gt" record --fb=none -o gm-none.gltrace -- glmark2-es2 --size 320x240 "${mix[@]}" >/dev/null 2>&1
"$gt" record -o fr.gltrace -- "$bin/frames" 320 240 1500 draw >/dev/null 2>&1
GLTRACE_SNAPSHOT_DELTA=0 "$gt" record -o fr-raw.gltrace -- "$bin/frames" 320 240 1500 draw >/dev/null 2>&1
"$gt" record --fb=none -o fr-none.gltrace -- "$bin/frames" 320 240 1500 draw >/dev/null 2>&1
# The same calls without their snapshots: the records of the coded trace
# less its gltraceSnapshot ones (function 3004), in the legacy framing.
python3 - <<'PY'
import struct, subprocess
def fn(m):  # field 4 (function) of a record, or None
    i = 0
    while i < len(m):
        k = m[i]; i += 1
        v = s = 0
        while True:
            c = m[i]; i += 1; v |= (c & 0x7f) << s; s += 7
            if not c & 0x80: break
        if k == 0x20: return v
        if k & 7: return None
for w in ('gm', 'fr'):
    d = subprocess.run(['zstd', '-dcq', w + '.gltrace'], capture_output=True, check=True).stdout
    out, off = bytearray(), 0
    while off < len(d):
        n = struct.unpack('>I', d[off:off + 4])[0]
        if fn(d[off + 4:off + 4 + n]) != 3004:
            out += d[off:off + 4 + n]
        off += 4 + n
    open(w + '-strip.legacy', 'wb').write(out)
PY
python3 - "$gt" "$runs" <<'PY'
import json, os, random, statistics, subprocess, sys, time
gt, runs = sys.argv[1], int(sys.argv[2])
env = {k: v for k, v in os.environ.items() if k != 'DISPLAY'}
def frames(t):
    return json.loads(subprocess.run([gt, 'info', t], capture_output=True, text=True).stdout)['frames']
cmds = {}
for w in ('gm', 'fr'):
    cmds[w + ' compare'] = ([gt, 'replay', w + '.gltrace'], w + '.gltrace')
    cmds[w + ' benchmark'] = ([gt, 'replay', '--benchmark', w + '.gltrace'], w + '.gltrace')
    cmds[w + ' raw compare'] = ([gt, 'replay', w + '-raw.gltrace'], w + '-raw.gltrace')
    cmds[w + ' fb=none'] = ([gt, 'replay', '--allow-empty', w + '-none.gltrace'], w + '-none.gltrace')
    cmds[w + ' stripped'] = ([gt, 'replay', '--allow-empty', w + '-strip.legacy'], w + '.gltrace')
times = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
for rnd in range(runs + 1):
    order = list(cmds)
    random.shuffle(order)
    for k in order:
        t0, c0 = time.monotonic(), os.times()
        p = subprocess.run(cmds[k][0], env=env, capture_output=True, text=True)
        dt, c1 = time.monotonic() - t0, os.times()
        if p.returncode != 0:
            sys.exit(f'{k}: exit {p.returncode}: {p.stderr[-500:]}')
        if rnd:  # round 0 warms the caches
            times[k].append(dt)
            cpu[k].append(c1.children_user + c1.children_system - c0.children_user - c0.children_system)
per = {k: statistics.median(v) / frames(cmds[k][1]) * 1e3 for k, v in times.items()}
spread = {k: (max(v) - min(v)) / statistics.median(v) for k, v in times.items()}
print(f'\nreplay, {runs} interleaved rounds, wall seconds: median [min..max]; CPU seconds median')
for k in cmds:
    print(f'  {k:<16} {statistics.median(times[k]):7.2f} [{min(times[k]):.2f}..{max(times[k]):.2f}]  '
          f'cpu {statistics.median(cpu[k]):6.2f}')
for w, name in (('gm', 'glmark2 mix 320x240 (default options)'), ('fr', 'bench/frames 320x240, 1500 frames')):
    c, b, r, n, s = (per[w + x] for x in (' compare', ' benchmark', ' raw compare', ' fb=none', ' stripped'))
    cs = statistics.median(times[w + ' compare']) / statistics.median(times[w + ' stripped'])
    cc = statistics.median(cpu[w + ' compare']) / statistics.median(cpu[w + ' stripped'])
    print(f'{name}: ms/frame compare {c:.3f}, --benchmark {b:.3f}, raw-format compare {r:.3f}, '
          f'same calls without snapshots {s:.3f}, --fb=none recording {n:.3f}')
    print(f'  compare / same calls without snapshots: wall {cs:.3f}, cpu {cc:.3f} (goal <= 1.1); '
          f'compare / --benchmark {c / b:.3f}; per frame compare / --fb=none recording {c / n:.3f}')
PY
echo "load after: $(uptime)"
