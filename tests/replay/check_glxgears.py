#!/usr/bin/env python3
"""Desktop GL through GLX is not captured yet, and says so: glxgears
(mesa-utils) recorded under Xvfb with the defaults. `gltrace record`
prints one `gltrace:` line naming GLX; the trace holds no GL call (before,
it held every one of them with no context, which replay skipped one by
one); `gltrace replay` says the same in one line and exits 1, "nothing was
compared", naming GLX; with --allow-empty it exits 0. Exit 77 (skipped)
where glxgears or xvfb-run is missing.

usage: check_glxgears.py GLTRACE WORK_DIR"""
import os
import shutil
import sys

import gltest as gt

gltrace, work = sys.argv[1:3]
SECONDS = '2'


def main():
    ck = gt.Checker('replay.glxgears_not_captured')
    xvfb, gears = shutil.which('xvfb-run'), shutil.which('glxgears')
    if not (xvfb and gears):
        print(f'skipped: xvfb-run: {xvfb or "missing"}, glxgears: {gears or "missing"} (mesa-utils)')
        sys.exit(77)
    gt.fresh_dir(work)
    trace = os.path.join(work, 'glxgears.gltrace')
    # timeout signals its whole process group: gltrace record and the app.
    r = gt.run([xvfb, '-a', '-s', '-screen 0 300x300x24', 'timeout', '-s', 'TERM', SECONDS, gltrace, 'record',
                '-o', trace, '--', gears], env=gt.gl_env())
    notices = [ln for ln in r.stderr.splitlines() if ln.startswith('gltrace:') and 'GLX' in ln]
    ck.check('gltrace record says once, in one gltrace: line, that GLX is not captured',
             len(notices) == 1 and 'desktop GL' in notices[0] and 'not capture' in notices[0], r.stderr.strip()[-800:])
    info = gt.run([gltrace, 'info', trace])
    ck.check('the trace holds no GL call (the GLX thread is left out) and one marker saying so',
             '"calls":0' in info.stdout and '"uncovered_markers":1' in info.stdout, info.stdout[:400])
    p = gt.run([gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
    glx = [ln for ln in p.stderr.splitlines() if 'GLX' in ln]
    ck.check('gltrace replay says in one line that the app drew through GLX, not captured; then, in one line, that'
             ' nothing was compared, naming GLX; exit 1',
             p.returncode == 1 and len(glx) == 2 and 'not capture' in glx[0] and 'nothing was compared' in glx[1] and
             'skipped' not in p.stderr.replace('(0 skipped)', ''), (p.returncode, p.stderr.strip()))
    p = gt.run([gltrace, 'replay', trace, '--no-progress', '--allow-empty'], env=gt.gl_env(headless=True))
    ck.check('with --allow-empty: exit 0', p.returncode == 0, (p.returncode, p.stderr.strip()))
    ck.exit()


main()
