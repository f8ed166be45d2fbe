#!/usr/bin/env python3
"""Desktop OpenGL through EGL (eglBindAPI(EGL_OPENGL_API), as Qt's xcb_egl
draws) is recorded but not replayed, and both say so. egl_desktop_app
draws three frames in a desktop OpenGL context; with "mixed", three more
in a GLES context after it.
- record says once, in one gltrace: line, that the calls are recorded but
  desktop GL is not replayed;
- replay of the desktop-only trace says so once, compares nothing (its
  snapshots "not compared") and exits 1 naming EGL; 0 with --allow-empty;
- replay of the mixed trace compares the GLES frames (3 matched), leaves
  the desktop ones out, and exits 0.

usage: check_egl_desktop.py GLTRACE APP WORK_DIR"""
import os
import sys

import gltest as gt

gltrace, app, work = sys.argv[1:4]


def main():
    ck = gt.Checker('replay.egl_desktop_not_replayed')
    gt.fresh_dir(work)
    for mode in ('desktop', 'mixed'):
        trace = os.path.join(work, f'{mode}.gltrace')
        r = gt.run([gltrace, 'record', '-o', trace, '--', app, mode], env=gt.gl_env(headless=True))
        notices = [ln for ln in r.stderr.splitlines() if ln.startswith('gltrace:') and 'desktop OpenGL' in ln]
        ck.check(f'{mode}: recorded (exit 0); record says once that desktop OpenGL through EGL is recorded, not '
                 'replayed', r.returncode == 0 and len(notices) == 1 and 'not replay' in notices[0],
                 (r.returncode, r.stderr.strip()[-600:]))
        p = gt.run([gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
        said = [ln for ln in p.stderr.splitlines() if 'desktop OpenGL context through EGL' in ln]
        s = gt.replay_summary(p.stderr)
        if mode == 'desktop':
            ck.check('desktop: replay says once that the context is desktop OpenGL, compares none of its 3 '
                     'snapshots, and exits 1 saying nothing was compared, naming EGL',
                     p.returncode == 1 and len(said) == 1 and s and s[0] == 3 and s[1] == 0 and s[2] == 0 and
                     'nothing was compared' in p.stderr and 'through EGL' in p.stderr, (p.returncode, p.stderr))
            q = gt.run([gltrace, 'replay', trace, '--no-progress', '--allow-empty'], env=gt.gl_env(headless=True))
            ck.check('desktop: with --allow-empty, exit 0', q.returncode == 0, (q.returncode, q.stderr))
        else:
            ck.check('mixed: replay compares the 3 GLES frames (matched), not the 3 desktop ones, and exits 0',
                     p.returncode == 0 and len(said) == 1 and s and s[0] == 6 and s[1] == 3 and s[2] == 0,
                     (p.returncode, p.stderr))
    ck.exit()


main()
