#!/usr/bin/env bash
# Snapshot coding (FORMAT.md "Snapshot coding") against raw snapshots as
# format 1 wrote them (GLTRACE_SNAPSHOT_DELTA=0), in one run, same build:
#
#  1. --fb=swap bytes per frame, coded against raw, on glmark2-es2 scenes at
#     320x240 under Xvfb (each alone, their mean, and all of them as one
#     run: the mix), on bench/frames (an animated scene of ours, 320x240
#     and 1920x1080) and on weston compositing weston-simple-egl (400x300,
#     1024x768); with BEFORE_BUILD_DIR also against the previous release's
#     format-1 traces of the same workloads.                  goal: <= 1/4
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
#
# BEFORE_BUILD_DIR, when given, is a build of the previous release (trace
# format 1: a worktree of 4cf2301, the last commit before format 2): section
# 1 then also records each workload with that build's `gltrace record
# --fb=swap`, right after this build's two recordings of it, and prints its
# bytes per frame and coded / format-1 beside coded / raw. That is the
# issue's baseline: GLTRACE_SNAPSHOT_DELTA=0 keeps format 3's coding of the
# calls (start times as differences), so "raw" is smaller than what the
# previous release wrote. The old build's traces are checked to be format 1
# (metadata format_version, chunk flags 0); the script stops otherwise.
#
# Section 1 also records weston (headless backend, GL renderer) compositing
# weston-simple-egl, as bench/trim_weston.sh does, when both are installed:
# a real compositor's frames rather than a sample of ours.
#   bench/snapshots/run.sh [BUILD_DIR] [RUNS] [BEFORE_BUILD_DIR]
set -euo pipefail
build=${1:-build}; runs=${2:-5}; before=${3:-}
gt=$(cd "$build" && pwd)/bin/gltrace
bin=$(dirname "$gt")
gt1=
if [ -n "$before" ]; then
  gt1=$(cd "$before" && pwd)/bin/gltrace
  [ -x "$gt1" ] || { echo "run.sh: no bin/gltrace in $before" >&2; exit 2; }
fi
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
# Each workload is recorded by a function taking the gltrace to use and the
# trace to write (GLTRACE_SNAPSHOT_DELTA in its environment or not).
rec_prog() { "${wrap[@]}" "$1" record --fb=swap -o "$2" -- "${prog[@]}" >/dev/null 2>&1; }
# weston as bench/trim_weston.sh runs it: only the compositor is recorded;
# weston-simple-egl animates a window in it for $weston_secs seconds.
weston_secs=5
rec_weston() {
  local out=$2
  (
    sock=gt-snap-$$-$RANDOM
    export XDG_RUNTIME_DIR=$tmp/xdg-$sock
    mkdir -m 700 "$XDG_RUNTIME_DIR"
    unset DISPLAY WAYLAND_DISPLAY
    "$1" record --fb=swap -o "$out" -- weston --backend=headless-backend.so --use-gl --socket="$sock" \
      --idle-time=0 --width="${weston_size%x*}" --height="${weston_size#*x}" >weston.log 2>&1 &
    comp=$!
    for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/$sock" ] && break; sleep 0.2; done
    WAYLAND_DISPLAY=$sock timeout -s INT "$weston_secs" weston-simple-egl >/dev/null 2>&1 || true
    # A script's background jobs ignore SIGINT: weston is asked to leave by SIGTERM.
    pkill -TERM -x weston -P $comp || true
    wait $comp || true
    rm -rf "$XDG_RUNTIME_DIR"
  )
  [ -s "$out" ] || { echo "run.sh: weston left no trace $out; weston.log ends:" >&2; tail -5 weston.log >&2; exit 1; }
}
# A trace of the previous release: format 1 by its metadata (format_version)
# and by its chunk headers (flags 0: none of the chunk flags of formats 2, 3).
check_format1() {
  local v
  v=$("$gt" info "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"].get("format_version"))')
  if [ "$v" != 1 ]; then
    echo "run.sh: $1, recorded by $gt1, is format $v, not 1: BEFORE_BUILD_DIR must be a build" \
         "of the previous release (trace format 1, e.g. commit 4cf2301)" >&2
    exit 1
  fi
  python3 - "$1" <<'PY' || { echo "run.sh: $1 (recorded by $gt1) is not a format-1 trace" >&2; exit 1; }
import struct, sys
d = open(sys.argv[1], 'rb').read()
off = 0
while off + 8 <= len(d):
    magic, size = struct.unpack_from('<II', d, off)
    if magic & 0xFFFFFFF0 != 0x184D2A50:
        sys.exit(f'{sys.argv[1]}: a frame at offset {off} is not a chunk header or the index')
    p = d[off + 8:off + 8 + size]
    off += 8 + size
    if magic == 0x184D2A5E and p[:4] == b'GTCK':
        if struct.unpack_from('<I', p, 52)[0]:
            sys.exit(f'{sys.argv[1]}: a chunk header has flags {struct.unpack_from("<I", p, 52)[0]:#x}')
        off += struct.unpack_from('<I', p, 48)[0]
PY
}
if [ -n "$gt1" ]; then
  printf '%-26s %14s %14s %7s %16s %9s\n' workload "raw B/frame" "coded B/frame" ratio "format-1 B/frame" "coded/f1"
else
  printf '%-26s %14s %14s %7s\n' workload "raw B/frame" "coded B/frame" ratio
fi
per_frame() { python3 -c "print($(stat -c %s "$1") / $(frames_of "$1"))"; }
size_row() { # name, then the recording function
  local name=$1 rec=$2
  local -A per
  local f=${name// /_}; f=${f//,/}; f=${f//+/_}
  for d in 0 1; do # interleaved with the other setting by construction: same program, one after the other
    GLTRACE_SNAPSHOT_DELTA=$d $rec "$gt" "$f-$d.gltrace"
    per[$d]=$(per_frame "$f-$d.gltrace")
  done
  if [ -n "$gt1" ]; then # the previous release, in the same round
    (unset GLTRACE_SNAPSHOT_DELTA; $rec "$gt1" "$f-f1.gltrace")
    check_format1 "$f-f1.gltrace"
    per[f1]=$(per_frame "$f-f1.gltrace")
    python3 -c "r, c, o = ${per[0]}, ${per[1]}, ${per[f1]}
print(f'{\"$name\":<26} {r:14.0f} {c:14.0f} {c / r:7.3f} {o:16.0f} {c / o:9.3f}')"
  else
    python3 -c "r, c = ${per[0]}, ${per[1]}; print(f'{\"$name\":<26} {r:14.0f} {c:14.0f} {c / r:7.3f}')"
  fi
  # timed workloads hold more or fewer frames from one recording to the next
  echo "  $name frames: raw $(frames_of "$f-0.gltrace"), coded $(frames_of "$f-1.gltrace")${gt1:+, format 1 $(frames_of "$f-f1.gltrace")}" >&2
}
# glmark2 runs each scene for a set time, so a mix holds more or fewer frames
# of each scene from run to run (and ratios of a mix move with it): each
# scene alone, then their mean, every scene weighing the same.
wrap=("${x[@]}")
for ((i = 1; i < ${#scenes[@]}; i += 2)); do
  scene=${scenes[$i]%%:*}; [ "$scene" = shading ] && scene=shading-phong
  prog=(glmark2-es2 --size 320x240 -b "${scenes[$i]}"); size_row "glmark2-$scene" rec_prog | tee -a rows.txt
done
python3 - <<'PY'
rows = [l.split() for l in open('rows.txt')]
m = [sum(float(x[k]) for x in rows) / len(rows) for k in range(1, len(rows[0]))]
line = f'{"glmark2 mean of scenes":<26} {m[0]:14.0f} {m[1]:14.0f} {m[1] / m[0]:7.3f}'
if len(m) > 3:
    line += f' {m[3]:16.0f} {m[1] / m[3]:9.3f}'
print(line)
PY
prog=(glmark2-es2 --size 320x240 "${mix[@]}"); size_row "glmark2 mix, one run" rec_prog
wrap=(env)
prog=("$bin/frames" 320 240 600 draw); size_row frames-320x240 rec_prog
prog=("$bin/frames" 1920 1080 120 draw); size_row frames-1920x1080 rec_prog
if command -v weston >/dev/null && command -v weston-simple-egl >/dev/null; then
  weston_size=400x300; size_row "weston+simple-egl 400x300" rec_weston
  weston_size=1024x768; size_row "weston+simple-egl 1024x768" rec_weston
else
  echo "(weston rows left out: weston or weston-simple-egl not installed, ci/setup.sh)"
fi
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
