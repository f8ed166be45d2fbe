#!/usr/bin/env python3
"""`gltrace replay --loop N` without --benchmark compares the repeated
frame's snapshots with the recorded ones each time. es3_scene's frames set
all they read, so its last frame repeats exactly; accumulate's frames add
to what the frame before left (additive blending, no clear), so a repeat
draws something else: that replay exits 1 and says so. The repeats run
right after the last frame's swap, before the app's teardown (objects it
deletes at its end would otherwise be gone from the repeats). `replay
--loop` of a trim repeats all its kept frames (frames 1-2: two snapshots a
repeat), each time from a reset, so both apps' trims repeat exactly,
accumulate's too, and `gltrace trim` says so. The reset writes back what
the kept frames changed where it can: accumulate's frames change only the
context's state and their window's pixels (which the reset writes back:
without them its repeats would differ), and so do gles1_scene's (GLES 1
matrices, lights, texture environments); es3_scene's frames draw into a
framebuffer object: its texture is copied before the first draw and
copied back before each repeat. fbo_snapshots' trim ends with the app's
last frame, after which it deletes everything it made: the repeats run
before that teardown, as the last frame's loop does, and are written back
(its textures have immutable storage). arrays_maps' trim keeps only what
follows its one frame, where it deletes buffers the setup made, which no
reset can write back: each repeat replays the trim's setup again, and
replay says why, in its reports too. lights_app
(tests/trim) moves its lights and changes its material and texture
environment every frame: its trim's repeats are reset by writing them
back too.

usage: check_loop.py --gltrace GLTRACE --repeats ES3_SCENE --accumulates ACCUMULATE --gles1 GLES1_SCENE
                     --lights LIGHTS_APP --teardown FBO_SNAPSHOTS --rebuilds ARRAYS_MAPS --out DIR"""
import argparse
import json
import os
import re

import gltest as gt
import apptrace as at


def loop_line(stderr):
    m = re.search(r'--loop: (?:the last frame|the trim\'s kept calls) again (\d+) times(?:, each from a reset)?: '
                  r'(\d+) of their (\d+) snapshots', stderr)
    return tuple(int(x) for x in m.groups()) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gltrace', required=True)
    ap.add_argument('--repeats', required=True)
    ap.add_argument('--accumulates', required=True)
    ap.add_argument('--gles1', required=True)
    ap.add_argument('--lights', required=True)
    ap.add_argument('--teardown', required=True)
    ap.add_argument('--rebuilds', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    ck = gt.Checker('replay --loop')
    os.makedirs(args.out, exist_ok=True)
    env = gt.gl_env(headless=True)
    for app, exact in ((args.repeats, True), (args.accumulates, False)):
        name = os.path.basename(app)
        trace = os.path.join(args.out, name + '.gltrace')
        rec = at.record(args.gltrace, trace, [app])
        if not ck.check(f'{name}: recorded', rec.returncode == 0 and os.path.isfile(trace), rec.stderr):
            continue
        once = gt.run([args.gltrace, 'replay', trace, '--no-progress'], env=env)
        ck.check(f'{name}: replayed once, every snapshot matches', once.returncode == 0, once.stderr.strip())
        p = gt.run([args.gltrace, 'replay', trace, '--loop', '3', '--no-progress'], env=env)
        got = loop_line(p.stderr)
        if exact:
            ck.check(f'{name}: --loop 3 exits 0 and its repeats match the recorded snapshots',
                     p.returncode == 0 and got is not None and got[0] == 3 and got[2] > 0 and got[1] == got[2],
                     p.stderr.strip())
        else:
            ck.check(f'{name}: --loop 3 exits 1: its repeats differ from the recorded snapshots, and it says why',
                     p.returncode == 1 and got is not None and got[2] > 0 and got[1] < got[2] and
                     'read state they change' in p.stderr, p.stderr.strip())
        b = gt.run([args.gltrace, 'replay', trace, '--benchmark', '--loop', '3', '--no-progress'], env=env)
        ck.check(f'{name}: --benchmark --loop 3 compares nothing and exits 0', b.returncode == 0, b.stderr.strip())
        cut = os.path.join(args.out, name + '-frames-1-2.gltrace')
        t = gt.run([args.gltrace, 'trim', trace, '--frames', '1-2', '-o', cut], env=env)
        ck.check(f'{name}: trimmed to frames 1-2, exit 0, and trim says --loop repeats them exactly from a reset',
                 t.returncode == 0 and 'loop: its kept calls replayed again from a reset match' in t.stdout and
                 'repeats them exactly' in t.stdout, (t.stdout, t.stderr))
        lp = gt.run([args.gltrace, 'replay', cut, '--loop', '2', '--no-progress'], env=env)
        got = loop_line(lp.stderr)
        ck.check(f'{name}: the trim replayed with --loop 2 repeats both kept frames from a reset each time '
                 '(4 snapshots compared), all matching, exit 0',
                 "the trim's kept calls again 2 times, each from a reset" in lp.stderr and got is not None and
                 got[2] == 4 and got[1] == 4 and lp.returncode == 0, lp.stderr.strip())
        bl = gt.run([args.gltrace, 'replay', cut, '--benchmark', '--loop', '2', '--no-progress'], env=env)
        ck.check(f'{name}: the trim with --benchmark --loop 2 times all 6 kept frames (2 and 2 repeats of 2)',
                 bl.returncode == 0 and re.search(r': 6 frames in ', bl.stderr), bl.stderr.strip())
        written_reset(ck, name, t, lp)
    before_teardown(ck, args, env)
    rebuilt(ck, args, env)
    gles1_loop(ck, args, env, args.gles1, '1-2', 4)
    gles1_loop(ck, args, env, args.lights, '3-5', 6)
    ck.exit()


def written_reset(ck, name, trim, replay):
    """The trim's repeats reset by calls written back, all of them."""
    m = re.search(r'2 of 2 repeats reset by writing back the state the kept calls changed \((\d+) calls\)',
                  replay.stderr)
    ck.check(f'{name}: both repeats reset by writing back what the kept frames changed (calls written), '
             'and trim says so', m is not None and int(m.group(1)) > 0 and
             'calls that write back the state they changed' in trim.stdout, (trim.stdout, replay.stderr))


def trimmed(ck, args, env, app, frames):
    """app recorded and trimmed to frames: (its name, the trim's result,
    the trim's path), or None when it could not be recorded."""
    name = os.path.basename(app)
    trace = os.path.join(args.out, name + '.gltrace')
    rec = at.record(args.gltrace, trace, [app])
    if not ck.check(f'{name}: recorded', rec.returncode == 0 and os.path.isfile(trace), rec.stderr):
        return None
    cut = os.path.join(args.out, f'{name}-frames-{frames}.gltrace')
    return name, gt.run([args.gltrace, 'trim', trace, '--frames', frames, '-o', cut], env=env), cut


def before_teardown(ck, args, env):
    """fbo_snapshots' frames 1-2 end the trace; after the last one the app
    deletes its framebuffer, textures and buffers and its context: the
    repeats run before that, written back, all matching."""
    got = trimmed(ck, args, env, args.teardown, '1-2')
    if not got:
        return
    _, t, cut = got
    lp = gt.run([args.gltrace, 'replay', cut, '--loop', '2', '--no-progress'], env=env)
    got = loop_line(lp.stderr)
    ck.check('fbo_snapshots: the trim of its last frames repeats before the app\'s teardown, all repeated snapshots '
             'matching, exit 0', t.returncode == 0 and lp.returncode == 0 and got is not None and
             got[1] == got[2] > 0, (t.stdout, lp.stderr))
    written_reset(ck, 'fbo_snapshots', t, lp)


def rebuilt(ck, args, env):
    """arrays_maps has one frame: its trim of frames 1-2 keeps what follows
    it, which deletes buffers the setup made: every repeat replays the
    setup again, and replay and trim say why, in the reports too."""
    got = trimmed(ck, args, env, args.rebuilds, '1-2')
    if not got:
        return
    _, t, cut = got
    report, junit = os.path.join(args.out, 'arrays_maps-loop.json'), os.path.join(args.out, 'arrays_maps-loop.xml')
    lp = gt.run([args.gltrace, 'replay', cut, '--loop', '2', '--no-progress', '--json', report, '--junit', junit],
                env=env)
    got = loop_line(lp.stderr)
    why = 'the kept calls change an object (glDeleteBuffers'
    ck.check('arrays_maps: its kept calls delete buffers made before them: each repeat replays the '
             'setup again, replay and trim say why, and the repeats match',
             lp.returncode == 0 and got is not None and got[1] == got[2] > 0 and
             f'2 of 2 repeats reset by replaying its setup again into new contexts: {why}' in lp.stderr and
             f'setup replayed again ({why}' in t.stdout, (t.stdout, lp.stderr))
    loop = report_loop(report)
    ck.check('arrays_maps: the JSON report says the loop: 2 repeats of the trim, none written back, 2 rebuilt '
             'and why, their snapshots compared and matched', loop and loop.get('repeats') == 2 and
             loop.get('of') == 'trim' and loop.get('written_back') == 0 and loop.get('rebuilt') == 2 and
             why in (loop.get('rebuilt_why') or '') and loop.get('compared') == loop.get('matched') > 0, loop)
    xml = open(junit).read() if os.path.exists(junit) else ''
    ck.check('arrays_maps: the JUnit report has the loop as a passed test case naming how it was reset',
             re.search(r'<testcase classname="replay" name="--loop 2 \(the trim&#39;s kept calls\): 0 reset by '
                       r'writing back, 2 by replaying the setup again: [^"]*glDeleteBuffers[^"]*"/>', xml),
             xml[-800:])


def report_loop(path):
    """The `loop` object of a replay's JSON report, or None."""
    try:
        with open(path) as f:
            return json.load(f).get('loop')
    except (OSError, ValueError):
        return None


def gles1_loop(ck, args, env, app, frames, snapshots):
    """GLES 1's fixed function (matrices built by glRotatef, lights,
    material, texture environments): its trim's repeats reset by calls
    written back, every snapshot matching."""
    got = trimmed(ck, args, env, app, frames)
    if not got:
        return
    name, t, cut = got
    report = os.path.join(args.out, f'{name}-loop.json')
    lp = gt.run([args.gltrace, 'replay', cut, '--loop', '2', '--no-progress', '--json', report], env=env)
    got = loop_line(lp.stderr)
    ck.check(f'{name}: the trim of frames {frames} replayed with --loop 2 matches all {snapshots} repeated '
             'snapshots, exit 0', t.returncode == 0 and lp.returncode == 0 and got is not None and
             got[1] == got[2] == snapshots, (t.stdout, lp.stderr))
    written_reset(ck, name, t, lp)
    loop = report_loop(report)
    ck.check(f'{name}: the JSON report says both repeats were written back, with the calls, none rebuilt',
             loop and loop.get('written_back') == 2 and loop.get('rebuilt') == 0 and loop.get('reset_calls', 0) > 0
             and loop.get('rebuilt_why') is None and loop.get('matched') == loop.get('compared') == snapshots, loop)


if __name__ == '__main__':
    main()
