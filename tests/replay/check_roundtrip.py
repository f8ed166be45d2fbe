#!/usr/bin/env python3
"""Round trips as a user runs them: each sample app recorded, then replayed
HEADLESS (no DISPLAY), every recorded snapshot compared bit for bit: all
must match (llvmpipe on one machine is deterministic). Also --fb=draw
recordings, a real X11 program (es2gears_x11, recorded under Xvfb, replayed
without it), a Wayland one (es2gears_wayland under a headless weston), a
replay on another driver (softpipe) that must report differences with PNGs,
and unusable input (exit 2 naming the file).

usage: check_roundtrip.py GLTRACE APPS_DIR WORK_DIR"""
import os
import shutil
import subprocess
import sys
import time
from replaytest import HEADLESS, check, finish, run, summary  # noqa: E402

gltrace, apps, work = sys.argv[1:4]
APPS = ['es2_triangle', 'gles1_scene', 'es3_scene', 'two_threads', 'dlopen_app', 'arrays_maps', 'shared_contexts',
        'uploads', 'fbo_snapshots', 'es2_subimage', 'egl_images']

os.makedirs(work, exist_ok=True)
for app in APPS:
    for fb in ('swap', 'draw'):
        trace = os.path.join(work, f'{app}-{fb}.gltrace')
        r = run([gltrace, 'record', f'--fb={fb}', '-o', trace, '--', os.path.join(apps, app)])
        if not check(f'{app} --fb={fb}: recorded', r.returncode == 0, r.stderr):
            continue
        p = run([gltrace, 'replay', trace], env=HEADLESS)
        s = summary(p.stderr)
        check(f'{app} --fb={fb}: replayed HEADLESS, every compared snapshot bit-exact (exit 0)',
              p.returncode == 0 and s and s[0] > 0 and s[1] > 0 and s[2] == 0, p.stderr.strip())

# A real X11 program, replayed without any X server.
xvfb, gears = shutil.which('xvfb-run'), shutil.which('es2gears_x11')
if xvfb and gears:
    trace = os.path.join(work, 'es2gears_x11.gltrace')
    r = run([xvfb, '-a', '-s', '-screen 0 300x300x24', 'timeout', '-s', 'TERM', '2', gltrace, 'record', '-o', trace,
             '--', gears])
    check('es2gears_x11 recorded under Xvfb (stopped by SIGTERM after 2 s)', os.path.exists(trace), r.stderr[-500:])
    p = run([gltrace, 'replay', trace], env=HEADLESS)
    s = summary(p.stderr)
    check('es2gears_x11 replayed with no X server: every frame bit-exact',
          p.returncode == 0 and s and s[0] >= 10 and s[1] == s[0], p.stderr.strip())
    out = os.path.join(work, 'softpipe-diff')
    shutil.rmtree(out, ignore_errors=True)
    p = run([gltrace, 'replay', trace, '--out', out], env=dict(HEADLESS, GALLIUM_DRIVER='softpipe'))
    s = summary(p.stderr)
    pngs = os.listdir(out) if os.path.isdir(out) else []
    check('the same trace on softpipe: differences found (exit 1), the first named, expected, actual and diff PNGs '
          'written for each',
          p.returncode == 1 and s and s[2] > 0 and 'first difference at call' in p.stderr and
          len(pngs) == 3 * s[2] and all(sum(f.endswith(f'-{k}.png') for f in pngs) == s[2]
                                        for k in ('expected', 'actual', 'diff')), (p.returncode, p.stderr, pngs[:4]))
    p = run([gltrace, 'replay', trace, '--mode', 'perceptual', '--no-progress'],
            env=dict(HEADLESS, GALLIUM_DRIVER='softpipe'))
    s = summary(p.stderr)
    check('on softpipe with --mode perceptual (the options of gltrace diff): every frame passes (exit 0)',
          p.returncode == 0 and s and s[1] == s[0] > 0, p.stderr.strip())
else:
    check('xvfb-run and es2gears_x11 are installed (ci/setup.sh)', False)

# A Wayland program: es2gears_wayland under a headless weston (its own
# socket and runtime folder), replayed with neither.
weston, wgears = shutil.which('weston'), shutil.which('es2gears_wayland')
if weston and wgears:
    rt = os.path.join(work, 'xdg-runtime')
    shutil.rmtree(rt, ignore_errors=True)
    os.makedirs(rt, mode=0o700)
    wenv = dict(os.environ, XDG_RUNTIME_DIR=rt)
    wenv.pop('DISPLAY', None)
    comp = subprocess.Popen([weston, '--backend=headless-backend.so', '--socket=gltrace-test', '--width=300',
                             '--height=300', '--idle-time=0'], env=wenv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):  # the socket appears once weston is ready
            if os.path.exists(os.path.join(rt, 'gltrace-test')):
                break
            time.sleep(0.1)
        trace = os.path.join(work, 'es2gears_wayland.gltrace')
        r = run(['timeout', '-s', 'TERM', '2', gltrace, 'record', '-o', trace, '--', wgears],
                env=dict(wenv, WAYLAND_DISPLAY='gltrace-test'))
        check('es2gears_wayland recorded under a headless weston (stopped by SIGTERM after 2 s)',
              os.path.exists(trace), r.stderr[-500:])
    finally:
        comp.terminate()
        comp.wait()
    p = run([gltrace, 'replay', trace], env=HEADLESS)
    s = summary(p.stderr)
    check('es2gears_wayland replayed with no compositor: every frame bit-exact',
          p.returncode == 0 and s and s[0] >= 10 and s[1] == s[0], p.stderr.strip())
else:
    print('note: weston or es2gears_wayland missing (ci/setup.sh installs them): the Wayland round trip is not run')

# Unusable input.
good = os.path.join(work, 'es3_scene-swap.gltrace')
data = open(good, 'rb').read()
cut = os.path.join(work, 'cut.gltrace')
open(cut, 'wb').write(data[:len(data) * 3 // 4])
p = run([gltrace, 'replay', cut], env=HEADLESS)
check('a truncated trace: exit 2, the file named, the comparisons before the damage reported',
      p.returncode == 2 and cut in p.stderr and summary(p.stderr) is not None, p.stderr)
p = run([gltrace, 'replay', os.path.join(work, 'missing.gltrace')], env=HEADLESS)
check('a missing trace: exit 2 naming it', p.returncode == 2 and 'missing.gltrace' in p.stderr, p.stderr)
p = run([gltrace, 'replay', good, '--bogus'], env=HEADLESS)
check('an unknown option: exit 2 naming it', p.returncode == 2 and '--bogus' in p.stderr, p.stderr)

finish()
