#!/usr/bin/env python3
"""Qt Quick, recorded as a user records it: a Qt 5 program
(tests/apps/qt_quick.cpp, asking for GLES as a Qt program on Linux must)
showing an animated scene (tests/apps/qt_quick.qml) in an X window under
Xvfb, through Qt's xcb_egl integration and its basic render loop, for a
few seconds. Its trace must replay with every snapshot matched. Three
frames trimmed out of it at three points must replay exactly on the
first try, and their setups must not grow with the start: Qt binds
EGL_OPENGL_ES_API before each frame, and each binding stayed in the
setups (547 of 1326 calls at frame 150, 1009 of 1788 at frame 600)
until a trim left out those that bind the API already bound; Qt's
particles enable GL_POINT_SPRITE_OES each frame, which GLES 3 refuses,
and each refusal stayed reading everything, keeping every state command
before it (19027 calls at frame 300, 81711 at frame 1300), until a
refused enum went; its canvas is written into Qt's atlas as the same
five rectangles each frame, each kept (541 and 2316 glTexSubImage2D)
until a write of the same region replaced an earlier one. A trim's
--loop repeats its frames exactly, each from a reset written back (a
binding of the client API makes no EGL object). Then the same scene
started under `gltrace record --listen`, traced for a second from a
second process (`gltrace connect --start --duration 1`): its trace must
be exact on the first try and replay exactly. It was exact only on a
second try: in the app's spool, capture holds back the storage of Qt's
layer texture, so the texture's first binding (which makes it) was left
out of the setup before its attachment. Exit 77 only when the
app could not be built (Qt 5 Quick's development files missing:
ci/setup.sh installs qtdeclarative5-dev) or xvfb-run is missing."""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import gltest as gt

p = argparse.ArgumentParser()
p.add_argument('--gltrace', required=True)
p.add_argument('--app', required=True)
p.add_argument('--scene', required=True)
p.add_argument('--dir', required=True)
a = p.parse_args()

if not a.app:
    print('SKIP: tests/apps/qt_quick was not built: Qt 5 Quick\'s development files are missing '
          '(ci/setup.sh installs qtdeclarative5-dev and qml-module-qtquick2)')
    sys.exit(77)
if not shutil.which('xvfb-run'):
    print('SKIP: xvfb-run is not installed (ci/setup.sh installs xvfb)')
    sys.exit(77)

work = gt.fresh_dir(os.path.join(a.dir, 'qt'))
ck = gt.Checker('qt')
env = dict(os.environ, QT_QPA_PLATFORM='xcb', QT_XCB_GL_INTEGRATION='xcb_egl', QSG_RENDER_LOOP='basic',
           XDG_RUNTIME_DIR=gt.fresh_dir(os.path.join(work, 'xdg')))
trace = os.path.join(work, 'qt_quick.gltrace')
r = gt.run(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '-o', trace, '--',
            'timeout', '5', a.app, a.scene], env=env, timeout=300)
_, obj = gt.info(a.gltrace, trace) if os.path.exists(trace) else (None, None)
frames = obj.get('frames', 0) if obj else 0
version = (obj or {}).get('metadata', {}).get('gl_version', '')
ck.check(f'qt_quick: recorded on GLES ({version!r}), {frames} frames (at least 100)',
         frames >= 100 and version.startswith('OpenGL ES'), (r.returncode, r.stderr[-600:]))
if frames < 100:
    ck.exit()
rp = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
s = gt.replay_summary(rp.stderr)
ck.check('qt_quick: replayed headless, every snapshot matched', rp.returncode == 0 and s and s[0] >= 100 and
         s[1] == s[0], rp.stderr.strip()[-600:])

starts = (frames // 5, frames // 2, frames - 5)
setups = gt.trim_at(ck, a.gltrace, trace, 'qt_quick', starts, work)
ck.check(f'qt_quick: the setups do not grow with the start ({setups} calls at frames {list(starts)})',
         min(setups) > 0 and max(setups) - min(setups) <= 20, setups)
last = os.path.join(work, f'qt_quick-{starts[-1]}.trim.gltrace')


def setup_binds(path):
    """The eglBindAPI records of a trim's setup (before its start marker)."""
    n = 0
    for rec in gt.dump(a.gltrace, path).objects():
        if rec.get('fn') == 'gltraceMetadata' and \
                rec.get('metadata', {}).get('options', {}).get('trim', '').startswith('start'):
            return n
        n += rec.get('fn') == 'eglBindAPI'
    return -1


binds = setup_binds(last) if os.path.exists(last) else -1
ck.check(f'qt_quick: the last trim\'s setup binds the client API once ({binds})', binds == 1, binds)
rp = gt.run([a.gltrace, 'replay', last, '--loop', '2', '--no-progress'], env=gt.gl_env(headless=True))
ck.check('qt_quick: replay --loop 2 of the last trim repeats its frames exactly, each from a reset written back',
         rp.returncode == 0 and 'reset by writing back' in rp.stderr and
         re.search(r'(\d+) of their \1 snapshots and reads matched', rp.stderr), rp.stderr.strip()[-600:])

# Traced from a second process while it runs.
target = f'abstract:gltrace-qt-{os.getpid()}'
app = subprocess.Popen(['xvfb-run', '-a', '-s', '-screen 0 640x480x24', a.gltrace, 'record', '--listen', target, '--',
                        'timeout', '30', a.app, a.scene], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, start_new_session=True)
line, end = '', time.time() + 30
while line is not None and 'trace server on' not in line and time.time() < end:
    line = app.stderr.readline() or None
ck.check('qt_quick under record --listen: it says where its trace server listens', line and 'trace server on' in line,
         line)
time.sleep(2)
out = os.path.join(work, 'connect.gltrace')
c = gt.run([a.gltrace, 'connect', target, '--start', '--duration', '1', '-o', out], timeout=600)
ck.check('qt_quick traced for a second from a second process: its trace made and checked exact on the first try',
         c.returncode == 0 and 'checked: its replay matches' in c.stdout + c.stderr and
         'note: without' not in c.stdout + c.stderr, (c.stdout + c.stderr)[-900:])
os.killpg(app.pid, signal.SIGTERM)
app.communicate(timeout=60)
rp = gt.run([a.gltrace, 'replay', out, '--no-progress'], env=gt.gl_env(headless=True))
s = gt.replay_summary(rp.stderr)
ck.check('qt_quick traced from a second process: replayed headless, every snapshot matched (at least 10)',
         rp.returncode == 0 and s and s[0] >= 10 and s[1] == s[0], rp.stderr.strip()[-600:])
ck.exit()
