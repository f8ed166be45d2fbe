#!/usr/bin/env python3
"""mpv, recorded as a user records it: Debian's mpv playing a generated
test video (lavfi testsrc, 320x240, no audio) with its GPU video output on
GLES 3 through EGL on X11 (x11egl, Xvfb). mpv uploads each video frame into
a texture, draws it into the window with the scissor test on, times every
pass with a ring of GL_TIME_ELAPSED queries and waits on fences. The trace
must replay with every snapshot matched; three frames trimmed at a third
and near the end must replay exactly on the first try, with setups that do
not grow with the start (before the query and scissored-clear changes:
1224 and 3184 setup calls at frames 40 and 110 of 120; 144 and 144 after).
Exit 77 only when mpv or xvfb-run is not installed (ci/setup.sh installs
them), or this mpv cannot open its GPU output on GLES, saying which."""
import argparse
import glob
import os
import shutil
import sys

import gltest as gt

p = argparse.ArgumentParser()
p.add_argument('--gltrace', required=True)
p.add_argument('--dir', required=True)
a = p.parse_args()

for tool in ('mpv', 'xvfb-run'):
    if not shutil.which(tool):
        print(f'SKIP: {tool} is not installed (ci/setup.sh installs mpv, xvfb)')
        sys.exit(77)

FRAMES = 90
work = gt.fresh_dir(os.path.join(a.dir, 'mpv'))
ck = gt.Checker('mpv')
player = ['mpv', '--no-config', '--vo=gpu', '--gpu-context=x11egl', '--opengl-es=yes', '--hwdec=no',
          f'--frames={FRAMES}', '--no-audio', '--geometry=320x240', '--really-quiet',
          'av://lavfi:testsrc=size=320x240:rate=30']
r = gt.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '-o',
            os.path.join(work, 'mpv-%p.gltrace'), '--', *player], timeout=300)
traces = glob.glob(os.path.join(work, 'mpv-*.gltrace'))
if r.returncode != 0 and 'x11egl' in r.stderr and not traces:
    print(f'SKIP: this mpv cannot open its GPU output on GLES through x11egl: {r.stderr[-300:]}')
    sys.exit(77)
ck.check(f'mpv played {FRAMES} frames and left one trace (exit 0)', r.returncode == 0 and len(traces) == 1,
         (r.returncode, traces, r.stderr[-800:]))
if len(traces) != 1:
    ck.exit()
trace = traces[0]
fns = [rec.get('fn') for rec in gt.dump(a.gltrace, trace).objects()]
ck.check(f'it timed its passes with queries ({fns.count("glBeginQueryEXT")} begun)',
         fns.count('glBeginQueryEXT') + fns.count('glBeginQuery') >= FRAMES, fns.count('glBeginQueryEXT'))

rp = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
s = gt.replay_summary(rp.stderr)
ck.check(f'replayed headless, every snapshot matched (at least {FRAMES})',
         rp.returncode == 0 and s and s[0] >= FRAMES and s[1] == s[0], rp.stderr.strip()[-600:])

_, obj = gt.info(a.gltrace, trace)
frames = obj.get('frames', 0) if obj else 0
setups = gt.trim_at(ck, a.gltrace, trace, 'mpv', (frames // 3, frames - 6), work)
ck.check(f'the setups do not grow with the start: {setups} calls, each under 500, the later no more than 20 over '
         'the earlier', len(setups) == 2 and 0 < min(setups) and max(setups) < 500 and setups[1] <= setups[0] + 20,
         setups)
ck.exit()
