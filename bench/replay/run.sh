#!/usr/bin/env bash
# Replay speed, gltrace against apitrace's eglretrace, in one run on one
# machine. Every trace is replayed headless: DISPLAY unset, no X server;
# eglretrace runs on EGL surfaceless through WAFFLE_PLATFORM=surfaceless_egl
# (without it, it needs an X display: "waffle_display_connect failed").
#
#  1. call-heavy: bench/callloop (4 trivial GL calls per iteration) recorded
#     by both tools; ns per replayed call = (time of an N-iteration trace -
#     time of a 0-iteration trace) / calls.                goal: ratio <= 1/3
#  2. glmark2-es2 scene mix at 320x240 recorded under Xvfb by both tools:
#     gltrace replay --benchmark of a --fb=none recording (apitrace's trace
#     has no pictures either) against `eglretrace -b`, per frame
#     (glmark2 runs each scene for a set time, so the two traces hold
#     different frame counts).                              goal: ratio <= 1
#  3. comparison at every frame against plain replay: gltrace --fb=swap trace
#     replayed normally against the same trace with --benchmark (if this
#     gltrace has no --benchmark: against a --fb=none recording of the same
#     program, per frame); next to eglretrace --snapshot=frame -s DIR (a PNG
#     per frame) against plain eglretrace. On the glmark2 mix and on
#     bench/frames (320x240, 1500 frames, deterministic). goal: gltrace <= 1.5
#
# Times: RUNS interleaved rounds (default 5) after a warm-up round, every
# command once per round in a shuffled order; each command's best (minimum)
# round counts, the least disturbed by other work on the machine.
#   bench/replay/run.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}; runs=${2:-5}
gt=$(cd "$build" && pwd)/bin/gltrace
bin=$(dirname "$gt")
[ -x "$gt" ] || { echo "run.sh: $gt not found; build first" >&2; exit 2; }
for t in apitrace eglretrace glmark2-es2 xvfb-run python3; do
  command -v $t >/dev/null || { echo "run.sh: $t not installed (ci/setup.sh)" >&2; exit 2; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
have_bench=0
"$gt" replay --help 2>&1 | grep -q -- '--benchmark' && have_bench=1
# --fb=none recordings compare nothing (or only the app's reads), which a
# replay since --allow-empty existed calls a failure unless told.
empty=
"$gt" replay --help 2>&1 | grep -q -- '--allow-empty' && empty=--allow-empty

# ---- recording (the only part with an X server) ----------------------------
iters=750000
fr_n=1500
for n in 0 $iters; do
  "$gt" record --fb=none -o cl$n.gltrace -- "$bin/callloop" $n >/dev/null 2>&1
  apitrace trace --api egl -o cl$n.trace "$bin/callloop" $n >/dev/null 2>&1
done
"$gt" record --fb=swap -o fr-swap.gltrace -- "$bin/frames" 320 240 $fr_n draw >/dev/null 2>&1
"$gt" record --fb=none -o fr-none.gltrace -- "$bin/frames" 320 240 $fr_n draw >/dev/null 2>&1
apitrace trace --api egl -o fr.trace "$bin/frames" 320 240 $fr_n draw >/dev/null 2>&1
scenes=(-b build:use-vbo=false:duration=0.5 -b build:use-vbo=true:duration=0.5 -b texture:duration=0.5
        -b shading:shading=phong:duration=0.5 -b bump:bump-render=normals:duration=0.5
        -b effect2d:duration=0.5 -b pulsar:duration=0.5 -b desktop:duration=0.5 -b jellyfish:duration=0.5)
x=(xvfb-run -a -s "-screen 0 640x480x24")
"${x[@]}" "$gt" record --fb=swap -o gm-swap.gltrace -- glmark2-es2 --size 320x240 "${scenes[@]}" >/dev/null 2>&1
"${x[@]}" "$gt" record --fb=none -o gm-none.gltrace -- glmark2-es2 --size 320x240 "${scenes[@]}" >/dev/null 2>&1
"${x[@]}" apitrace trace --api egl -o gm.trace glmark2-es2 --size 320x240 "${scenes[@]}" >/dev/null 2>&1

# ---- replay: headless from here on -------------------------------------------
unset DISPLAY WAYLAND_DISPLAY
export WAFFLE_PLATFORM=surfaceless_egl
# The same frames for both tools: glmark2 runs each scene for a set time, so
# the two recordings above hold different frames. gltrace also records
# `eglretrace -b` replaying apitrace's trace (headless): the same GL calls,
# frames and draws as gm.trace, plus eglretrace's own state queries (which
# gltrace replay skips).
"$gt" record --fb=swap -o va-swap.gltrace -- eglretrace -b gm.trace >/dev/null 2>&1
"$gt" record --fb=none -o va-none.gltrace -- eglretrace -b gm.trace >/dev/null 2>&1
gframes() { "$gt" info "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])'; }
aframes() { eglretrace -b "$1" 2>&1 | sed -n 's/^Rendered \([0-9]*\) frames.*/\1/p'; }
# A timing only counts if the replay is right: every gltrace replay once
# first, its summary shown; a mismatch stops the benchmark.
for t in cl$iters.gltrace fr-swap.gltrace fr-none.gltrace gm-swap.gltrace gm-none.gltrace va-swap.gltrace \
         va-none.gltrace; do
  "$gt" replay $empty "$t" 2>&1 | sed 's/^/  /' || { echo "run.sh: $t does not replay cleanly" >&2; exit 1; }
done
mkdir -p snap-fr snap-gm
cmds=(
  api_cl0 "eglretrace -b cl0.trace"
  api_cl "eglretrace -b cl$iters.trace"
  api_cl_plain "eglretrace cl$iters.trace"
  gt_cl0 "$gt replay $empty -q cl0.gltrace"
  gt_cl "$gt replay $empty -q cl$iters.gltrace"
  api_fr_b "eglretrace -b fr.trace"
  api_fr "eglretrace fr.trace"
  api_fr_png "eglretrace --snapshot=frame -s snap-fr/ fr.trace"
  gt_fr_swap "$gt replay -q fr-swap.gltrace"
  gt_fr_none "$gt replay $empty -q fr-none.gltrace"
  api_gm_b "eglretrace -b gm.trace"
  api_gm "eglretrace gm.trace"
  api_gm_png "eglretrace --snapshot=frame -s snap-gm/ gm.trace"
  gt_gm_swap "$gt replay -q gm-swap.gltrace"
  gt_gm_none "$gt replay $empty -q gm-none.gltrace"
  gt_va_swap "$gt replay -q va-swap.gltrace"
  gt_va_none "$gt replay $empty -q va-none.gltrace"
  app_fr_draw "$bin/frames 320 240 $fr_n draw"
  app_fr_read "$bin/frames 320 240 $fr_n readback"
)
if [ $have_bench = 1 ]; then
  cmds+=(gt_fr_bench "$gt replay --benchmark -q fr-swap.gltrace"
         gt_gm_bench "$gt replay --benchmark -q gm-swap.gltrace"
         gt_va_bench "$gt replay --benchmark -q va-swap.gltrace"
         gt_va_none_bench "$gt replay --benchmark -q va-none.gltrace"
         gt_gm_none_bench "$gt replay --benchmark -q gm-none.gltrace")
fi
# Interleaved rounds, not hyperfine: hyperfine runs all of one command's
# runs before the next command's, so load that comes and goes (other builds
# on a shared machine) lands on one side. Here every round runs every
# command once, in a shuffled order; each command's best round counts.
python3 - "$runs" "${cmds[@]}" <<'PY'
import json, os, random, shlex, subprocess, sys, time
runs, a = int(sys.argv[1]), sys.argv[2:]
cmds = dict(zip(a[0::2], a[1::2]))
times = {k: [] for k in cmds}
for r in range(runs + 1):  # round 0: warm-up (page cache), not counted
    order = list(cmds)
    random.shuffle(order)
    for k in order:
        t0 = time.perf_counter()
        p = subprocess.Popen(shlex.split(cmds[k]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        t = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f'run.sh: {cmds[k]}: exit {os.waitstatus_to_exitcode(status)}')
        if r:
            times[k].append((t, ru.ru_utime + ru.ru_stime))  # wall, CPU of all its threads
json.dump(times, open('times.json', 'w'))
PY

python3 - "$iters" "$have_bench" "$(aframes gm.trace)" "$(gframes gm-swap.gltrace)" "$(gframes gm-none.gltrace)" \
  "$(aframes fr.trace)" "$(gframes fr-swap.gltrace)" "$(gframes va-swap.gltrace)" <<'PY'
import json, sys
iters, have_bench, a_gm, g_gm_swap, g_gm_none, a_fr, g_fr, g_va = map(int, sys.argv[1:])
raw = json.load(open('times.json'))
t = {k: min(w for w, c in v) for k, v in raw.items()}  # best wall time
cpu = {k: min(c for w, c in v) for k, v in raw.items()}  # best CPU time
calls = iters * 4
print(f"gltrace --benchmark: {'yes' if have_bench else 'no (this gltrace has none: plain replay, which compares)'}")
print(f"(best of the runs; wall seconds, replay start-up included unless said; [cpu: the same ratio in CPU\n"
      f" seconds of all the process's threads, less disturbed by other work on a shared machine])\n")

api = (t['api_cl'] - t['api_cl0']) / calls * 1e9
api_plain = (t['api_cl_plain'] - t['api_cl0']) / calls * 1e9
gt = (t['gt_cl'] - t['gt_cl0']) / calls * 1e9
print(f"1. call-heavy trace, callloop {iters} ({calls} calls), ns per call above an empty trace's replay:")
print(f"   eglretrace -b {api:7.1f} ns/call   (plain eglretrace {api_plain:.1f}; empty trace {t['api_cl0']:.3f} s)")
print(f"   gltrace       {gt:7.1f} ns/call   (empty trace {t['gt_cl0']:.3f} s)")
cr = (cpu['gt_cl'] - cpu['gt_cl0']) / (cpu['api_cl'] - cpu['api_cl0'])
print(f"   ratio gltrace/eglretrace {gt / api:6.2f}   goal <= 0.33: {'met' if gt / api <= 1 / 3 else 'NOT met'}"
      f"   [cpu {cr:.2f}]\n")

sfx = 'bench' if have_bench else 'swap'
gname = 'gltrace replay --benchmark' if have_bench else 'gltrace replay -q (compares every frame)'
ga = t['api_gm_b'] / a_gm * 1e3
print("2. glmark2-es2 scene mix, 320x240")
print(f"   a) the same frames: gltrace's recording of `eglretrace -b gm.trace` ({g_va} frames, as gm.trace's {a_gm})")
# Like for like: apitrace's trace holds no pictures, so gltrace's is a
# --fb=none recording; the --fb=swap one (a snapshot per frame to read and
# decompress, not compared with --benchmark) is shown beside it.
va = 'gt_va_none_bench' if have_bench else 'gt_va_none'
print(f"      eglretrace -b  {t['api_gm_b']:7.3f} s")
print(f"      {gname} (--fb=none recording)  {t[va]:7.3f} s")
print(f"      ({gname} of the --fb=swap recording: {t['gt_va_' + sfx]:.3f} s; "
      f"plain replay of the --fb=none one: {t['gt_va_none']:.3f} s)")
r2 = t[va] / t['api_gm_b']
print(f"      ratio gltrace/eglretrace {r2:6.2f}   goal <= 1: {'met' if r2 <= 1 else 'NOT met'}"
      f"   [cpu {cpu[va] / cpu['api_gm_b']:.2f}]")
g2 = t['gt_gm_none_bench' if have_bench else 'gt_gm_none']
gg, gn = g2 / g_gm_none * 1e3, t['gt_gm_none'] / g_gm_none * 1e3
print("   b) each tool's own recording of glmark2 under Xvfb, per frame (different frames: the scenes ran a set time):")
print(f"      eglretrace -b  {t['api_gm_b']:7.3f} s / {a_gm} frames = {ga:6.3f} ms/frame")
print(f"      {gname} (--fb=none)  {g2:7.3f} s / {g_gm_none} frames = {gg:6.3f} ms/frame")
print(f"      (plain replay of a --fb=none recording: {t['gt_gm_none']:.3f} s / {g_gm_none} frames = "
      f"{gn:.3f} ms/frame)")
print(f"      ratio gltrace/eglretrace {gg / ga:6.2f}\n")

print("3. compare at every frame / plain replay:")
for label, sw, base, bench, af, gf, gfn in (
        (f'bench/frames 320x240 {g_fr} frames', 'gt_fr_swap', 'gt_fr_none', 'gt_fr_bench', 'api_fr', g_fr, g_fr),
        ('glmark2-es2 mix 320x240, the same frames', 'gt_va_swap', 'gt_va_none', 'gt_va_bench', 'api_gm', g_va,
         g_va)):
    rn = t[sw] / t[base]
    how = f"{t[sw]:.3f} s vs a --fb=none recording of the same calls {t[base]:.3f} s"
    if have_bench:
        r = t[sw] / t[bench]
        how = (f"{t[sw]:.3f} s vs --benchmark {t[bench]:.3f} s, same trace; {rn:.2f} against "
               + how[how.index('a --fb'):])
    else:
        r = rn
    ap = t[af + '_png'] / t[af]
    cr = cpu[sw] / cpu[bench if have_bench else base]
    print(f"   {label}:")
    print(f"     gltrace    {r:5.2f}  ({how})  goal <= 1.5: {'met' if r <= 1.5 else 'NOT met'}   [cpu {cr:.2f}]")
    print(f"     eglretrace {ap:5.2f}  (--snapshot=frame -s DIR {t[af + '_png']:.3f} s vs plain {t[af]:.3f} s)"
          f"   [cpu {cpu[af + '_png'] / cpu[af]:.2f}]")
    added = (t[sw] - t[bench if have_bench else base]) / gf * 1e3
    print(f"     compare adds {added:.3f} ms/frame in gltrace; a PNG adds "
          f"{(t[af + '_png'] - t[af]) / gf * 1e3:.3f} ms/frame in eglretrace")
fl = (t['app_fr_read'] - t['app_fr_draw']) / g_fr * 1e3
print(f"   the floor: bench/frames' own glReadPixels of its 320x240 surface each frame adds {fl:.3f} ms/frame "
      f"({t['app_fr_read']:.3f} s vs {t['app_fr_draw']:.3f} s for {g_fr} frames, no tracer, no replay: "
      f"{t['app_fr_read'] / t['app_fr_draw']:.2f}x)   [cpu {cpu['app_fr_read'] / cpu['app_fr_draw']:.2f}]")
PY
