#!/usr/bin/env python3
"""`gltrace replay --snapshot`: PNGs of points the trace did not record.
es3_scene recorded with --fb=draw (a snapshot after each draw into its
framebuffer object and one of the window at each swap) is replayed with
--snapshot frame, draw and a call list; replay's own pictures must equal
the recorded ones (`gltrace extract`, compared with `gltrace diff`), one
per swap, per draw, per listed GL call. Misuse exits 2 naming the option.

usage: check_snapshot_option.py GLTRACE APPS_DIR WORK_DIR"""
import functools
import os
import re
import shutil
import sys

import gltest as gt


gltrace, apps, work = sys.argv[1:4]
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=gt.gl_env(headless=True), timeout=600)
ck = gt.Checker('replay.snapshot_option')
os.makedirs(work, exist_ok=True)
trace = os.path.join(work, 'es3_scene-draw.gltrace')
r = run([gltrace, 'record', '--fb=draw', '-o', trace, '--', os.path.join(apps, 'es3_scene')])
if not ck.check('es3_scene recorded with --fb=draw', r.returncode == 0, r.stderr):
    ck.exit()
ex = os.path.join(work, 'extracted')
shutil.rmtree(ex, ignore_errors=True)
r = run([gltrace, 'extract', trace, '--out', ex])
recorded = sorted(os.listdir(ex)) if os.path.isdir(ex) else []
surfaces = [f for f in recorded if f.endswith('-surface.png')]
attachments = [f for f in recorded if f.endswith('-attachment0.png')]
# The window after each frame's blit (a blit is snapshotted as a draw) and at its swap.
ck.check('gltrace extract gives the recorded pictures: 6 of the window, 3 of the framebuffer object',
         len(surfaces) == 6 and len(attachments) == 3, recorded)
surfaces = surfaces[1::2]  # at the swaps
d = run([gltrace, 'dump', '--json', trace])
fns = {int(m.group(1)): m.group(2) for m in re.finditer(r'"seq":(\d+),[^\n]*?"fn":"(\w+)"', d.stdout)}
draws = sorted(s for s, f in fns.items() if f == 'glDrawElementsInstanced')


def replayed_gl(seq):
    """A GL call replay re-issues (not a record gltrace adds, not a query)."""
    f = fns.get(seq, '')
    return f.startswith('gl') and not f.startswith(('gltrace', 'glGet', 'glIs', 'glCheckFramebufferStatus'))


def same(a, b):
    p = run([gltrace, 'diff', a, b])
    return p.returncode == 0


def replay(when, out):
    shutil.rmtree(out, ignore_errors=True)
    p = run([gltrace, 'replay', trace, '--snapshot', when, '--out', out])
    pngs = sorted(f for f in os.listdir(out) if '-replayed-' in f) if os.path.isdir(out) else []
    return p, pngs


out = os.path.join(work, 'frame')
p, pngs = replay('frame', out)
s = gt.replay_summary(p.stderr)
ck.check('--snapshot frame: exit 0, the recorded snapshots still compared, a PNG per swap, said on stderr',
         p.returncode == 0 and s and s[1] == s[0] == 9 and len(pngs) == 3 and '3 PNGs written' in p.stderr,
         (p.returncode, p.stderr, pngs))
ck.check("each swap's PNG is the window the app drew (equal to the recorded snapshot)",
         len(pngs) == 3 and all(same(os.path.join(ex, a), os.path.join(out, b)) for a, b in zip(surfaces, pngs)),
         list(zip(surfaces, pngs)))

out = os.path.join(work, 'draw')
p, pngs = replay('draw', out)
ck.check('--snapshot draw: a PNG after each of the 3 draws, named by its call',
         p.returncode == 0 and len(pngs) == 3 and [int(re.search(r'call(\d+)', f).group(1)) for f in pngs] == draws,
         (p.stderr, pngs, draws))
ck.check("each draw's PNG is the framebuffer object it drew into (equal to the recorded snapshot)",
         len(pngs) == 3 and all(same(os.path.join(ex, a), os.path.join(out, b)) for a, b in zip(attachments, pngs)),
         list(zip(attachments, pngs)))

out = os.path.join(work, 'calls')
if draws:
    p, pngs = replay(f'{draws[0]},{draws[1]}-{draws[1] + 2}', out)
    got = [int(re.search(r'call(\d+)', f).group(1)) for f in pngs]
    want = [x for x in [draws[0], draws[1], draws[1] + 1, draws[1] + 2] if replayed_gl(x)]
    ck.check('--snapshot CALLSET: a PNG after each listed GL call (a number and a range; not after records '
             'gltrace added)', p.returncode == 0 and got == want and len(want) >= 2,
             (p.stderr, got, want, [fns.get(x) for x in range(draws[1], draws[1] + 3)]))
    ck.check('the listed draw call\'s PNG equals the recorded snapshot after it',
             pngs and same(os.path.join(ex, attachments[0]), os.path.join(out, pngs[0])), pngs[:1])

for bad, why in ((['--snapshot', '12-x', '--out', out], "--snapshot '12-x'"),
                 (['--snapshot', '30-20', '--out', out], "--snapshot '30-20'"),
                 (['--snapshot', 'frame'], '--out'),
                 (['--snapshot', 'frame', '--out', out, '--benchmark'], '--benchmark')):
    p = run([gltrace, 'replay', trace] + bad)
    ck.check(f'replay {" ".join(bad)}: exit 2 naming {why}', p.returncode == 2 and why in p.stderr, p.stderr[:300])
ck.exit()
