#!/usr/bin/env python3
"""GTK 4, recorded as a user records it: Debian's gtk4-demo under Xvfb,
its GL renderer on GLES through EGL (GDK_DEBUG=gl-egl,gl-gles), running
two demos for a few seconds each:
- paintable_animated: each frame deletes the texture of three frames
  before, makes and uploads a new one and draws it. On llvmpipe what it
  draws depends on where the work before was flushed, and the app's
  eglSwapBuffers flushed at every frame: replay flushes at each swap too,
  so `replay --frames K-K+2` (which reads none of the frames before K)
  matches as the whole replay does. Before, the first frame compared
  differed. Its trims replay exactly (after what their check kept: the
  draws into the window before the start, as llvmpipe's linear
  rasterizer runs some 64x64 tiles of a frame's first draw through its
  8-bit scanline path in the original and not in the trim). Recorded and
  trimmed with that path off (LP_PERF=no_rast_linear, a user's setting of
  llvmpipe), its trims are exact on the first try and under a tenth of the
  trace;
- fishbowl: trims at three points exact on the first try, each a small
  part of the trace (its shadow textures are written at the start, after
  the unpack state of the start).
Exit 77 only when gtk4-demo or xvfb-run is not installed (ci/setup.sh
installs them)."""
import argparse
import os
import shutil
import sys

import gltest as gt

p = argparse.ArgumentParser()
p.add_argument('--gltrace', required=True)
p.add_argument('--dir', required=True)
a = p.parse_args()

for tool in ('gtk4-demo', 'xvfb-run'):
    if not shutil.which(tool):
        print(f'SKIP: {tool} is not installed (ci/setup.sh installs gtk-4-examples, xvfb)')
        sys.exit(77)

work = gt.fresh_dir(os.path.join(a.dir, 'gtk'))
ck = gt.Checker('gtk')
GTK_ENV = {'GDK_BACKEND': 'x11', 'GDK_DEBUG': 'gl-egl,gl-gles', 'GSK_RENDERER': 'gl', 'NO_AT_BRIDGE': '1',
           'XDG_RUNTIME_DIR': gt.fresh_dir(os.path.join(work, 'xdg'))}


def record(demo, seconds, name=None, **variables):
    trace = os.path.join(work, f'{name or demo}.gltrace')
    r = gt.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '-o', trace, '--',
                'timeout', str(seconds), 'gtk4-demo', f'--run={demo}'], env=dict(os.environ, **GTK_ENV, **variables),
               timeout=300)
    _, obj = gt.info(a.gltrace, trace) if os.path.exists(trace) else (None, None)
    frames = obj.get('frames', 0) if obj else 0
    ck.check(f'{demo}: recorded, {frames} frames (at least 60)', frames >= 60, (r.returncode, r.stderr[-600:]))
    rp = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True, **variables))
    s = gt.replay_summary(rp.stderr)
    ck.check(f'{name or demo}: replayed headless, every snapshot matched', rp.returncode == 0 and s and s[0] >= 60 and
             s[1] == s[0], rp.stderr.strip()[-600:])
    return trace, frames


trace, frames = record('paintable_animated', 4)
if frames >= 60:
    for k in (frames // 3, frames // 2):
        rp = gt.run([a.gltrace, 'replay', trace, '--frames', f'{k}-{k + 2}', '--no-progress'],
                    env=gt.gl_env(headless=True))
        s = gt.replay_summary(rp.stderr)
        ck.check(f'paintable_animated: replay --frames {k}-{k + 2} matches those 3 snapshots (no frame before read)',
                 rp.returncode == 0 and s and s[1] == 3 and s[2] == 0, rp.stderr.strip()[-400:])
        out = os.path.join(work, f'paintable-{k}.gltrace')
        r = gt.run([a.gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '-o', out], env=gt.gl_env(headless=True))
        rp = gt.run([a.gltrace, 'replay', out, '--no-progress'], env=gt.gl_env(headless=True))
        s = gt.replay_summary(rp.stderr)
        ck.check(f'paintable_animated: trim --frames {k}-{k + 2} exits 0 and replays on its own, 3 of 3 matched',
                 r.returncode == 0 and rp.returncode == 0 and s and s[0] == 3 and s[1] == 3,
                 (r.stdout[-400:], rp.stderr.strip()[-400:]))

# The same with llvmpipe's linear rasterizer off in the app and in trim:
# what the first try leaves out then changes nothing.
NO_LINEAR = {'LP_PERF': 'no_rast_linear'}
trace, frames = record('paintable_animated', 4, 'paintable-nolinear', **NO_LINEAR)
if frames >= 60:
    for k in (frames // 3, frames // 2):
        out = os.path.join(work, f'paintable-nolinear-{k}.gltrace')
        r = gt.run([a.gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '-o', out],
                   env=gt.gl_env(headless=True, **NO_LINEAR))
        size = os.path.getsize(out) if os.path.exists(out) else -1
        ck.check(f'paintable_animated, LP_PERF=no_rast_linear: trim --frames {k}-{k + 2} exact on the first try, '
                 f'{size} bytes, under a tenth of the trace ({os.path.getsize(trace)})',
                 r.returncode == 0 and 'checked: its replay matches 3 of 3' in r.stdout and 'note: without' not in
                 r.stdout and 0 < size * 10 < os.path.getsize(trace), r.stdout[-600:])

trace, frames = record('fishbowl', 4)
if frames >= 60:
    starts = (frames // 4, frames // 2, frames - 4)
    gt.trim_at(ck, a.gltrace, trace, 'fishbowl', starts, work)
    # It adds fish while it keeps its frame rate, so its setups grow with
    # the start; most of a trim of a few seconds' run is its 48 programs
    # and glyph atlas.
    sizes = [os.path.getsize(os.path.join(work, f'fishbowl-{k}.trim.gltrace'))
             if os.path.exists(os.path.join(work, f'fishbowl-{k}.trim.gltrace')) else -1 for k in starts]
    ck.check(f'fishbowl: each trim under half the trace ({sizes} of {os.path.getsize(trace)} bytes)',
             min(sizes) > 0 and max(sizes) * 2 < os.path.getsize(trace), sizes)
ck.exit()
