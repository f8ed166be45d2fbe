#!/usr/bin/env python3
"""A real program's round trip, as a user runs it: Debian's glmark2-es2
scenes recorded under an Xvfb of our own, windowed and --off-screen, then
the X server stopped and every trace replayed HEADLESS (no DISPLAY, no X
server at all). Every snapshot must match bit for bit (llvmpipe on one
machine is deterministic), and there must be snapshots to compare:

 - windowed runs (gltrace record's default --fb=swap): one snapshot per
   eglSwapBuffers that `gltrace dump` shows;
 - --off-screen runs: glmark2 draws into a framebuffer object of its own
   and ends each frame with glFinish, never eglSwapBuffers, so --fb=swap
   would record no snapshot; they are recorded with --fb=draw, one snapshot
   per glDrawArrays/glDrawElements in the dump (except draws into a
   framebuffer with no colour attachment: the shadow scene's depth pass).
In every trace, the replay compares as many snapshots as the dump shows
gltraceSnapshot records, and more than none. And one --off-screen scene
recorded with no options at all (--fb=swap) is compared too: a snapshot
at each glFinish; its trace with the clear colour changed fails.

Three scenes are recorded on their own (a failure names the scene), plus
one run of ten scenes in one process (glmark2 makes a new context per
scene).

usage: check_glmark2.py GLTRACE WORK_DIR"""
import functools
import os
import re
import shutil
import sys

import gltest as gt
import legacy_pb

gltrace, work = sys.argv[1:3]
HEADLESS = gt.gl_env(headless=True)
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=HEADLESS, timeout=600)
ck = gt.Checker('replay.glmark2')
SIZE = '320x240'
GL_CLEAR_COLOR = 26  # api/functions.tsv (Android's number)
SCENES = ['build:use-vbo=true', 'texture', 'shading:shading=phong']
# The mix, one process: those three and more scenes (client arrays, FBO
# effects, many draws per frame, blending), glmark2's new context per scene.
MIX = SCENES + ['build:use-vbo=false', 'bump:bump-render=normals', 'effect2d', 'pulsar', 'desktop', 'jellyfish',
                'shadow']
DURATION = '0.4'  # seconds per scene, glmark2's own clock


def main():
    os.makedirs(work, exist_ok=True)
    tools = {t: shutil.which(t) for t in ('Xvfb', 'glmark2-es2')}
    if not ck.check('Xvfb and glmark2-es2 are installed (ci/setup.sh installs xvfb and glmark2-es2)',
                    all(tools.values()), tools):
        return
    xvfb, display, failed = gt.start_xvfb()
    if not ck.check('Xvfb started and gave its display number within 20 s (up to three tries)', display,
                    'three Xvfb starts gave no display number'):
        return
    print(f'note: Xvfb on {display}' + (f', after {failed} failed start(s)' if failed else ''))
    xenv = gt.gl_env(headless=True, DISPLAY=display)

    runs = []  # (name, trace, mode)
    scene_of = {}
    try:  # the X server goes away even if a recording raises (a timeout)
        for scene in SCENES + ['mix']:
            bench = MIX if scene == 'mix' else [scene]
            args = [x for s in bench for x in ('-b', f'{s}:duration={DURATION}')]
            for mode in ('windowed', 'off-screen'):
                name = f'{scene} {mode}'
                trace = os.path.join(work, re.sub(r'[^a-z0-9]+', '_', f'{scene}_{mode}') + '.gltrace')
                if os.path.exists(trace):
                    os.remove(trace)  # a stale trace must not pass for a new one
                fb = '--fb=swap' if mode == 'windowed' else '--fb=draw'
                off = ['--off-screen'] if mode == 'off-screen' else []
                r = run([gltrace, 'record', fb, '-o', trace, '--', tools['glmark2-es2'], *off, '--size', SIZE, *args],
                        env=xenv)
                if ck.check(f'{name}: recorded under Xvfb ({fb}), glmark2 exit 0', r.returncode == 0 and
                            os.path.exists(trace) and 'glmark2 Score' in r.stdout, (r.returncode, r.stderr[-800:])):
                    runs.append((name, trace, mode))
                    scene_of[name] = scene
        # --off-screen with no option at all: it never swaps, yet is compared.
        default = os.path.join(work, 'texture_off_screen_default.gltrace')
        if os.path.exists(default):
            os.remove(default)
        r = run([gltrace, 'record', '-o', default, '--', tools['glmark2-es2'], '--off-screen', '--size', SIZE,
                 '-b', f'texture:duration={DURATION}'], env=xenv)
        ck.check('texture off-screen, recorded with no options: glmark2 exit 0',
                 r.returncode == 0 and os.path.exists(default), (r.returncode, r.stderr[-800:]))
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=20)

    for name, trace, mode in runs:
        p = run([gltrace, 'replay', trace], env=HEADLESS)
        s = gt.replay_summary(p.stderr)
        ck.check(f'{name}: replayed with no X server, exit 0, every snapshot bit-exact',
                 p.returncode == 0 and s and s[1] == s[0] and s[2] == 0 and s[3] == 0, (p.returncode, p.stderr.strip()))
        d = run([gltrace, 'dump', trace])
        calls = re.findall(r'^\d+ (\w+)\(', d.stdout, re.M)
        swaps = calls.count('eglSwapBuffers')
        draws = calls.count('glDrawArrays') + calls.count('glDrawElements')
        recorded = calls.count('gltraceSnapshot')
        ck.check(f'{name}: every snapshot of the trace compared (as many as gltraceSnapshot records in the dump), '
                 'more than 0', s and s[0] == recorded > 0, (s, recorded))
        if mode == 'windowed':
            # A context that has not swapped yet is taken at glFinish (a
            # context that never swaps is compared too): glmark2 finishes
            # once before each scene's first frame.
            early = len(re.findall(r'^\d+ glFinish\(.*\n\d+ gltraceSnapshot|^\d+ gltraceSnapshot.*\n\d+ '
                                   r'(eglMakeCurrent|eglDestroyContext|eglReleaseThread|eglTerminate)\(', d.stdout,
                                   re.M))
            ck.check(f'{name}: one snapshot per eglSwapBuffers in the dump, and one per glFinish or release of a'
                     ' context that had not swapped yet', s and s[0] == swaps + early, (s, swaps, early))
        elif scene_of[name] != 'mix':
            ck.check(f'{name}: one snapshot per draw call in the dump (--fb=draw)', s and s[0] == draws, (s, draws))
        else:  # the shadow scene's depth pass draws into a framebuffer with no colour attachment: no snapshot
            ck.check(f'{name}: at most one snapshot per draw call in the dump (--fb=draw)', s and 0 < s[0] <= draws,
                     (s, draws))
        if s:
            print(f'note: {name}: {len(calls) - recorded} calls, {swaps} swaps, {draws} draws, {s[0]} snapshots')
    check_default_off_screen(default)


def check_default_off_screen(trace):
    """glmark2-es2 --off-screen recorded with no options (--fb=swap): a
    snapshot at each glFinish, all compared bit-exact; the trace with its
    first clear colour changed fails."""
    if not os.path.exists(trace):
        return
    p = run([gltrace, 'replay', trace], env=HEADLESS)
    s = gt.replay_summary(p.stderr)
    d = run([gltrace, 'dump', trace]).stdout
    finishes = len(re.findall(r'^\d+ glFinish\(', d, re.M))
    clears = len(re.findall(r'^\d+ glClearColor\(', d, re.M))
    ck.check('texture off-screen, no options: replay compares a snapshot at each glFinish, all bit-exact, exit 0',
             p.returncode == 0 and s and s[0] > 0 and s[1] == s[0] and s[0] >= finishes - 1 > 0,
             (p.returncode, finishes, p.stderr.strip()))
    # A clear of a frame midway (glmark2 sets the colour before each clear).
    altered, seen = legacy_pb.with_float_arg(legacy_pb.read_trace(trace), GL_CLEAR_COLOR, clears // 2, 1, 0.5)
    changed = trace + '.changed.legacy'
    with open(changed, 'wb') as f:
        f.write(altered)
    p = run([gltrace, 'replay', changed], env=HEADLESS)
    s = gt.replay_summary(p.stderr)
    ck.check('... and its trace with the clear colour changed (green 0.5) fails: exit 1, snapshots differ',
             seen > 1 and p.returncode == 1 and s and s[2] > 0, (seen, p.returncode, p.stderr.strip()[-600:]))


main()
ck.exit()
