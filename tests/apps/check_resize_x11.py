#!/usr/bin/env python3
"""Records resize_x11 under Xvfb (an X11 window resized between its
eglMakeCurrent and its first draw, then twice while the app draws) and
checks that the trace says each new size before the frame's first call that
draws at it: the buffers keep the size they got at eglMakeCurrent (64x40)
until the first swap, so frame 0's snapshot is 64x40 and the 96x64 is
recorded right before frame 1's first glClear; the later sizes right before
the first glClear after each resize; each snapshot after frame 0 has the
size and the pixels the app read back that frame. Then replays the trace with no X server:
every frame must match bit for bit, which needs a surface of the new size
before the frame's first draw.

Then `resize_x11 fbo` (GLES 3, each frame first clears a framebuffer
object's texture, as mpv starts its frames with a pass): the new size is
recorded, and replay binds its new surface, while that framebuffer is
bound. Mesa then starts the new surface's framebuffer at GL_FRONT, where
the app's (and a trim's setup, making the surface at its last size) says
GL_BACK; the state reader reads GL_BACK there (api/state.tsv
`window-buffer`), so a trim of frames 3-4 is exact on the first try (it
was exact only on the second, the windows' pixels written).

usage: check_resize_x11.py --gltrace GLTRACE --app RESIZE_X11 --trace OUT.gltrace"""
import re
import shutil
import sys

import gltest as gt
import apptrace as at


SIZES = [(96, 64), (96, 64), (160, 120), (160, 120), (64, 48), (64, 48)]


def main():
    args = at.parse_args()
    xvfb = shutil.which('xvfb-run')
    if not xvfb:
        print('SKIP: xvfb-run is not installed (ci/setup.sh installs it)')
        sys.exit(77)
    ck = gt.Checker('resize_x11')
    rec = gt.run([xvfb, '-a', args.gltrace, 'record', '-o', args.trace, '--', args.app])
    ck.check('resize_x11 exits 0 under gltrace record and Xvfb', rec.returncode == 0, rec.stderr.strip())
    printed = [(int(w), int(h), fp) for w, h, fp in re.findall(r'frame \d+ (\d+)x(\d+) fnv1a=([0-9a-f]{8})',
                                                               rec.stdout)]
    ck.check('the app drew six frames at the sizes asked for', [p[:2] for p in printed] == SIZES, rec.stdout)
    d, recs = gt.read_dump(ck, args.gltrace, args.trace)
    if not recs:
        ck.exit()
    snaps = [r['fb'] for r in recs if r['fn'] == 'gltraceSnapshot']
    ck.check("frame 0's snapshot has the size the buffers got at eglMakeCurrent, 64x40",
             snaps and (snaps[0]['width'], snaps[0]['height']) == (64, 40), snaps[:1])
    ck.check("each later frame's snapshot has the frame's size and the pixels the app read back",
             [(s['width'], s['height'], s['fnv1a']) for s in snaps[1:]] == printed[1:],
             [(s['width'], s['height'], s['fnv1a']) for s in snaps])
    clears = [i for i, r in enumerate(recs) if r['fn'] == 'glClear']
    for f in (1, 2, 4):
        i = clears[f] if len(clears) == 6 else 0
        prev = recs[i - 1] if i else {}
        ck.check(f'frame {f}: a gltraceSurface of {SIZES[f][0]}x{SIZES[f][1]} right before its first glClear',
                 prev.get('fn') == 'gltraceSurface' and
                 (prev['args']['width'], prev['args']['height']) == SIZES[f], prev)
    early = [r for r in recs if r['fn'] == 'gltraceSurface' and r['args']['call'] != 2020 and
             r['args'].get('config_attribs') == 0]
    ck.check('no other size record outside creation and swaps (three resizes: three records)', len(early) == 3,
             early)
    p = gt.run([args.gltrace, 'replay', args.trace], env=gt.gl_env(headless=True))
    ck.check('replayed with no X server: all 6 frames bit-exact (exit 0), no warning',
             p.returncode == 0 and '6 snapshots: 6 matched' in p.stderr and len(p.stderr.strip().splitlines()) == 1,
             p.stderr.strip())
    fbo_first(ck, args, xvfb)
    ck.exit()


def fbo_first(ck, args, xvfb):
    trace = args.trace.replace('.gltrace', '-fbo.gltrace')
    rec = gt.run([xvfb, '-a', args.gltrace, 'record', '-o', trace, '--', args.app, 'fbo'])
    ck.check('resize_x11 fbo exits 0 under gltrace record and Xvfb', rec.returncode == 0, rec.stderr.strip())
    p = gt.run([args.gltrace, 'replay', trace], env=gt.gl_env(headless=True))
    ck.check('resize_x11 fbo: replayed with no X server, all 6 frames bit-exact',
             p.returncode == 0 and '6 snapshots: 6 matched' in p.stderr, p.stderr.strip())
    out = trace.replace('.gltrace', '-3-4.gltrace')
    t = gt.run([args.gltrace, 'trim', trace, '--frames', '3-4', '-o', out], env=gt.gl_env(headless=True))
    ck.check('resize_x11 fbo: its trim of frames 3-4 is exact on the first try, the state at the start the '
             "original's (the window's read buffer GL_BACK in both)",
             t.returncode == 0 and 'checked: its replay matches 4 of 4' in t.stdout and 'note:' not in t.stdout and
             "the state at the start, as gltrace inspect reads it, is the original's" in t.stdout,
             (t.stdout[-600:], t.stderr[-300:]))


if __name__ == '__main__':
    main()
