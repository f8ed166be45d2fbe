#!/usr/bin/env python3
"""Round trips as a user runs them: each sample app recorded, then replayed
HEADLESS (no DISPLAY), every recorded snapshot compared bit for bit: all
must match (llvmpipe on one machine is deterministic). Also --fb=draw
recordings, a real X11 program (es2gears_x11, recorded under Xvfb, replayed
without it), Wayland ones (es2gears_wayland, and weston's own GLES
renderer, under a headless weston), a replay on another driver (softpipe) that must report differences with PNGs,
and unusable input (exit 2 naming the file).

usage: check_roundtrip.py GLTRACE APPS_DIR WORK_DIR"""
import functools
import os
import shutil
import signal
import subprocess
import sys
import time

import gltest as gt

gltrace, apps, work = sys.argv[1:4]
HEADLESS = gt.gl_env(headless=True)
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=HEADLESS, timeout=600)
ck = gt.Checker('replay.roundtrip_bit_exact')
APPS = ['es2_triangle', 'gles1_scene', 'es3_scene', 'two_threads', 'dlopen_app', 'arrays_maps', 'shared_contexts',
        'uploads', 'fbo_snapshots', 'es2_subimage', 'egl_images']

os.makedirs(work, exist_ok=True)
for app in APPS:
    for fb in ('swap', 'draw'):
        trace = os.path.join(work, f'{app}-{fb}.gltrace')
        r = run([gltrace, 'record', f'--fb={fb}', '-o', trace, '--', os.path.join(apps, app)])
        if not ck.check(f'{app} --fb={fb}: recorded', r.returncode == 0, r.stderr):
            continue
        p = run([gltrace, 'replay', trace], env=HEADLESS)
        s = gt.replay_summary(p.stderr)
        ck.check(f'{app} --fb={fb}: replayed HEADLESS, every compared snapshot bit-exact (exit 0)',
                 p.returncode == 0 and s and s[0] > 0 and s[1] > 0 and s[2] == 0, p.stderr.strip())
        if app == 'dlopen_app':  # it looks up one function no GLES has (tests/apps/check_dlopen_app.py)
            ck.check(f'{app} --fb={fb}: replay names the uncovered function the app got, once',
                     p.stderr.count('which gltrace does not cover') == 1 and
                     'the app got glNoSuchFunctionGLTRACE,' in p.stderr, p.stderr.strip())

# A real X11 program, replayed without any X server.
xvfb, gears = shutil.which('xvfb-run'), shutil.which('es2gears_x11')
if xvfb and gears:
    trace = os.path.join(work, 'es2gears_x11.gltrace')
    r = run([xvfb, '-a', '-s', '-screen 0 300x300x24', 'timeout', '-s', 'TERM', '2', gltrace, 'record', '-o', trace,
             '--', gears])
    ck.check('es2gears_x11 recorded under Xvfb (stopped by SIGTERM after 2 s)', os.path.exists(trace), r.stderr[-500:])
    p = run([gltrace, 'replay', trace], env=HEADLESS)
    s = gt.replay_summary(p.stderr)
    ck.check('es2gears_x11 replayed with no X server: every frame bit-exact',
             p.returncode == 0 and s and s[0] >= 10 and s[1] == s[0], p.stderr.strip())
    out = os.path.join(work, 'softpipe-diff')
    shutil.rmtree(out, ignore_errors=True)
    p = run([gltrace, 'replay', trace, '--out', out], env=dict(HEADLESS, GALLIUM_DRIVER='softpipe'))
    s = gt.replay_summary(p.stderr)
    pngs = os.listdir(out) if os.path.isdir(out) else []
    ck.check('the same trace on softpipe: differences found (exit 1), the first named, expected, actual and diff PNGs '
             'written for each',
             p.returncode == 1 and s and s[2] > 0 and 'first difference at call' in p.stderr and
             len(pngs) == 3 * s[2] and all(sum(f.endswith(f'-{k}.png') for f in pngs) == s[2]
                                           for k in ('expected', 'actual', 'diff')), (p.returncode, p.stderr, pngs[:4]))
    p = run([gltrace, 'replay', trace, '--mode', 'perceptual', '--no-progress'],
            env=dict(HEADLESS, GALLIUM_DRIVER='softpipe'))
    s = gt.replay_summary(p.stderr)
    ck.check('on softpipe with --mode perceptual (the options of gltrace diff): every frame passes (exit 0)',
             p.returncode == 0 and s and s[1] == s[0] > 0, p.stderr.strip())
else:
    ck.check('xvfb-run and es2gears_x11 are installed (ci/setup.sh)', False)

# Wayland: es2gears_wayland as the client, and the compositor itself (weston
# with its GLES renderer on a headless output: a context made with no
# config, client buffers uploaded as textures every frame), both recorded in
# one session (its own socket and runtime folder), each replayed with no
# compositor at all.
weston, wgears = shutil.which('weston'), shutil.which('es2gears_wayland')
if weston and wgears:
    rt = os.path.join(work, 'xdg-runtime')
    shutil.rmtree(rt, ignore_errors=True)
    os.makedirs(rt, mode=0o700)
    wenv = gt.gl_env(XDG_RUNTIME_DIR=rt)
    wenv.pop('DISPLAY', None)
    comp_trace, trace = os.path.join(work, 'weston.gltrace'), os.path.join(work, 'es2gears_wayland.gltrace')
    comp = subprocess.Popen([gltrace, 'record', '-o', comp_trace, '--', weston, '--backend=headless-backend.so',
                             '--use-gl', '--socket=gltrace-test', '--width=300', '--height=300', '--idle-time=0'],
                            env=wenv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        for _ in range(100):  # the socket appears once weston is ready
            if os.path.exists(os.path.join(rt, 'gltrace-test')):
                break
            time.sleep(0.1)
        r = run(['timeout', '-s', 'TERM', '2', gltrace, 'record', '-o', trace, '--', wgears],
                env=dict(wenv, WAYLAND_DISPLAY='gltrace-test'))
        ck.check('es2gears_wayland recorded under a headless weston (stopped by SIGTERM after 2 s)',
                 os.path.exists(trace), r.stderr[-500:])
    finally:
        os.killpg(comp.pid, signal.SIGTERM)  # weston ends; record writes the trace
        err = comp.communicate(timeout=60)[1]
    ck.check('weston (GLES renderer) recorded while the client ran', os.path.exists(comp_trace), err[-500:])
    for name, t in (('es2gears_wayland', trace), ('weston --use-gl', comp_trace)):
        p = run([gltrace, 'replay', t], env=HEADLESS)
        s = gt.replay_summary(p.stderr)
        ck.check(f'{name} replayed with no compositor: every frame bit-exact',
                 p.returncode == 0 and s and s[0] >= 10 and s[1] == s[0], p.stderr.strip())
else:
    print('note: weston or es2gears_wayland missing (ci/setup.sh installs them): the Wayland round trips are not run')

# Unusable input.
good = os.path.join(work, 'es3_scene-swap.gltrace')
data = open(good, 'rb').read()
cut = os.path.join(work, 'cut.gltrace')
open(cut, 'wb').write(data[:len(data) * 3 // 4])
p = run([gltrace, 'replay', cut], env=HEADLESS)
ck.check('a truncated trace: exit 2, the file named, the comparisons before the damage reported',
         p.returncode == 2 and cut in p.stderr and gt.replay_summary(p.stderr) is not None, p.stderr)
p = run([gltrace, 'replay', os.path.join(work, 'missing.gltrace')], env=HEADLESS)
ck.check('a missing trace: exit 2 naming it', p.returncode == 2 and 'missing.gltrace' in p.stderr, p.stderr)
p = run([gltrace, 'replay', good, '--bogus'], env=HEADLESS)
ck.check('an unknown option: exit 2 naming it', p.returncode == 2 and '--bogus' in p.stderr, p.stderr)

ck.exit()
