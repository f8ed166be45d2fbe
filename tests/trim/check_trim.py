#!/usr/bin/env python3
"""gltrace trim as a user checks it: each sample app (tests/apps) recorded,
a few frames cut out of the middle (frames [k, k+2], or for an app of one
frame or none, its last calls with --calls), trim saying the state at the
start (as gltrace inspect reads it) is the original's, and the trim
replayed on its own: `gltrace replay` exits 0 with every snapshot matched, its snapshots
are the original's of those frames (same pictures, same order), and the
dump shows where the setup ends (a gltraceMetadata marker). trim_app's
hard starts: a buffer mapped across the start (kept as it is: the trim
replays without help), frames drawing over what earlier frames drew into
the window, and a texture accumulated over frames with the same calls: the
trim's own check finds the last two and keeps what they need, while the
same trims made without the check (--no-verify) do not replay exactly.
Bad ranges and files exit 2 naming them. --loop replays a trim. `gltrace
record --start-frame N --frames K` leaves a trace of those frames.
lights_app's GLES 1 lights, material and texture environment, changed
every frame, are written at the start as calls (the lights through the
identity matrix). trim_app's trims repeat with --loop from a reset that
writes back what their frames change: a framebuffer texture drawn into
(passes), attachments changed (download), a vertex array's pointers
(perframe), bindings at units past 32 and a buffer's contents (units); a
buffer mapped across the
start rebuilds, saying so (map). Names a command gives with a target or an
identifier (glCopyImageSubData, glObjectLabel) are mapped on replay, and
the objects they name kept (copies).

usage: check_trim.py GLTRACE APPS_DIR TRIM_APP WORK_DIR HELD_APP VIDEO_APP LIGHTS_APP LAYERS_APP"""
import json
import os
import re
import shutil
import subprocess
import sys

import gltest as gt

gltrace, apps, trim_app, work, held_app, video_app, lights_app, layers_app = sys.argv[1:9]
ENV = gt.gl_env(headless=True)
ck = gt.Checker('trim.apps')
APPS = ['es2_triangle', 'es3_scene', 'gles1_scene', 'two_threads', 'shared_contexts', 'arrays_maps', 'uploads',
        'egl_images', 'es2_render_texture', 'fbo_snapshots', 'depth_stencil', 'offscreen_readback', 'es2_subimage',
        'locations']
FRAME_FNS = re.compile(r'^eglSwapBuffers')


def run(argv):
    return gt.run(argv, env=ENV, timeout=600)


def record(name, argv):
    trace = os.path.join(work, name + '.gltrace')
    if os.path.exists(trace):
        os.remove(trace)
    r = run([gltrace, 'record', '-o', trace, '--', *argv])
    ok = ck.check(f'{name}: recorded', r.returncode == 0 and os.path.exists(trace), r.stderr[-500:])
    return trace if ok else None


def snapshots(trace, frames=None, calls=None):
    """The snapshot records of trace as (width, height, attachment, fnv1a),
    those inside frames (first, last) or calls (first, last) only."""
    d = gt.dump(gltrace, trace)
    # Frames as replay counts them (proto/gt_frames.c): swaps end them, or
    # in a trace that never swaps, runs of snapshots (and marks of frames
    # with none), after the last of a run.
    swaps = any(FRAME_FNS.match(r.get('fn', '')) for r in d.objects())
    out, frame, in_run = [], 0, False
    for r in d.objects():
        fn = r.get('fn', '')
        mark = fn in ('gltraceSnapshot', 'gltraceFrameEnd')
        if not swaps and in_run and not mark:
            frame += 1
        in_run = mark
        if fn == 'gltraceSnapshot':
            inside = ((frames is None or frames[0] <= frame <= frames[1]) and
                      (calls is None or calls[0] <= r.get('seq', -1) <= calls[1]))
            if inside:
                fb = r.get('fb', {})
                out.append((fb.get('width'), fb.get('height'), fb.get('attachment'), fb.get('fnv1a')))
        elif FRAME_FNS.match(fn):
            frame += 1
    return out, d.objects()


def setup_fns(out):
    """The functions of a trim's setup: its records before the start marker."""
    return [rec.get('fn') for rec in setup_records(out)]


def no_gl_errors(trace):
    """Whether the replay of trace raises no GL error: its setup is
    ordinary calls that replay as they are (gltrace record --mode=error,
    glGetError after each call)."""
    e = run([gltrace, 'record', '--mode=error', '--', gltrace, 'replay', trace])
    return e.returncode == 0 and 'error mode: no GL errors' in e.stderr


def check_trim(name, trace, how, first, last, *extra, expect_note=None):
    """Trims trace (how: --frames or --calls), checks the trim: exit 0,
    replay exact, snapshots the original's."""
    label = f'{name} {how} {first}-{last}'
    out = os.path.join(work, f'{name}-{how[2:]}-{first}-{last}.gltrace')
    if os.path.exists(out):
        os.remove(out)
    r = run([gltrace, 'trim', trace, how, f'{first}-{last}', '-o', out, *extra])
    if not ck.check(f'{label}: trim exits 0 saying its replay was checked',
                    r.returncode == 0 and 'checked: its replay matches' in r.stdout, (r.returncode, r.stdout, r.stderr)):
        return None
    if how == '--frames' and first:
        ck.check(f'{label}: the state at the start, as inspect reads it, is the original\'s',
                 'checked: the state at the start, as gltrace inspect reads it, is the original\'s' in r.stdout,
                 r.stdout)
    if expect_note is not None:
        ck.check(f'{label}: says what it had to keep ({expect_note})', expect_note in r.stdout, r.stdout)
    else:
        ck.check(f'{label}: exact on the first try (no note of what it had to keep)', 'note: without' not in r.stdout,
                 r.stdout)
    m = re.search(r'size: (\d+) bytes, [\d.]+% of the original\'s (\d+)', r.stdout)
    ck.check(f'{label}: reports its size against the original\'s', m and int(m.group(2)) == os.path.getsize(trace)
             and int(m.group(1)) == os.path.getsize(out), r.stdout)
    rp = run([gltrace, 'replay', out])
    s = gt.replay_summary(rp.stderr)
    want, _ = snapshots(trace, frames=(first, last) if how == '--frames' else None,
                        calls=(first, last) if how == '--calls' else None)
    got, recs = snapshots(out)
    ck.check(f'{label}: the trim replays on its own, every snapshot matched (replay exit 0)',
             rp.returncode == 0 and s and s[0] == len(got) and s[1] == s[0] and s[0] > 0, (rp.returncode, rp.stderr[-600:]))
    ck.check(f'{label}: its snapshots are the original\'s of those {how[2:]} ({len(want)})', got == want and want,
             (got, want))
    ck.check(f'{label}: its replay raises no GL error', no_gl_errors(out), out)
    marks = [r.get('metadata', {}).get('options', {}).get('trim', '') for r in recs if r.get('fn') == 'gltraceMetadata']
    if first:
        ck.check(f'{label}: the dump marks the setup and where the kept calls start',
                 any(x.startswith('setup') for x in marks) and any(x.startswith('start') for x in marks), marks)
        heads = [x for x in run([gltrace, 'dump', out]).stdout.splitlines() if x.startswith('---- ')]
        ck.check(f'{label}: the text dump shows the setup as a block, then the kept calls',
                 heads == ['---- setup: the state the kept calls start from ----',
                           '---- start: the kept calls follow ----'], heads)
    return out


def sample_apps():
    for app in APPS:
        trace = record(app, [os.path.join(apps, app)])
        if not trace:
            continue
        _, obj = gt.info(gltrace, trace)
        frames = obj.get('frames', 0) if obj else 0
        if frames >= 2:
            for k in range(1, min(frames, 3)):
                check_trim(app, trace, '--frames', k, min(k + 2, frames - 1))
        else:
            d = gt.dump(gltrace, trace)
            last = max(r.get('seq', 0) for r in d.objects())
            check_trim(app, trace, '--calls', last * 2 // 3, last)


def gles1_matrices():
    """gles1_scene builds its modelview matrix each frame with
    glLoadIdentity, glTranslatef and glRotatef. A trim by calls starting
    right after frame 1's glRotatef writes the matrix at the start as one
    glLoadMatrixf (the calls of the state at the start, step 11), and
    leaves the three out; it replays exactly. With --keep-state-commands
    they stay, and nothing is written."""
    trace = os.path.join(work, 'gles1_scene.gltrace')
    if not os.path.exists(trace):
        return
    rotates = [r.get('seq') for r in gt.dump(gltrace, trace).objects() if r.get('fn') == 'glRotatef']
    if not ck.check('gles1_scene: three frames, each rotating its modelview matrix', len(rotates) == 3, rotates):
        return
    first = rotates[1] + 1
    out = check_trim('gles1_scene', trace, '--calls', first, rotates[2] - 1)
    if not out:
        return
    setup = setup_fns(out)
    tail = setup[len(setup) - setup[::-1].index('glClear'):] if 'glClear' in setup else []
    ck.check('gles1_scene --calls: the matrix at the start is one glLoadMatrixf after the last clear, without the '
             'glLoadIdentity, glTranslatef and glRotatef that built it', 'glLoadMatrixf' in tail and
             not any(f in tail for f in ('glLoadIdentity', 'glTranslatef', 'glRotatef')), tail)
    kept = os.path.join(work, 'gles1_scene-keep-state.gltrace')
    r = run([gltrace, 'trim', trace, '--calls', f'{first}-{rotates[2] - 1}', '--keep-state-commands', '-o', kept])
    setup = setup_fns(kept) if r.returncode == 0 else []
    tail = setup[len(setup) - setup[::-1].index('glClear'):] if 'glClear' in setup else []
    ck.check('gles1_scene --calls --keep-state-commands: the three stay, no matrix is written',
             r.returncode == 0 and 'glLoadMatrixf' not in setup and
             all(f in tail for f in ('glLoadIdentity', 'glTranslatef', 'glRotatef')), (r.stdout, tail))


def setup_records(out):
    """A trim's setup as dump --json records: those before the start marker."""
    setup = []
    for rec in gt.dump(gltrace, out).objects():
        if rec.get('fn') == 'gltraceMetadata' and \
                rec.get('metadata', {}).get('options', {}).get('trim', '').startswith('start'):
            break
        setup.append(rec)
    return setup


IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


def lights():
    """lights_app sets, every frame, a view matrix, two lights' positions
    and a spot direction through it, the material and the texture
    environment, and draws inside glPushMatrix/glPopMatrix. Its trims
    replay exactly; the state at the start is written as calls: every
    light's parameters after a load of the identity (GL keeps positions in
    eye coordinates, as they are read back), then the modelview matrix;
    none of the frames' own glLightfv, glMaterialf and glTexEnvi stay.
    With --keep-state-commands they do."""
    trace = record('lights_app', [lights_app])
    if not trace:
        return
    for k in (1, 3, 5):
        out = check_trim('lights_app', trace, '--frames', k, k + 2)
    if not out:
        return
    setup = setup_records(out)
    fns = [r.get('fn') for r in setup]
    loads = [i for i, r in enumerate(setup) if r.get('fn') == 'glLoadMatrixf']
    eye = next((i for i in loads if setup[i].get('args', {}).get('m', {}).get('data') == IDENTITY), None)
    lit = [i for i, f in enumerate(fns) if f in ('glLightfv', 'glLightf')]
    positions = {setup[i]['args'].get('light') for i in lit if setup[i].get('args', {}).get('pname') == 'GL_POSITION'}
    ck.check('lights_app frames 5-7: the lights are written after a load of the identity, then the modelview '
             'matrix is loaded', eye is not None and lit and min(lit) > eye and positions == {'GL_LIGHT0', 'GL_LIGHT1'}
             and any(i > max(lit) for i in loads), (fns[-30:], eye, lit, positions))
    ck.check('lights_app frames 5-7: none of the frames\' own glLightf, glMaterialf or glTexEnvi stays in the setup '
             '(written as glLightfv, glMaterialfv, glTexEnviv)',
             not any(f in ('glLightf', 'glMaterialf', 'glTexEnvi') for f in fns) and 'glTexEnviv' in fns and
             'glMaterialfv' in fns, fns)
    kept = os.path.join(work, 'lights_app-keep-state.gltrace')
    r = run([gltrace, 'trim', trace, '--frames', '5-7', '--keep-state-commands', '-o', kept])
    kfns = [x.get('fn') for x in setup_records(kept)] if r.returncode == 0 else []
    ck.check('lights_app frames 5-7 --keep-state-commands: the frames\' own calls stay, and the setup is longer',
             r.returncode == 0 and kfns.count('glLightfv') >= 15 and 'glTexEnvi' in kfns and len(kfns) > len(fns),
             (r.stdout, len(kfns), len(fns)))


def hard_starts():
    traces = {m: record(f'trim_app_{m}', [trim_app, m]) for m in ('map', 'accumulate', 'feedback')}
    if traces['map']:
        for k in (1, 3, 6):
            out = check_trim('map', traces['map'], '--frames', k, k + 2)
            if out:
                d = gt.dump(gltrace, out)
                fns = [r.get('fn') for r in d.objects()]
                start = next((i for i, r in enumerate(d.objects()) if r.get('fn') == 'gltraceMetadata' and
                              r.get('metadata', {}).get('options', {}).get('trim', '').startswith('start')), -1)
                ck.check(f'map {k}: the buffer is mapped in the setup and written and unmapped after the start',
                         [f for f in fns[:start] if f in ('glMapBufferRange', 'glUnmapBuffer')][-1:] ==
                         ['glMapBufferRange'] and
                         fns[start + 1:].index('gltraceMappedData') < fns[start + 1:].index('glUnmapBuffer'),
                         fns[start - 3:start + 8])
    # accumulate draws into its window, a pbuffer, over what the frames
    # before drew: a pbuffer's swap keeps its pixels, so the trim writes
    # them at the start on its first try (before, only the check's second
    # try did). feedback's texture, drawn into blended every frame and
    # never cleared: by default its draws go and its pixels at the start
    # are written (step 9); kept (--keep-texture-draws), the frames that
    # repeat with other floats go first, and the check puts them back.
    for mode, note, extra in (('accumulate', None, ()),
                              ('feedback', 'setup frames a later one repeats', ('--keep-texture-draws',))):
        if not traces[mode]:
            continue
        out = check_trim(mode, traces[mode], '--frames', 4, 6, *extra, expect_note=note)
        if out and mode == 'accumulate':
            # The window's pixels at the start stand for the draws of frames
            # 0-3, which stay out: one gltraceSurfaceContents, no draw; after
            # the calls of the state at the start (its viewport), as every
            # write-back comes after them.
            setup = setup_fns(out)
            ck.check('accumulate 4-6: the setup holds the window\'s pixels at the start, last, and none of the draws '
                     'before, after the viewport written as a call of the state at the start',
                     setup[-1:] == ['gltraceSurfaceContents'] and 'glViewport' in setup and
                     not any(f.startswith('glDraw') for f in setup), setup[-6:])
        # The same without the check: feedback's trim then leaves out what
        # the frames read, and its replay differs (the check is what saves
        # it); accumulate's is exact (the pbuffer's pixels written).
        out = os.path.join(work, f'{mode}-unchecked.gltrace')
        r = run([gltrace, 'trim', traces[mode], '--frames', '4-6', '--no-verify', *extra, '-o', out])
        rp = run([gltrace, 'replay', out])
        want = 0 if mode == 'accumulate' else 1
        ck.check(f'{mode}: unchecked, the trim replays exactly (exit 0)' if want == 0 else
                 f'{mode}: unchecked, the trim leaving out what the frames read does not replay exactly (exit 1)',
                 r.returncode == 0 and rp.returncode == want, (r.returncode, rp.returncode, rp.stderr[-300:]))
    if traces['map']:
        trace = traces['map']
        out = os.path.join(work, 'map-frames-1-3.gltrace')
        rp = run([gltrace, 'replay', out, '--benchmark', '--loop', '3'])
        ck.check('a trim replays with --benchmark --loop 3 (exit 0)', rp.returncode == 0, rp.stderr[-300:])
        for args, why in ((['--frames', '20-22'], 'has no frame 20'),                           (['--frames', '5-4'], 'runs backwards'), (['--frames', 'x'], '--frames')):
            r = run([gltrace, 'trim', trace, *args, '-o', os.path.join(work, 'bad.gltrace')])
            ck.check(f'trim {" ".join(args)}: exit 2 saying {why!r}', r.returncode == 2 and why in r.stderr,
                     (r.returncode, r.stderr))
        r = run([gltrace, 'trim', trace, '--frames', '7-'])
        ck.check('--frames 7- keeps frames 7 to the end (two of nine), written beside the trace by default',
                 r.returncode == 0 and os.path.exists(os.path.join(work, 'trim_app_map-frames-7-end.gltrace')) and
                 '(2 frames)' in r.stdout, (r.returncode, r.stdout, r.stderr))
        # gltrace record --start-frame N --frames K: the run recorded in full, then trimmed.
        out = os.path.join(work, 'start-frame.gltrace')
        r = run([gltrace, 'record', '--start-frame', '3', '--frames', '2', '-o', out, '--', trim_app, 'map'])
        want, _ = snapshots(trace, frames=(3, 4))
        got, _ = snapshots(out) if os.path.exists(out) else ([], [])
        rp = run([gltrace, 'replay', out])
        ck.check('record --start-frame 3 --frames 2: a trace of frames 3-4 (the original\'s snapshots), replaying exactly',
                 r.returncode == 0 and 'kept 2 frames from frame 3' in r.stderr and got == want and want and
                 rp.returncode == 0, (r.returncode, r.stderr[-400:], got, want, rp.stderr[-300:]))
        # ... and tracing stopped after frame 5 (GLTRACE_STOP_FRAME: one frame
        # past the kept ones), the app running on: the run's trace is frames
        # 0-5 only, not its nine.
        stopped = os.path.join(work, 'stop-frame-env.gltrace')
        if os.path.exists(stopped):
            os.remove(stopped)
        r = subprocess.run([trim_app, 'map'], env=dict(ENV, GLTRACE='full', GLTRACE_OUT=stopped, GLTRACE_START_FRAME='3',
                                                        GLTRACE_STOP_FRAME='5', LD_PRELOAD=os.path.join(
                                                            os.path.dirname(gltrace), 'libgltrace.so')),
                           capture_output=True, text=True)
        _, info = gt.info(gltrace, stopped)
        ck.check('GLTRACE_STOP_FRAME=5 (what --start-frame 3 --frames 2 sets): the app runs its nine frames and exits 0, '
                 'saying tracing stopped; the trace holds frames 0-5 only, complete',
                 r.returncode == 0 and 'tracing stops (GLTRACE_STOP_FRAME)' in r.stderr and info and
                 info.get('frames') == 6 and info.get('complete') is True, (r.stderr[-300:], info))
        r = run([gltrace, 'trim', stopped, '--frames', '3-4', '-o', os.path.join(work, 'stop-frame-3-4.gltrace')])
        ck.check('GLTRACE_STOP_FRAME=5: its trim of frames 3-4 replays exactly on the first try',
                 r.returncode == 0 and 'checked: its replay matches 2 of 2' in r.stdout and 'note:' not in r.stdout,
                 (r.stdout[-400:], r.stderr[-300:]))
        r = run([gltrace, 'record', '--start-frame', '30', '-o', out, '--', trim_app, 'map'])
        ck.check('record --start-frame past the run\'s end: the whole trace kept, saying why and that its frames '
                 'took no snapshot, exit 3 (the app exited 0)', r.returncode == 3 and 'left whole' in r.stderr and
                 'has no frame 30 (it has 9)' in r.stderr and 'frames before 30 took no snapshot' in r.stderr, r.stderr)
        _, info = gt.info(gltrace, out)
        ck.check('record --start-frame 30: the whole trace has all nine frames\' calls, and no snapshot',
                 info and info.get('frames') == 9 and info.get('snapshots') == 0, info)
        # GLTRACE_START_FRAME (what --start-frame sets) alone: every call, the
        # snapshots of the frames from one before the start on.
        whole = os.path.join(work, 'start-frame-env.gltrace')
        if os.path.exists(whole):
            os.remove(whole)
        env = dict(ENV, GLTRACE='full', GLTRACE_OUT=whole, GLTRACE_START_FRAME='5',
                   LD_PRELOAD=os.path.join(os.path.dirname(gltrace), 'libgltrace.so'))
        r = subprocess.run([trim_app, 'map'], env=env, capture_output=True, text=True)
        _, info = gt.info(gltrace, whole)
        got, _ = snapshots(whole) if os.path.exists(whole) else ([], [])
        ck.check('GLTRACE_START_FRAME=5: nine frames recorded, snapshots only at the swaps of frames 4 to 8, the '
                 'same as a full recording\'s', r.returncode == 0 and info and info.get('frames') == 9 and
                 info.get('snapshots') == 5 and got == snapshots(trace, frames=(4, 8))[0], (r.stderr, info, got))
        r = run([gltrace, 'trim', whole, '--frames', '5-6', '-o', os.path.join(work, 'start-frame-env-5-6.gltrace')])
        ck.check('GLTRACE_START_FRAME=5: its trim of frames 5-6 replays exactly', r.returncode == 0 and
                 'checked: its replay matches 2 of 2' in r.stdout, (r.stdout, r.stderr))
        # With --fb=draw (a snapshot after each of the two draws a frame too):
        # none in frames 0-3.
        os.remove(whole)
        r = subprocess.run([trim_app, 'map'], env=dict(env, GLTRACE_FB='draw'), capture_output=True, text=True)
        _, info = gt.info(gltrace, whole)
        ck.check('GLTRACE_START_FRAME=5 GLTRACE_FB=draw: nine frames, the snapshots of frames 4 to 8 only (its draw\'s '
                 'and its swap\'s each)', r.returncode == 0 and info and info.get('frames') == 9 and
                 info.get('snapshots') == 10, (r.stderr, info))
        check_held_back(env)
        check_held_modes(env)
        for seed in ('1', '2', '3'):
            check_held_random(env, seed)
        for es in ('2', '3'):
            check_held_textures(env, es)
        check_held_images(env)
        for version in ('3.2', '3.1'):
            check_held_layers(env, version)
        check_held_layers(env, '3.2', float_depth=True)
        check_held_unswapped(env)
        check_held_floats(env)
        check_held_integers(env)
        check_held_stencil(env)
        check_held_blits(env)
        r = run([gltrace, 'record', '--frames', '2', '-o', out, '--', trim_app, 'map'])
        ck.check('record --frames without --start-frame: exit 2', r.returncode == 2 and '--start-frame' in r.stderr,
                 r.stderr)
        missing = os.path.join(work, 'no-such.gltrace')
        r = run([gltrace, 'trim', missing, '--frames', '1-2', '-o', os.path.join(work, 'bad.gltrace')])
        ck.check('a missing trace: exit 2 naming it', r.returncode == 2 and missing in r.stderr, r.stderr)


def check_held_back(env):
    """GLTRACE_START_FRAME=5 with trim_app churn (fifty settings of the same
    pieces between draws, a reset after the last draw, glGetError): before
    the start, a state command waits until something reads it and a later
    one of its key replaces it (capture/cap_defer.c), and queries are not
    written. GLTRACE_COALESCE=0 writes every call: the same snapshots."""
    traces = {}
    for coalesce in ('1', '0'):
        path = os.path.join(work, f'churn-{coalesce}.gltrace')
        if os.path.exists(path):
            os.remove(path)
        r = subprocess.run([trim_app, 'churn'], env=dict(env, GLTRACE_OUT=path, GLTRACE_COALESCE=coalesce),
                           capture_output=True, text=True, timeout=120)
        _, info = gt.info(gltrace, path)
        traces[coalesce] = (r, info or {}, path)
    (r1, held, held_path), (r0, whole, whole_path) = traces['1'], traces['0']
    # Frames 0-3 make 50 x 7 calls each of which a draw reads one setting of
    # five pieces: at least 4 x 300 fewer.
    ck.check('GLTRACE_START_FRAME=5, churn: the frames before the start hold back what no draw read (at least 1200 '
             'calls fewer than GLTRACE_COALESCE=0 writes), all nine frames and their five snapshots there',
             r1.returncode == 0 and r0.returncode == 0 and held.get('frames') == whole.get('frames') == 9 and
             held.get('snapshots') == whole.get('snapshots') == 5 and
             held.get('calls', 1 << 30) + 1200 <= whole.get('calls', 0),
             (r1.stderr[-300:], held.get('calls'), whole.get('calls')))
    got, recs = snapshots(held_path)
    want, whole_recs = snapshots(whole_path)
    asked = [sum(rec.get('fn') == 'glGetError' for rec in rs) for rs in (recs, whole_recs)]
    ck.check('churn held back: the same snapshots as every call written; the 50 glGetError a frame written from '
             'frame 4 on only (and the app\'s last)', got == want and len(want) == 5 and asked == [251, 451],
             (got, want, asked))
    rp = run([gltrace, 'replay', held_path])
    ck.check('churn held back: its replay matches its five snapshots', rp.returncode == 0 and
             '5 matched, 0 differ' in rp.stderr, rp.stderr[-300:])
    out = os.path.join(work, 'churn-5-6.gltrace')
    r = run([gltrace, 'trim', held_path, '--frames', '5-6', '-o', out])
    ck.check('churn held back: its trim of frames 5-6 replays exactly on the first try, the state at the start the '
             'original\'s', r.returncode == 0 and 'checked: its replay matches 2 of 2' in r.stdout and
             'is the original\'s' in r.stdout and 'note:' not in r.stderr, (r.stdout[-400:], r.stderr[-300:]))


def check_held_modes(env):
    """Every trim_app mode recorded with GLTRACE_START_FRAME=5: the frames
    before held back, their draws into the window left out and the
    window's pixels written where writing comes on (capture/cap_defer.c);
    the whole trace replays exactly (frames 4-8 snapshotted). The stream
    mode once replayed a held attribute pointer before the binding it read
    (a key of a conditional part counted as two parts)."""
    bad = []
    for mode in ('map', 'accumulate', 'feedback', 'basevertex', 'stream', 'reupload', 'settings', 'passes', 'ahead',
                 'download', 'queries', 'perframe', 'churn'):
        path = os.path.join(work, f'held-{mode}.gltrace')
        if os.path.exists(path):
            os.remove(path)
        r = subprocess.run([trim_app, mode], env=dict(env, GLTRACE_OUT=path), capture_output=True, text=True,
                           timeout=120)
        rp = run([gltrace, 'replay', path])
        if r.returncode != 0 or rp.returncode != 0 or '5 snapshots: 5 matched, 0 differ' not in rp.stderr:
            bad.append((mode, r.returncode, rp.stderr[-200:]))
    ck.check('every trim_app mode with GLTRACE_START_FRAME=5 (frames 0-3 held back, their window draws left out) '
             'replays exactly', not bad, bad)


def held_and_whole(env, name, argv, start, **more):
    """argv recorded with GLTRACE_START_FRAME=start (and the environment
    `more`), held back (GLTRACE_COALESCE=1) and written whole (0): {'1':
    (exit code, trace), '0': (...)}."""
    out = {}
    for coalesce in ('1', '0'):
        path = os.path.join(work, f'{name}-{coalesce}.gltrace')
        if os.path.exists(path):
            os.remove(path)
        r = subprocess.run(argv, env=dict(env, GLTRACE_OUT=path, GLTRACE_COALESCE=coalesce,
                                          GLTRACE_START_FRAME=str(start), **more),
                           capture_output=True, text=True, timeout=120)
        out[coalesce] = (r.returncode, path)
    return out


def check_held_random(env, seed):
    """held_app SEED: 300 random calls a frame (selectors, reads of other
    keys, queries, draws into a texture that accumulates), the frames
    before 10 held back (GLTRACE_START_FRAME=10) and written whole: the
    held-back trace's replay matches the snapshots of frames 9-11, so every
    draw before the start saw what it saw when the app ran."""
    infos = {c: (rc, gt.info(gltrace, path)[1] or {}, path)
             for c, (rc, path) in held_and_whole(env, f'held-{seed}', [held_app, seed], 10).items()}
    (rc1, held, held_path), (rc0, whole, _) = infos['1'], infos['0']
    rp = run([gltrace, 'replay', held_path])
    ck.check(f'held_app {seed}, frames before 10 held back: at least 1000 calls fewer than written whole, and its '
             'replay matches the snapshots of frames 9-11', rc1 == 0 and rc0 == 0 and
             held.get('calls', 1 << 30) + 1000 <= whole.get('calls', 0) and rp.returncode == 0 and
             '3 snapshots: 3 matched, 0 differ' in rp.stderr,
             (rc1, rc0, held.get('calls'), whole.get('calls'), rp.stderr[-300:]))
    out = os.path.join(work, f'held-{seed}-10-11.gltrace')
    r = run([gltrace, 'trim', held_path, '--frames', '10-11', '-o', out])
    ck.check(f'held_app {seed}: its trim of frames 10-11 replays exactly on the first try', r.returncode == 0 and
             'checked: its replay matches 2 of 2' in r.stdout and 'note:' not in r.stderr,
             (r.stdout[-300:], r.stderr[-300:]))


def per_frame(recs, pick):
    """How many records pick() accepts in each frame (split at swaps)."""
    counts, frame = {}, 0
    for r in recs:
        if FRAME_FNS.match(r.get('fn', '')):
            frame += 1
        elif pick(r):
            counts[frame] = counts.get(frame, 0) + 1
    return counts


def held_mode_replays(env, mode):
    """trim_app MODE with GLTRACE_START_FRAME=5, held back and written
    whole: checks that both have the same 5 snapshots and that the held
    one's replay matches them; (held records, held path, whole records,
    whole path)."""
    infos = {c: (rc, *snapshots(path), path)
             for c, (rc, path) in held_and_whole(env, mode, [trim_app, mode], 5).items()}
    (rc1, got, held, held_path), (rc0, want, whole, whole_path) = infos['1'], infos['0']
    ck.check(f'trim_app {mode}, GLTRACE_START_FRAME=5: held back and written whole, the same 5 snapshots',
             rc1 == 0 and rc0 == 0 and got == want and len(want) == 5, (rc1, rc0, len(got), len(want)))
    rp = run([gltrace, 'replay', held_path])
    ck.check(f'trim_app {mode} held back: its replay matches the 5 snapshots',
             rp.returncode == 0 and '5 snapshots: 5 matched, 0 differ' in rp.stderr, rp.stderr[-300:])
    return held, held_path, whole, whole_path


def check_held_floats(env):
    """trim_app float with GLTRACE_START_FRAME=5: its passes into float
    targets (RGBA16F and R11F_G11F_B10F made by glTexStorage2D, RGBA32F by
    glTexImage2D with GL_FLOAT, an RGBA16F renderbuffer) and a 16-bit
    normalized one (RG16) before the start are not written, nor the upload
    of its 16-bit source (RGBA16, GL_UNSIGNED_SHORT: a 10-bit video's
    plane) they read each frame; the levels are read back and written,
    where writing comes on, as halves, floats, R11F_G11F_B10F's packed
    bits and 16-bit values (capture/cap_texhold.c), the renderbuffer
    through a texture of its format and glCopyImageSubData. Held back and
    written whole, the same snapshots; the held-back trace replays them. A
    trim of the whole trace writes the levels the same way in place of the
    passes before its start (replay/rp_trim_draws.c) and replays exactly."""
    held, held_path, whole, whole_path = held_mode_replays(env, 'float')

    def uploads(r):
        a = r.get('args', {})
        return r.get('fn') == 'glTexSubImage2D' and a.get('type') == 'GL_UNSIGNED_SHORT' and a.get('format') == 'GL_RGBA'

    def draws(r):
        return r.get('fn') == 'glDrawArrays'
    counts = [(per_frame(recs, uploads), per_frame(recs, draws)) for recs in (held, whole)]
    ck.check('trim_app float: in frames 1-3 held back, no upload of its source and no draw written (written whole: '
             'one upload and six draws a frame)',
             all(counts[0][0].get(f, 0) == 0 and counts[0][1].get(f, 0) == 0 and counts[1][0].get(f) == 1 and
                 counts[1][1].get(f) == 6 for f in (1, 2, 3)), counts)

    def typed(recs, fn, fmt, typ):
        return [r for r in recs if r.get('fn') == fn and r.get('args', {}).get('format') == fmt and
                r.get('args', {}).get('type') == typ]
    start = per_frame(held, lambda r: r.get('fn') in ('glTexSubImage2D', 'glTexImage2D', 'glCopyImageSubData'))
    ck.check('trim_app float held back: the float levels written as read back where frame 4 begins (writing comes on '
             'there, for the snapshot of the frame before the start): the RGBA16F one '
             'and the renderbuffer\'s (through a texture, then glCopyImageSubData) as GL_HALF_FLOAT, the RGBA32F one '
             'as GL_FLOAT (glTexImage2D, as the app made it), the R11F_G11F_B10F one as '
             'GL_UNSIGNED_INT_10F_11F_11F_REV, the RGBA16 and RG16 ones as GL_UNSIGNED_SHORT (eight records with '
             'the frame\'s own upload)',
             start.get(4) == 8 and typed(held, 'glTexImage2D', 'GL_RGBA', 'GL_UNSIGNED_SHORT') and
             typed(held, 'glTexSubImage2D', 'GL_RG', 'GL_UNSIGNED_SHORT') and len(typed(held, 'glTexSubImage2D', 'GL_RGBA', 'GL_HALF_FLOAT')) >= 2 and
             len(typed(held, 'glTexImage2D', 'GL_RGBA', 'GL_FLOAT')) >= 2 and
             typed(held, 'glTexSubImage2D', 'GL_RGB', 'GL_UNSIGNED_INT_10F_11F_11F_REV') and
             any(r.get('fn') == 'glCopyImageSubData' for r in held), start)
    for path, label in ((held_path, 'held back'), (whole_path, 'written whole')):
        out = os.path.join(work, f'floats-{label[:4]}-6-7.gltrace')
        r = run([gltrace, 'trim', path, '--frames', '6-7', '-o', out])
        restored = gt.dump(gltrace, out).objects() if r.returncode == 0 else []
        setup = setup_records(out) if r.returncode == 0 else []
        # Held back, capture's own write-backs of the renderbuffer (a copy
        # from a texture made for it) stay before the trim's: a copy
        # between objects is not left out as a draw is.
        copies = [x for x in setup if x.get('fn') == 'glCopyImageSubData' and
                  x.get('args', {}).get('dstTarget') == 'GL_RENDERBUFFER']
        ck.check(f'trim_app float {label}: its trim of frames 6-7 replays exactly on the first try, raising no GL '
                 'error, the passes before the start left out (no draw in its setup) and the levels written in their '
                 'place as halves, floats, packed bits and 16-bit values, the RGBA16F renderbuffer through a texture '
                 'of its format and glCopyImageSubData (before, its draws stayed)',
                 r.returncode == 0 and 'checked: its replay matches 2 of 2' in r.stdout and 'note:' not in r.stderr and
                 no_gl_errors(out) and
                 all(typed(setup, 'glTexSubImage2D', f, t) for f, t in (('GL_RGBA', 'GL_HALF_FLOAT'),
                                                                        ('GL_RGBA', 'GL_FLOAT'),
                                                                        ('GL_RGB', 'GL_UNSIGNED_INT_10F_11F_11F_REV'),
                                                                        ('GL_RG', 'GL_UNSIGNED_SHORT'))) and
                 not any(x.get('fn') == 'glDrawArrays' for x in setup) and
                 (len(copies) >= 1 if label == 'held back' else len(copies) == 1),
                 (r.stdout[-400:], r.stderr[-300:], len(restored), len(copies)))


def check_held_blits(env):
    """trim_app ahead with GLTRACE_START_FRAME=5: each frame draws into the
    framebuffer object's texture and blits it into the window. Before the
    start the blit is held back as a draw into the window is (its pixels
    written where writing comes on), so nothing is written before it.
    Before, the blit was written, and the texture read back and written
    before it, every frame: a render-to-texture-then-blit app wrote a
    picture a frame before the start."""
    held, _, whole, _ = held_mode_replays(env, 'ahead')
    blits = [per_frame(recs, lambda r: r.get('fn') == 'glBlitFramebuffer') for recs in (held, whole)]
    levels = per_frame(held, lambda r: r.get('fn') == 'glTexImage2D')
    ck.check('trim_app ahead: in frames 1-3 held back, no blit and no texture written (written whole: a blit a '
             'frame); the texture and the window\'s pixels written where frame 4 begins',
             all(blits[0].get(f, 0) == 0 and not levels.get(f) and blits[1].get(f) == 1 for f in (1, 2, 3)) and
             levels.get(4) == 1 and
             per_frame(held, lambda r: r.get('fn') == 'gltraceSurfaceContents').get(4) == 1, (blits, levels))


def check_held_integers(env):
    """trim_app integer with GLTRACE_START_FRAME=5: its passes into integer
    targets (RGBA8UI, RG16UI and RGB10_A2UI made by glTexStorage2D, R32I by
    glTexImage2D with GL_RED_INTEGER GL_INT) before the start are not
    written; the levels are read back as 32-bit integers and written, where
    writing comes on, each in its own format and type (capture/cap_texhold.c).
    Held back and written whole, the same snapshots; the held-back trace
    replays them. A trim of either writes the levels the same way in place
    of the passes before its start (replay/rp_trim_draws.c) and replays
    exactly on the first try with no GL error. Before, integer levels were
    not read back: every pass was written, and stayed in trims."""
    held, held_path, whole, whole_path = held_mode_replays(env, 'integer')

    def draws(r):
        return r.get('fn') == 'glDrawArrays'
    counts = [per_frame(recs, draws) for recs in (held, whole)]
    ck.check('trim_app integer: in frames 1-3 held back, no draw written (written whole: five a frame)',
             all(counts[0].get(f, 0) == 0 and counts[1].get(f) == 5 for f in (1, 2, 3)), counts)
    kinds = (('GL_RGBA_INTEGER', 'GL_UNSIGNED_BYTE'), ('GL_RED_INTEGER', 'GL_INT'), ('GL_RG_INTEGER', 'GL_UNSIGNED_SHORT'),
             ('GL_RGBA_INTEGER', 'GL_UNSIGNED_INT_2_10_10_10_REV'))

    def written(recs, fmt, typ):
        return [r for r in recs if r.get('fn') in ('glTexSubImage2D', 'glTexImage2D') and
                r.get('args', {}).get('format') == fmt and r.get('args', {}).get('type') == typ and
                isinstance(r.get('args', {}).get('pixels'), dict) and r['args']['pixels'].get('data')]
    start = per_frame(held, lambda r: r.get('fn') in ('glTexSubImage2D', 'glTexImage2D'))
    ck.check('trim_app integer held back: the four levels written as read back where frame 4 begins, each in its '
             'format and type (RGBA8UI as GL_RGBA_INTEGER GL_UNSIGNED_BYTE, R32I as GL_RED_INTEGER GL_INT with '
             'glTexImage2D as the app made it, RG16UI as GL_RG_INTEGER GL_UNSIGNED_SHORT, RGB10_A2UI packed)',
             start.get(4) == 4 and all(written(held, f, t) for f, t in kinds), start)
    for path, label in ((held_path, 'held back'), (whole_path, 'written whole')):
        out = os.path.join(work, f'integers-{label[:4]}-6-7.gltrace')
        r = run([gltrace, 'trim', path, '--frames', '6-7', '-o', out])
        setup = setup_records(out) if r.returncode == 0 else []
        ck.check(f'trim_app integer {label}: its trim of frames 6-7 replays exactly on the first try, raising no GL '
                 'error, the passes before the start left out and the four levels written in their place',
                 r.returncode == 0 and 'checked: its replay matches 2 of 2' in r.stdout and 'note:' not in r.stderr and
                 'the pixels of 4 texture levels' in r.stdout and no_gl_errors(out) and
                 all(written(setup, f, t) for f, t in kinds) and not any(draws(x) for x in setup),
                 (r.stdout[-400:], r.stderr[-300:]))


def check_held_stencil(env):
    """trim_app stencil with GLTRACE_START_FRAME=5: its stencil renderbuffer
    alone (GL_STENCIL_INDEX8) counts a moving quad each frame, never
    cleared, and a cover pass reads the counts. Before the start its
    passes are not written (NV_read_stencil reads the renderbuffer back);
    where writing comes on, the counts are written as ordinary calls: a
    GL_STENCIL_INDEX8 texture filled with glTexSubImage2D(GL_STENCIL_INDEX)
    and copied into the renderbuffer (glCopyImageSubData, GLES 3.2).
    Held back and written whole, the same snapshots; the held-back trace
    replays them and trims exactly on the first try (trim reads the
    counts back at the start: a stencil that holds values other than 0 is
    not guessed ended by a clear of all of the colour beside it; before,
    only the second try, keeping the draws into textures, was exact)."""
    held, held_path, whole, _ = held_mode_replays(env, 'stencil')
    draws = [per_frame(recs, lambda r: r.get('fn') == 'glDrawArrays') for recs in (held, whole)]
    ck.check('trim_app stencil: in frames 1-3 held back, no draw written (written whole: the count, the cover and '
             'the window\'s, three a frame)',
             all(draws[0].get(f, 0) == 0 and draws[1].get(f) == 3 for f in (1, 2, 3)), draws)
    wrote = per_frame(held, lambda r: (r.get('fn') == 'glTexSubImage2D' and
                                       r.get('args', {}).get('format') == 'GL_STENCIL_INDEX') or
                      r.get('fn') == 'glCopyImageSubData')
    ck.check('trim_app stencil held back: the counts written where frame 4 begins, a stencil texture\'s '
             'glTexSubImage2D(GL_STENCIL_INDEX) copied into the renderbuffer', wrote.get(4) == 2, wrote)
    out = os.path.join(work, 'stencil-held-6-7.gltrace')
    r = run([gltrace, 'trim', held_path, '--frames', '6-7', '-o', out])
    ck.check('trim_app stencil held back: its trim of frames 6-7 replays exactly on the first try, raising no GL '
             'error', r.returncode == 0 and 'checked: its replay matches 2 of 2' in r.stdout and
             'note: without' not in r.stdout and no_gl_errors(out), (r.stdout[-400:], r.stderr[-300:]))


def check_held_textures(env, es):
    """video_app ES with GLTRACE_START_FRAME=6: its uploads into 2D and cube
    textures, its draws into framebuffer objects' textures and its buffer
    writes before the start are not written; the levels and buffers they
    changed are read back and written, one glTexImage2D or glBufferData
    each, where the start's frame begins and before frame 3's copy into
    the luminance texture (capture/cap_texhold.c, cap_bufhold.c); its
    glReadPixels before the start is not written. Luminance
    uploads, which no framebuffer reads back, are written; so are a plane's
    after its mipmaps were made (frame 4). Written whole, the same
    snapshots; held back, a replay that matches them and a trim of frames
    7-8 exact on the first try."""
    # llvmpipe makes a GLES 3.2 context for version 2 too: a GLES 2 one
    # (no read mapping: buffers written whole; pixel reads written) is asked
    # of Mesa.
    more = {'MESA_GLES_VERSION_OVERRIDE': '2.0'} if es == '2' else {}
    infos = {c: (rc, *snapshots(path), path)
             for c, (rc, path) in held_and_whole(env, f'video-{es}', [video_app, es], 6, **more).items()}
    (rc1, got, held, held_path), (rc0, want, whole, _) = infos['1'], infos['0']
    ck.check(f'video_app {es}, GLTRACE_START_FRAME=6: held back and written whole, the same 7 snapshots',
             rc1 == 0 and rc0 == 0 and got == want and len(want) == 7, (rc1, rc0, len(got), len(want)))
    rp = run([gltrace, 'replay', '--check', held_path])
    reads = '2 pixel reads of the app: 2 matched' if es == '3' else '3 pixel reads of the app: 3 matched'
    ck.check(f'video_app {es} held back: its replay matches the 7 snapshots and the app\'s pixel reads (on GLES 3 the '
             'one before the start is not written), and its last glGetError gives no error (every call written, '
             'and what capture wrote, replayed without one)',
             rp.returncode == 0 and '7 snapshots: 7 matched, 0 differ' in rp.stderr and reads in rp.stderr and
             'queries issued, 0 gave another result' in rp.stderr, rp.stderr[-400:])

    def uploads(r):
        return r.get('fn') == 'glTexSubImage2D' and r.get('args', {}).get('format') != 'GL_LUMINANCE'

    def draws(r):
        return r.get('fn') == 'glDrawArrays'

    def luminance(r):
        return r.get('fn') == 'glTexSubImage2D' and r.get('args', {}).get('format') == 'GL_LUMINANCE'
    counts = [(per_frame(recs, uploads), per_frame(recs, draws), per_frame(recs, luminance)) for recs in (held, whole)]
    ck.check(f'video_app {es}: in frames 1-2 held back, no upload into a plane and no draw written (written whole: '
             'two uploads and seven draws a frame); the luminance upload written each frame',
             all(counts[0][0].get(f, 0) == 0 and counts[0][1].get(f, 0) == 0 and counts[0][2].get(f) == 1 and
                 counts[1][0].get(f) == 2 and counts[1][1].get(f) == 7 for f in (1, 2)), counts)

    def read_back(r):
        a = r.get('args', {})
        return (r.get('fn') == 'glTexImage2D' and a.get('pixels') != '0x0') or (
            r.get('fn') == 'glTexSubImage2D' and (a.get('width'), a.get('height')) == (64, 64))
    def buffer_writes(r):
        return r.get('fn') in ('glBufferSubData', 'gltraceMappedData') and r.get('args', {}).get('target') != \
            'GL_COPY_WRITE_BUFFER'
    written = [per_frame(recs, buffer_writes) for recs in (held, whole)]
    restored = per_frame(held, lambda r: r.get('fn') == 'glBufferData' and
                         r.get('args', {}).get('target') == 'GL_COPY_WRITE_BUFFER')
    if es == '3':
        ck.check('video_app 3: in frames 1-2 held back, no buffer write written (written whole: the vertex buffer\'s '
                 'glBufferSubData and the pixel buffer\'s mapped bytes)',
                 all(written[0].get(f, 0) == 0 and written[1].get(f) == 2 for f in (1, 2)), written)
        ck.check('video_app 3: the buffers changed before the start written as read back (glBufferData through '
                 'GL_COPY_WRITE_BUFFER: the vertex, unpack and pack buffers) before frame 3\'s copy into the '
                 'luminance texture and where frame 5 begins (the pack buffer then mapped by the app, for reading)',
                 restored.get(3) == restored.get(5) == 3, restored)
    else:
        ck.check('video_app 2 (GLES 2: no read mapping): its buffer writes written as they are made, none read back',
                 all(written[0].get(f) == written[1].get(f) == 1 for f in (1, 2)) and not restored, (written, restored))
    images = per_frame(held, read_back)
    accumulated = per_frame(held, lambda r: read_back(r) and r.get('args', {}).get('width') == 64)
    ck.check(f'video_app {es}: the levels changed before the start written as read back (the accumulated texture\'s, '
             'made by glTexStorage2D on GLES 3, filled by glTexSubImage2D), before frame 3\'s copy into the luminance texture (the planes, '
             'the accumulated texture, the cube\'s faces drawn) and where frame 5 begins',
             images.get(3, 0) >= 4 and images.get(5, 0) >= 3 and accumulated.get(3) == accumulated.get(5) == 1,
             (images, accumulated))
    out = os.path.join(work, f'video-{es}-7-8.gltrace')
    r = run([gltrace, 'trim', held_path, '--frames', '7-8', '-o', out])
    ck.check(f'video_app {es} held back: its trim of frames 7-8 replays exactly on the first try (its two snapshots '
             'and frame 7\'s pixel read)', r.returncode == 0 and 'checked: its replay matches 3 of 3' in r.stdout and 'note:' not in r.stderr,
             (r.stdout[-300:], r.stderr[-300:]))
    # Its setup clears a framebuffer whose texture a later whole upload
    # fills: the upload that gave the texture its storage stays (before,
    # on GLES 2, the clear failed: GL_INVALID_FRAMEBUFFER_OPERATION).
    ck.check(f'video_app {es} held back: the replay of its trim of frames 7-8 raises no GL error',
             r.returncode == 0 and no_gl_errors(out), out)


def check_held_layers(env, version, float_depth=False):
    """layers_app with GLTRACE_START_FRAME=6 on a GLES `version` context:
    its uploads into the layers of an array texture and the slices of a 3D
    one, its draws into a layer and its depth-tested draws into a colour
    and a depth texture before the start are not written; nor, on GLES
    3.2, its depth-tested draws into a colour and a depth renderbuffer,
    nor frame 3's blit of the renderbuffer into the window (held back as a
    draw into the window is). Each is written as read back, once, where
    the start's frame begins (on GLES 3.1, before each frame's written
    draw into the renderbuffers): one glTexImage3D of
    the array's three layers, one glTexSubImage3D of the 3D texture's four
    slices (made by glTexStorage3D), one glTexImage2D of the depth texture
    (GL_DEPTH_COMPONENT, read through NV_read_depth), and each
    renderbuffer as a texture of its own copied into it
    (glCopyImageSubData, which GLES 3.1 lacks: there their draws are
    written). Written whole, the same snapshots; held back, a replay that
    matches them and a trim of frames 7-8 exact on the first try.
    float_depth: layers_app float, its depth texture GL_DEPTH_COMPONENT32F
    and its renderbuffer GL_DEPTH32F_STENCIL8, read back as floats (and
    GL_FLOAT_32_UNSIGNED_INT_24_8_REV): the same, the depth texture
    written with GL_FLOAT. Before, their draws were written."""
    name = f'layers-{version}' + ('-float' if float_depth else '')
    argv = [layers_app, 'float'] if float_depth else [layers_app]
    infos = {c: (rc, *snapshots(path), path) for c, (rc, path) in
             held_and_whole(env, name, argv, 6, MESA_GLES_VERSION_OVERRIDE=version).items()}
    (rc1, got, held, held_path), (rc0, want, whole, _) = infos['1'], infos['0']
    ck.check(f'{name}, GLTRACE_START_FRAME=6: held back and written whole, the same 7 snapshots',
             rc1 == 0 and rc0 == 0 and got == want and len(want) == 7, (rc1, rc0, len(got), len(want)))
    rp = run([gltrace, 'replay', '--check', held_path])
    ck.check(f'{name} held back: its replay matches the 7 snapshots, and its last glGetError gives no error',
             rp.returncode == 0 and '7 snapshots: 7 matched, 0 differ' in rp.stderr and
             'queries issued, 0 gave another result' in rp.stderr, rp.stderr[-400:])

    def fn(name, **args):
        return lambda r: r.get('fn') == name and all(r.get('args', {}).get(k) == v for k, v in args.items())
    layers, draws = fn('glTexSubImage3D', depth=1), fn('glDrawArrays')
    counts = [(per_frame(recs, layers), per_frame(recs, draws)) for recs in (held, whole)]
    rb_draws = 0 if version == '3.2' else 1
    ck.check(f'{name}: in frames 1-2 held back, no upload into a layer or slice and '
             f'{"no draw" if rb_draws == 0 else "only the draw into the renderbuffers"} written (written whole: two '
             'uploads and ten draws a frame)',
             all(counts[0][0].get(f, 0) == 0 and counts[0][1].get(f, 0) == rb_draws and counts[1][0].get(f) == 2 and
                 counts[1][1].get(f) == 10 for f in (1, 2)), counts)
    array = per_frame(held, fn('glTexImage3D', depth=3))
    volume = per_frame(held, fn('glTexSubImage3D', depth=4))
    rb = per_frame(held, fn('glCopyImageSubData', dstTarget='GL_RENDERBUFFER'))
    made = per_frame(held, fn('glGenTextures', n=1))
    depth = per_frame(held, fn('glTexImage2D', format='GL_DEPTH_COMPONENT',
                               type='GL_FLOAT' if float_depth else 'GL_UNSIGNED_INT'))
    if version == '3.2':
        ck.check(f'{name}: the array\'s layers, the 3D texture\'s slices, the depth texture and the two '
                 'renderbuffers (each copied from a texture made for it) written as read back, once each, where '
                 'frame 5 begins, and none in frames 1-4 (frame 3\'s blit into the window held back: before, the '
                 'levels were written before it)',
                 array.get(5) == volume.get(5) == depth.get(5) == 1 and rb.get(5) == made.get(5) == 2 and
                 not any(array.get(f) or rb.get(f) or depth.get(f) for f in (1, 2, 3, 4)),
                 (array, volume, depth, rb, made))
    else:
        # The draw into the renderbuffers is written, and may read any
        # texture: what changed before it is written before it (the depth
        # pass comes after it: the frame before's, and the blit's in frame 3).
        ck.check(f'{name}: the renderbuffers not read back (no glCopyImageSubData on GLES 3.1); the array\'s '
                 'layers and the 3D texture\'s slices written as read back before each frame\'s draw into them, '
                 'the depth texture before frame 3\'s blit and where frame 5 begins',
                 not rb and all(array.get(f) == volume.get(f) == 1 for f in (1, 2, 3, 4)) and
                 depth.get(3, 0) >= 1 and depth.get(5) == 1, (array, volume, depth, rb))
    out = os.path.join(work, f'{name}-7-8.gltrace')
    r = run([gltrace, 'trim', held_path, '--frames', '7-8', '-o', out])
    ck.check(f'{name} held back: its trim of frames 7-8 replays exactly on the first try', r.returncode == 0 and
             'checked: its replay matches 2 of 2' in r.stdout and 'note:' not in r.stderr,
             (r.stdout[-300:], r.stderr[-300:]))


def check_held_unswapped(env):
    """layers_app finish: a context that never swaps, each frame ending in
    glFinish, where capture takes its snapshot. Those snapshots end its
    frames for every tool (proto/gt_frames.c): replay --frames, trim
    --frames, info, and the start frame of a mid-run capture. Before the
    start no snapshot is read (nor the levels written off before it): a
    gltraceFrameEnd record ends the frame instead, so the held trace's
    frames are the app's."""
    plain = record('layers-finish', [layers_app, 'finish'])
    if not plain:
        return
    want, _ = snapshots(plain)
    _, info = gt.info(gltrace, plain)
    ck.check('layers_app finish, never swapping: 12 snapshots (at glFinish), and info counts them as its 12 frames',
             len(want) == 12 and info and info.get('frames') == 12 and info.get('frames_end_at') == 'snapshots',
             (len(want), info))
    rp = run([gltrace, 'replay', '--frames', '4-6', plain])
    ck.check('replay --frames 4-6 of it compares the snapshots of frames 4 to 6 only',
             rp.returncode == 0 and '3 matched, 0 differ' in rp.stderr and '9 not compared' not in rp.stderr,
             rp.stderr[-300:])
    # All of it before the start: no snapshot read, a mark at each frame's
    # end; held back and written whole alike.
    for c, (rc, path) in held_and_whole(env, 'layers-finish', [layers_app, 'finish'], 1000).items():
        d = list(gt.dump(gltrace, path).objects()) if rc == 0 else []
        marks = sum(1 for r in d if r.get('fn') == 'gltraceFrameEnd')
        snaps = sum(1 for r in d if r.get('fn') == 'gltraceSnapshot')
        rp = run([gltrace, 'replay', '--allow-empty', path])
        ck.check(f'layers_app finish, all before the start (GLTRACE_COALESCE={c}): no snapshot read, 12 '
                 'gltraceFrameEnd marks, and replay counts 12 frames', rc == 0 and marks == 12 and snaps == 0 and
                 rp.returncode == 0 and ', 12 frames;' in rp.stderr, (rc, marks, snaps, rp.stderr[-300:]))
    # A start at frame 5: the snapshots of frames 4 to 11 (one frame early,
    # as with swaps), the same as the plain recording's.
    runs = held_and_whole(env, 'layers-finish-5', [layers_app, 'finish'], 5)
    rc, held_path = runs['1']
    got, _ = snapshots(held_path) if rc == 0 else ([], [])
    rp = run([gltrace, 'replay', held_path])
    ck.check('layers_app finish held back from frame 5: the snapshots of frames 4 to 11, the plain recording\'s, and '
             'its replay matches them', rc == 0 and got == want[4:] and rp.returncode == 0 and
             '8 snapshots: 8 matched, 0 differ' in rp.stderr, (rc, len(got), rp.stderr[-300:]))
    out = os.path.join(work, 'layers-finish-start.gltrace')
    r = run([gltrace, 'record', '--start-frame', '5', '--frames', '3', '-o', out, '--', layers_app, 'finish'])
    got, _ = snapshots(out) if r.returncode == 0 and os.path.exists(out) else ([], [])
    rp = run([gltrace, 'replay', out])
    ck.check('record --start-frame 5 --frames 3 of it: frames 5 to 7 kept, their snapshots the plain recording\'s, '
             'replayed exactly', r.returncode == 0 and 'kept 3 frames from frame 5' in r.stderr and
             got == want[5:8] and rp.returncode == 0 and '3 snapshots: 3 matched, 0 differ' in rp.stderr,
             (r.stderr[-400:], len(got), rp.stderr[-300:]))
    # trim --frames cuts at the snapshots.
    out = os.path.join(work, 'layers-finish-3-5.gltrace')
    r = run([gltrace, 'trim', plain, '--frames', '3-5', '-o', out])
    got, _ = snapshots(out) if r.returncode == 0 else ([], [])
    ck.check('trim --frames 3-5 of it: three frames ended by snapshots, the plain recording\'s, exact on the first '
             'try', r.returncode == 0 and '(3 frames, ended by snapshots: it never swaps)' in r.stdout and
             'checked: its replay matches 3 of 3' in r.stdout and got == want[3:6] and 'note:' not in r.stderr,
             (r.stdout[-500:], r.stderr[-300:], len(got)))
    out = os.path.join(work, 'layers-finish-20-22.gltrace')
    r = run([gltrace, 'trim', plain, '--frames', '20-22', '-o', out])
    ck.check('trim --frames 20-22 of it: exit 2, naming the trace and its 12 frames, saying to cut it with --calls, '
             'no file written', r.returncode == 2 and plain in r.stderr and 'has no frame 20 (it has 12' in r.stderr and
             'cut it with --calls' in r.stderr and not os.path.exists(out), (r.returncode, r.stderr))
    # With no snapshot there are no frames: trim says to cut by calls.
    none = os.path.join(work, 'layers-finish-none.gltrace')
    r = run([gltrace, 'record', '--fb=none', '-o', none, '--', layers_app, 'finish'])
    out = os.path.join(work, 'layers-finish-none-0-2.gltrace')
    r = run([gltrace, 'trim', none, '--frames', '0-2', '-o', out])
    ck.check('recorded with --fb=none, never swapping: trim --frames exits 2 saying it has no frames and to cut it '
             'with --calls, and writes no file', r.returncode == 2 and none in r.stderr and
             'took no snapshot' in r.stderr and '--calls' in r.stderr and not os.path.exists(out),
             (r.returncode, r.stderr))


def check_held_images(env):
    """video_app 31 (GLES 3.1): each frame a draw into the window stores
    into an image, which the next frame shows. Before the start such a draw
    writes more than its framebuffer (a texture bound to an image unit), so
    it is written, after the levels capture held: the held trace replays
    the snapshots of frames 5-11 exactly. Left out, it would not (checked by
    hand: frame 5 differs)."""
    runs = held_and_whole(env, 'video-31', [video_app, '31'], 6)
    (rc1, held_path), (rc0, whole_path) = runs['1'], runs['0']
    got, recs = snapshots(held_path)
    want, _ = snapshots(whole_path)
    stores = per_frame(recs, lambda r: r.get('fn') == 'glDrawArrays')
    rp = run([gltrace, 'replay', '--check', held_path])
    ck.check('video_app 31, GLTRACE_START_FRAME=6: the draws storing into an image written before the start (one a '
             'frame), the same 7 snapshots as written whole, and a replay that matches them with no GL error',
             rc1 == 0 and rc0 == 0 and got == want and len(want) == 7 and stores.get(1) == stores.get(2) == 1 and
             rp.returncode == 0 and '7 snapshots: 7 matched, 0 differ' in rp.stderr and
             'queries issued, 0 gave another result' in rp.stderr, (rc1, rc0, len(got), stores, rp.stderr[-300:]))


def trimmed_7_8(mode, *extra):
    """trim_app MODE recorded, and frames 7-8 of it trimmed and checked
    (check_trim, with the options `extra`): the trace, the trim, and the
    output of trimming it again (its report), or None. The steps before 9
    are asked for alone (--keep-texture-draws): step 9 leaves out the
    draws into the app's texture and so changes what they see."""
    trace = record(f'trim_app_{mode}', [trim_app, mode])
    out = trace and check_trim(mode, trace, '--frames', 7, 8, *(extra or ('--keep-texture-draws',)))
    if not out:
        return None
    return trace, out, run([gltrace, 'trim', trace, '--frames', '7-8', '-o', out, *(extra or ('--keep-texture-draws',))])


def deleted_objects():
    """trim_app stream: every frame uploads a texture of noise (16 KB that
    does not compress) and a vertex buffer, points an attribute at the
    buffer, points it back at the app's, and deletes both; the uploads of
    textures and buffers deleted before the start are left out (a buffer
    an attribute pointed at is held only until the attribute points
    elsewhere), those still held (a framebuffer's
    attachment deleted by name, a program deleted while in use, a texture
    drawn into another before the first frame and deleted, with the
    program that drew it) stay; of four textures alive all along, the two
    the kept frames draw with stay and the other two go; --keep-all keeps
    them all."""
    got = trimmed_7_8('stream')
    if not got:
        return
    trace, out, r = got
    m = re.search(r'left out of the setup: the contents of (\d+) objects deleted before the start \((\d+) calls\)',
                  r.stdout)
    ck.check('stream 7-8: the seven textures and seven vertex buffers deleted before the start are left out (their '
             'uploads and parameters)',
             m and int(m.group(1)) == 14 and int(m.group(2)) == 28, r.stdout)
    m = re.search(r'left out of the setup: (\d+) objects the kept calls never touch, their contents and their making '
                  r'when made alone \((\d+) calls\)', r.stdout)
    ck.check('stream 7-8: two textures alive but unused by frames 7-8 are left out',
             m and int(m.group(1)) == 2 and int(m.group(2)) == 6, r.stdout)
    ck.check('stream 7-8: what is still held needs nothing put back (no note: the first trim replayed exactly)',
             'note: without' not in r.stdout, r.stdout)
    setup = setup_fns(out)
    ck.check('stream 7-8: the setup uploads six textures (the app\'s render target, the attachment deleted by name, '
             'the two the frames draw with, the one baked and its deleted source) and links four programs (the app\'s, '
             'which baked it, and frames 0, 3 and 6\'s)',
             setup.count('glTexImage2D') == 6 and setup.count('glLinkProgram') == 4,
             (setup.count('glTexImage2D'), setup.count('glLinkProgram')))
    kept = os.path.join(work, 'stream-keep-all.gltrace')
    r = run([gltrace, 'trim', trace, '--frames', '7-8', '--keep-all', '--keep-texture-draws', '-o', kept])
    ck.check('stream 7-8 --keep-all: keeps every object, and replays exactly',
             r.returncode == 0 and 'objects deleted' not in r.stdout and 'checked: its replay matches 2 of 2' in r.stdout,
             (r.returncode, r.stdout, r.stderr))
    if os.path.exists(kept):
        saved = os.path.getsize(kept) - os.path.getsize(out)
        ck.check(f'stream 7-8: leaving them out saves at least the seven uploads ({saved} bytes, each 16384)',
                 saved >= 7 * 16384, (os.path.getsize(kept), os.path.getsize(out)))


def leaked_framebuffers():
    """trim_app leak: each frame draws into a framebuffer object of its own,
    with a 16 KB buffer of noise at an attribute no later frame points
    elsewhere, makes the texture's mipmaps, and deletes the texture and
    the buffer but not the framebuffer. Nothing kept reaches those
    framebuffers: their draws and the buffers go, so the setup holds no
    draw and one glBufferData (the app's quad) whatever the start, and
    replays exactly on the first try. Before (be46d9b), each earlier
    frame's draw, clear and buffer stayed (checked by hand: frames 7-8
    kept 7 draws and 8 glBufferData, 154468 bytes against 38808 now, of
    a 154960-byte trace)."""
    trace = record('trim_app_leak', [trim_app, 'leak'])
    if not trace:
        return
    for k in (4, 7):
        out = os.path.join(work, f'leak-frames-{k}-{k + 1}.gltrace')
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 1}', '-o', out])
        setup = setup_fns(out) if r.returncode == 0 else []
        ck.check(f'leak {k}-{k + 1}: exact on the first try; the setup has no draw and one glBufferData (the leaked '
                 'framebuffers\' draws and the buffers an attribute was left pointing at are gone)',
                 r.returncode == 0 and 'note: without' not in r.stdout and
                 'checked: its replay matches 2 of 2' in r.stdout and setup.count('glDrawArrays') == 0 and
                 setup.count('glBufferData') == 1,
                 (r.returncode, r.stdout[-600:], {f: setup.count(f) for f in ('glDrawArrays', 'glBufferData')}))


def deleted_programs():
    """trim_app programs: each frame links a program, draws with it into
    the window, binds transform feedback 0 (step 8 counts that as reading
    everything: the frame's glUseProgram stays) and deletes the program.
    Its link goes, and so does every glUseProgram of it: the trim replays
    without a GL error (before, the kept glUseProgram of a program whose
    link was left out raised GL_INVALID_OPERATION, as in a trim of
    chromium's GPU process), keeping one link, the app's. The frames'
    programs and shaders go whole: their glCreateProgram and glCreateShader
    (whose return value's class the registry gives) with their deletions
    (before, 5 programs and 10 shaders were made and deleted in the setup)."""
    trace = record('trim_app_programs', [trim_app, 'programs'])
    out = check_trim('programs', trace, '--frames', 5, 6) if trace else None
    setup = setup_fns(out) if out else []
    ck.check('programs 5-6: the setup links one program (the app\'s), the frames\' deleted ones left out',
             setup.count('glLinkProgram') == 1, setup.count('glLinkProgram'))
    ck.check('programs 5-6: the setup makes one program and two shaders (the app\'s) and deletes none',
             setup.count('glCreateProgram') == 1 and setup.count('glCreateShader') == 2 and
             'glDeleteProgram' not in setup and 'glDeleteShader' not in setup,
             {f: setup.count(f) for f in ('glCreateProgram', 'glCreateShader', 'glDeleteProgram', 'glDeleteShader')})


def chained_passes():
    """trim_app chain: each frame clears a framebuffer object's colour and
    depth and draws depth-tested into it, then draws its texture into a
    second one it never clears, and shows that. The depth buffer never
    carries what it holds into the next frame, so it is taken as cleared
    by the kept calls: the last pass before the start goes, both textures
    are written at the start instead, and the setup holds no draw
    whatever the start. Before, every earlier frame's draw into the second
    texture stayed (each writes part of it): 7 draws in the setup of
    frames 4-5, 13 in that of frames 7-8 (checked by hand at be46d9b)."""
    trims_write_textures('chain', 2, exact=True)


def trims_write_textures(mode, writes, exact=False):
    """trim_app MODE trimmed at frames 4-5 and 7-8: exact on the first try,
    no draw in the setup, and `writes` glTexSubImage2D there (the textures
    written at the start; at least that many unless exact: the app's own
    uploads stay too)."""
    trace = record(f'trim_app_{mode}', [trim_app, mode])
    for k in (4, 7):
        out = check_trim(mode, trace, '--frames', k, k + 1) if trace else None
        setup = setup_fns(out) if out else []
        ck.check(f'{mode} {k}-{k + 1}: no draw in the setup, the textures written at the start',
                 bool(setup) and not any(f.startswith('glDraw') for f in setup) and
                 (setup.count('glTexSubImage2D') == writes if exact else setup.count('glTexSubImage2D') >= writes),
                 {f: setup.count(f) for f in ('glDrawArrays', 'glTexSubImage2D')})


def invalidations():
    """trim_app invalidate: each frame invalidates its framebuffer object's
    colour before a pass into it, and again after. An invalidation only
    lets the driver forget pixels, so a setup leaves it out, and the
    bindings it named (pixels ... discards). Before, each stayed: mpv's
    high-quality profile invalidates six targets a frame, and its setups
    grew with the start."""
    trace = record('trim_app_invalidate', [trim_app, 'invalidate'])
    setups = []
    for k in (2, 6):
        out = check_trim('invalidate', trace, '--frames', k, k + 1) if trace else None
        setups.append(setup_fns(out) if out else [])
    ck.check('invalidate 2-3 and 6-7: no invalidation in either setup, and setups of the same length (not growing '
             'with the start)', all(setups) and not any('glInvalidateFramebuffer' in s for s in setups) and
             len(setups[0]) == len(setups[1]), [(len(s), s.count('glInvalidateFramebuffer')) for s in setups])


def first_binding():
    """trim_app attach: its framebuffer object's texture is generated,
    bound, attached, then bound again for its parameters and storage, as
    Qt makes a layer's (seen where capture held the storage back, a trace
    server's spool). The first binding makes the texture; the second
    covers its key with nothing reading it between (an attachment reads no
    binding), and step 8 left the first out: the attachment of a name that
    was no object yet failed, and the trim was exact only on its second
    try, keeping the state commands."""
    trace = record('trim_app_attach', [trim_app, 'attach'])
    for k in (2, 6):
        if trace:
            check_trim('attach', trace, '--frames', k, k + 1)


def trimmed_setups(mode, starts, record_as=None):
    """trim_app MODE recorded (as trim_app_RECORD_AS), trimmed to frames k
    and k + 1 for each start k and checked (check_trim): the trace, and
    for each start the trim's path and its setup's functions (None and []
    when it failed)."""
    trace = record(f'trim_app_{record_as or mode}', [trim_app, mode])
    outs, setups = [], []
    for k in starts:
        out = trace and check_trim(mode, trace, '--frames', k, k + 1)
        outs.append(out)
        setups.append(setup_fns(out) if out else [])
    return trace, outs, setups


def idle_switches():
    """trim_app switches: each frame flushes and makes its context current
    without a surface and then with the pbuffer again, as ANGLE does around
    each task (chromium's GPU process). Every switch binds something else
    than the one before, so each stayed once the steps before had left the
    frames' calls out: a chromium setup held 226 eglMakeCurrent at frame
    100 and 828 at frame 390. Step 12 leaves out a switch with nothing
    kept after it before its thread's next, one binding what its thread
    had bound, and a flush with nothing kept before it since its thread's
    last switch or flush. Trims of frames 5-6 and 7-8 are exact on the
    first try, their setups of the same length, with 3 eglMakeCurrent (the
    app's first and the pair around frame 3's write), no flush right after
    a switch or flush and no switch right after a switch."""
    trace, _, setups = trimmed_setups('switches', (5, 7))
    switch = ('eglMakeCurrent', 'glFlush')
    idle = [sum(1 for x, y in zip(s, s[1:]) if x in switch and (y == 'glFlush' or x == y)) for s in setups]
    counts = [(len(s), s.count('eglMakeCurrent')) for s in setups]
    ck.check('switches 5-6 and 7-8: setups of the same length, each with 3 eglMakeCurrent, no flush right after a '
             'switch or flush, no switch right after a switch', all(setups) and counts[0] == counts[1] and counts[0][1] == 3 and idle == [0, 0],
             (counts, idle))
    kept = os.path.join(work, 'switches-kept.gltrace')
    r = run([gltrace, 'trim', trace, '--frames', '7-8', '-o', kept, '--keep-state-commands']) if trace else None
    n = setup_fns(kept).count('eglMakeCurrent') if r and r.returncode == 0 else 0
    ck.check('switches 7-8 --keep-state-commands: step 12 is off with step 8, the switches of the frames kept before '
             'the start stay (more than 3)', n > 3, n)


def pass_framebuffers():
    """trim_app canvas: each frame makes a framebuffer object for its pass
    into the texture and deletes it after, and writes the pass's vertices
    into a buffer while it is bound, as chromium's canvas does. Step 10
    took every record bound to a framebuffer that is no state command for
    a read through it; the buffer writes, left out later by step 7 (the
    next one replaces each), kept each frame's framebuffer: setups of 60
    calls at frame 3 and 72 at frame 6. Now only what touches pixels
    (`pixels` in api/annotations.txt, a draw) reads through one: trims of
    frames 3-4 and 6-7 are exact on the first try, with setups of the same
    length and one attachment (the app's own framebuffer's). The last
    pass's framebuffer, bound around the buffer write that stays, stayed
    too while glBufferData read every binding (two framebuffers made);
    now it reads its target's alone, and only the app's framebuffer is
    made."""
    _, _, setups = trimmed_setups('canvas', (3, 6))
    got = [(len(s), s.count('glGenFramebuffers'), s.count('glFramebufferTexture2D')) for s in setups]
    ck.check('canvas 3-4 and 6-7: setups of the same length, with one attachment and one framebuffer made',
             all(setups) and got[0] == got[1] and got[0][1:] == (1, 1), got)


def atlas_uploads():
    """trim_app atlas: as chromium draws text, each frame writes a glyph at
    a new place of an R8 atlas, draws with it into a multisampled colour
    renderbuffer cleared each frame, and resolves that. The atlas's
    uploads all stayed: the pass's draws, into a renderbuffer step 9
    cannot read back, stayed and read the atlas. Now a multisampled
    colour buffer that never carries what it holds into the next frame is
    taken as cleared before the kept frames read it (its draws go, as
    with depth and stencil), and a level written in 3 or more uploads is
    read back at the start like one drawn into, its uploads left out.
    Before, setups of 102 and 123 calls at frames 3 and 6 (5 and 8
    glTexSubImage2D); now trims of frames 3-4 and 6-7 are exact on the
    first try with setups of the same length, each writing the atlas and
    the resolved texture once."""
    atlas_setups('atlas', 2, [4, 7], 'the atlas and the resolved texture written at the start')


def noise(n, seed):
    """sample_noise's bytes (tests/apps/sample_egl.c)."""
    out = bytearray(n)
    for i in range(n):
        seed = (seed * 1664525 + 1013904223) & 0xffffffff
        out[i] = seed >> 24
    return out


def atlas_setups(mode, uploads, left_out, what):
    """trim_app MODE trimmed to frames 3-4 and 6-7: checks that the setups
    are of one length with `uploads` glTexSubImage2D (`what`), and that
    trim reports the uploads of regions it left out as `left_out` (one
    count a trim). The trace."""
    trace, outs, setups = trimmed_setups(mode, (3, 6))
    reports = []
    for k, out in zip((3, 6), outs):
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 1}', '-o', out]) if out else None
        m = r and re.search(r'(\d+) uploads of regions into them', r.stdout)
        reports.append(int(m.group(1)) if m else 0)
    got = [(len(s), s.count('glTexSubImage2D')) for s in setups]
    ck.check(f'{mode} 3-4 and 6-7: setups of the same length, with {uploads} glTexSubImage2D ({what}), the frames\' '
             f'uploads left out ({left_out[0]} and {left_out[1]} reported)',
             all(setups) and got[0] == got[1] and got[0][1] == uploads and reports == left_out, (got, reports))
    return trace


def glyph_atlases(frames=9):
    """trim_app glyphs: as a GLES 2 app draws text, each frame writes a
    glyph into each of three atlases, GL_ALPHA, GL_LUMINANCE and
    GL_LUMINANCE_ALPHA (its green swizzled from alpha), and shows them.
    No framebuffer holds those formats, so step 9 could not read them
    back and every upload stayed:
    setups of 9 glTexSubImage2D at frame 3 and 18 at frame 6. Now they are
    read through a shader copy at the start (replay/rp_shader_copy.c, which
    gltrace inspect uses too): trims of frames 3-4 and 6-7 are exact on the
    first try, with setups of the same length writing each atlas once (9
    and 18 uploads reported left out). And gltrace inspect at the last
    frame's draws dumps each atlas as the glyphs written, as sampling gives
    them with no swizzle (the copy's)."""
    trace = atlas_setups('glyphs', 3, [9, 18], 'each atlas written at the start')
    atlases = [bytearray(32 * 32 * (2 if i == 2 else 1)) for i in range(3)]
    for f in range(frames):
        for i, atlas in enumerate(atlases):
            glyph, comps = noise(8 * 8 * 2, 200 + 3 * f + i), 2 if i == 2 else 1
            for y in range(8):
                row = ((f // 4) * 8 + y) * 32 + (f % 4) * 8
                atlas[row * comps:(row + 8) * comps] = glyph[y * 8 * comps:(y + 1) * 8 * comps]
    want = [bytes(b for a in atlases[0] for b in (0, 0, 0, a)),
            bytes(b for v in atlases[1] for b in (v, v, v, 255)),
            bytes(b for k in range(0, len(atlases[2]), 2) for b in (atlases[2][k],) * 3 + (atlases[2][k + 1],))]
    draws = [r['seq'] for r in gt.dump(gltrace, trace).objects() if r.get('fn') == 'glDrawArrays'] if trace else []
    out = os.path.join(work, 'glyphs-inspect')
    shutil.rmtree(out, ignore_errors=True)
    p = run([gltrace, 'inspect', trace, ','.join(map(str, draws[-3:])), '--out', out]) if draws else None
    got = []
    try:  # the last frame's draws, each with its atlas bound
        for seq in draws[-3:]:
            state = json.load(open(os.path.join(out, f'call-{seq}', 'state.json')))
            img = state['textures'][0]['levels'][0]['images'][0]
            got.append(gt.png_rgba(os.path.join(out, f'call-{seq}', img['file'])) if 'file' in img else img)
    except (OSError, ValueError, IndexError, KeyError, TypeError) as e:
        got.append(repr(e))
    ck.check('glyphs: gltrace inspect at the last frame\'s draws dumps each atlas as the glyphs written (alpha as 0, 0, 0, A; '
             'luminance as L, L, L, 1)', p and p.returncode == 0 and got == want,
             (p and p.stderr[-300:], [g[:16] if isinstance(g, bytes) else g for g in got]))


def unused_names():
    """trim_app unused: each frame makes three textures and deletes them
    unused, as ANGLE does with each context it makes (seven textures a
    context in chromium's GPU process). Step 5 followed an object from its
    first use, so a name with none had no life to end and its making and
    deletion stayed: 9 of each at frame 3 and 18 at frame 6. Now a deletion
    of a name made and never used ends a life of its own. And a texture
    made and filled first that no frame uses lost its upload but kept its
    making (step 6); made alone, that goes too. Each frame also probes a
    format as chromium does: the texture's deletion reads the framebuffer
    bindings (it detaches), and step 8 counted that read before the
    texture's making and deletion went, which kept the probe's
    framebuffer binding and with it the framebuffer's making and deletion
    (setups of 60 and 75 calls at frames 3 and 6, with 7 and 13 makings and
    deletions of framebuffers). Walked again without those deletions, the
    last probe's still stayed (52 and 52 calls, 3 framebuffer makings and
    deletions): its binding of GL_FRAMEBUFFER was a key of its own, which
    the draw and read bindings after it did not replace. Binding
    GL_FRAMEBUFFER now sets the keys of both. Trims of frames 3-4 and 6-7
    are exact on the first try, with setups of the same length making one
    texture (the app's) and deleting none, and one framebuffer (the
    app's)."""
    _, _, setups = trimmed_setups('unused', (3, 6))
    got = [(len(s), s.count('glGenTextures'), s.count('glDeleteTextures'),
            sum(fn in ('glGenFramebuffers', 'glDeleteFramebuffers') for fn in s)) for s in setups]
    ck.check('unused 3-4 and 6-7: setups of the same length, with one glGenTextures (the app\'s texture), no '
             'glDeleteTextures, and one framebuffer made (the app\'s) and none deleted',
             all(setups) and got[0] == got[1] and got[0][1:] == (1, 0, 1), got)


def stencil_counts():
    """trim_app stencil: a stencil renderbuffer (GL_STENCIL_INDEX8) keeps
    a count across frames, and each frame clears all of the colour beside
    it between counting and covering. Step 9 took that clear to end what
    the stencil held (Skia zeroes its stencil after each path, so that is
    so for it) and left the counts out: exact only on the second try,
    keeping every draw. The planning replay now reads the stencil back at
    the start; holding values other than 0, it is written there (a stencil
    texture copied into it, GLES 3.2) and the guess is not made. Trims of
    frames 3-4 and 6-7: exact on the first try, with no draw in setups of
    the same length."""
    _, _, setups = trimmed_setups('stencil', (3, 6), record_as='stencil_counts')
    got = [(len(s), s.count('glDrawArrays'), s.count('glCopyImageSubData')) for s in setups]
    ck.check('stencil 3-4 and 6-7: setups of the same length, no draw, the counts copied into the renderbuffer',
             all(setups) and got[0] == got[1] and got[0][1:] == (0, 1), got)


def refused_commands():
    """trim_app refused: each frame sets a viewport of its own, then makes
    two calls the driver refuses (GL_INVALID_VALUE, GL_INVALID_OPERATION)
    before drawing into the window. A refused command has no effect, so it
    goes and reads nothing; before, only one refused with GL_INVALID_ENUM
    went, and the others, reading everything, kept each frame's viewport:
    the setup grew with the start. Trims of frames 3-4 and 6-7 are exact
    on the first try, with setups of the same length holding none of the
    refused calls and one glViewport (the start's)."""
    trace = record('trim_app_refused', [trim_app, 'refused'])
    setups = []
    for k in (3, 6):
        out = os.path.join(work, f'refused-{k}.gltrace')
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 1}', '-o', out]) if trace else None
        ck.check(f'refused {k}-{k + 1}: exact on the first try, the state at the start the original\'s',
                 r is not None and r.returncode == 0 and 'checked: its replay matches 2 of 2' in r.stdout and
                 'note: without' not in r.stdout and 'is the original\'s' in r.stdout, r and r.stdout)
        setups.append(setup_fns(out) if r is not None and r.returncode == 0 else [])
    got = [(len(s), s.count('glLineWidth'), s.count('glViewport')) for s in setups]
    ck.check('refused 3-4 and 6-7: setups of the same length, without the refused glLineWidth, with one glViewport',
             all(setups) and got[0] == got[1] and got[0][1:] == (0, 1), got)


def unpack_rows():
    """trim_app rows: chain's passes after each frame's upload of a 4x4
    corner of a 64-pixel-wide picture (GL_UNPACK_ROW_LENGTH 64, then 0).
    The setup's last row length of 0 goes for its call among the state at
    the start, so that call comes before the textures are written there:
    they read the row length of the start. Written before it, they read 64
    (GTK 4's fishbowl: a glyph upload's row length, read by the write-back
    of a shadow texture), and the trim was exact only on its second try,
    keeping the draws (checked by hand at 09c3633)."""
    trims_write_textures('rows', 2)


def superseded_writes():
    """trim_app reupload: one texture and one vertex buffer written whole
    every frame, then in part. A trim of frames 7-8 keeps, of frames 0-6,
    only what no later whole write replaced before something read it: the
    texture's specification, frame 4's writes (its mipmaps read them) and
    frame 6's, and the buffer's last glBufferData and glBufferSubData; it
    leaves out 10 texture writes (frames 0-3 and 5) and 12 buffer writes
    (frames 0-5), and replays exactly. --keep-all keeps them."""
    got = trimmed_7_8('reupload')
    if not got:
        return
    trace, out, r = got
    m = re.search(r'left out of the setup: uploads a later whole one replaced, into (\d+) textures and buffers '
                  r'\((\d+) calls\)', r.stdout)
    ck.check('reupload 7-8: the writes a later whole write replaced are left out (2 objects, 22 calls)',
             m and int(m.group(1)) == 2 and int(m.group(2)) == 22 and 'note: without' not in r.stdout, r.stdout)
    setup = setup_fns(out)
    ck.check('reupload 7-8: the setup specifies the texture once and writes it whole twice (frames 4 and 6), '
             'with one glBufferData and one glBufferSubData of the frames\'',
             setup.count('glTexImage2D') == 2 and setup.count('glTexSubImage2D') == 4 and
             setup.count('glGenerateMipmap') == 1 and setup.count('glBufferData') == 2 and
             setup.count('glBufferSubData') == 1,
             {f: setup.count(f) for f in ('glTexImage2D', 'glTexSubImage2D', 'glBufferData', 'glBufferSubData')})
    kept = os.path.join(work, 'reupload-keep-all.gltrace')
    r = run([gltrace, 'trim', trace, '--frames', '7-8', '--keep-all', '--keep-texture-draws', '-o', kept])
    ck.check('reupload 7-8 --keep-all: every write stays, and it replays exactly',
             r.returncode == 0 and 'uploads a later whole one replaced' not in r.stdout and
             'checked: its replay matches 2 of 2' in r.stdout,
             r.stdout)


def state_commands():
    """trim_app settings: every frame sets its viewport, a texture binding
    on unit 1, that texture's wrap mode and a sampler uniform with other
    integers than the frame before (so no frame repeats the next); frames
    2 and 5 also draw blended into a framebuffer object, reading all that
    was set so far, and every frame begins with a clear of the window (the
    last one before the start stays, and reads its own state only: its
    `reads` line; so do the texture uploads, which read their target's
    binding on the unit selected, the unpack buffer's and the unpack
    state, not the framebuffer bound). A trim of frames 7-8 keeps, of each
    piece of state, the last setting before each of those draws and before
    the start, and the settings that what stays reads (the unit a binding
    went to): 78 commands go (77 when uploads read every binding: the
    window's framebuffer bound before them stayed), the setup holds 3
    glViewport (frames 2 and 5's
    for the framebuffer object, and the start's, written as the one call
    of the state at the start in place of frame 6's) of the 12, and the
    trim replays exactly with the state at the start the original's.
    --keep-state-commands keeps them all."""
    got = trimmed_7_8('settings')
    if not got:
        return
    trace, out, r = got
    m = re.search(r'left out of the setup: (\d+) bindings, settings and uniforms a later one replaced', r.stdout)
    ck.check('settings 7-8: 78 state commands a later one replaced are left out, 1 call of the state at the start '
             'written, and the first try replays exactly (no note)', m and int(m.group(1)) == 78 and
             'written at the start: 1 call that sets the state' in r.stdout and 'note: without' not in r.stdout and
             'the state at the start, as gltrace inspect reads it, is the original\'s' in r.stdout, r.stdout)
    setup = setup_fns(out)
    ck.check('settings 7-8: the setup sets the viewport 3 times of 12, keeps both draws into the framebuffer '
             'object and one clear of the window (frame 6\'s)', setup.count('glViewport') == 3 and
             setup.count('glDrawArrays') == 2 and setup.count('glClear') == 2,
             {f: setup.count(f) for f in ('glViewport', 'glDrawArrays', 'glActiveTexture', 'glBindTexture')})
    kept = os.path.join(work, 'settings-keep-state.gltrace')
    r = run([gltrace, 'trim', trace, '--frames', '7-8', '--keep-state-commands', '--keep-texture-draws', '-o', kept])
    ck.check('settings 7-8 --keep-state-commands: every setting stays, and it replays exactly',
             r.returncode == 0 and 'bindings, settings and uniforms' not in r.stdout and
             'checked: its replay matches 2 of 2' in r.stdout and setup_fns(kept).count('glViewport') == 12,
             r.stdout)


def offsets_ahead():
    """trim_app ahead: each frame draws into a texture at an offset the
    frame before set after its last draw, so the frames differ only in that
    float, and step 4 leaves the earlier ones out as repeated. Their state
    commands stay for step 8 to judge: the last frame before the start
    reads the offset the one before it set. Trims at frames 3 and 6 are
    exact on the first try (the state at the start included), leave
    repeated frames out, and have setups of one size."""
    trace = record('trim_app_ahead', [trim_app, 'ahead'])
    if not trace:
        return
    sizes = []
    for k in (3, 6):
        out = check_trim('ahead', trace, '--frames', k, k + 2)
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '--no-verify',
                 '-o', os.path.join(work, 'ahead-unchecked.gltrace')])
        m = re.search(r'left out of the setup: (\d+) frames a later one repeats', r.stdout)
        ck.check(f'ahead {k}-{k + 2}: frames before the start left out as repeated', m and int(m.group(1)) >= k - 2,
                 r.stdout)
        sizes.append(len(setup_fns(out)) if out else -1)
    ck.check('ahead: the setups at frames 3 and 6 are of one size', sizes[0] == sizes[1] and sizes[0] > 0, sizes)


def pack_reads():
    """trim_app download: each frame draws into a texture, reads it into
    one of two pixel pack buffers through a framebuffer made and deleted
    for the read; frames 0, 3 and 6 show the buffer the frame before
    wrote. Trims of 3-5 and 6-8 are exact on the first try, their first
    frame showing a buffer written at the start (the read that filled it
    left out, its bytes read back), and the framebuffers made for reads
    before the start left out with their attachments."""
    trace = record('trim_app_download', [trim_app, 'download'])
    if not trace:
        return
    for k in (3, 6):
        out = check_trim('download', trace, '--frames', k, k + 2)
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '--no-verify',
                 '-o', os.path.join(work, 'download-unchecked.gltrace')])
        m = re.search(r'the last pixel read into each of (\d+) pixel pack buffers; written at the start', r.stdout)
        f = re.search(r'left out of the setup: the state of (\d+) framebuffers and \d+ vertex arrays deleted before the start', r.stdout)
        ck.check(f'download {k}-{k + 2}: both pack buffers written at the start, and at least {k - 1} of the {k} '
                 'framebuffers made for reads before it left out', m and int(m.group(1)) == 2 and f and
                 int(f.group(1)) >= k - 1, r.stdout)
        setup = setup_fns(out) if out else []
        ck.check(f'download {k}-{k + 2}: fewer reads in the setup ({setup.count("glReadPixels")}) than frames before '
                 f'the start ({k})', out and setup.count('glReadPixels') < k, setup.count('glReadPixels'))


def queries_and_scissored_clears():
    """trim_app queries: each frame reads the result of the query it began
    two frames before on the same object, begins it again around a draw,
    and clears the window with a scissor box that covers it (as mpv does).
    The begin and end of a query are a whole write of its result, which a
    later begin replaces; they read no state (step 8). A clear whose
    scissor box covers the window replaces the one before. Trims at 3-5
    and 6-8: exact on the first try, setups of one size, each with at most
    one begin of each query and one clear."""
    trace = record('trim_app_queries', [trim_app, 'queries'])
    if not trace:
        return
    sizes = []
    for k in (3, 6):
        out = check_trim('queries', trace, '--frames', k, k + 2)
        setup = setup_fns(out) if out else []
        sizes.append(len(setup) if out else -1)
        ck.check(f'queries {k}-{k + 2}: the setup begins each query at most once ({setup.count("glBeginQuery")}) and '
                 f'clears the window at most once ({setup.count("glClear")})', out and
                 setup.count('glBeginQuery') <= 2 and setup.count('glEndQuery') == setup.count('glBeginQuery') and
                 setup.count('glClear') <= 1, setup)
    ck.check('queries: the setups at frames 3 and 6 are of one size', sizes[0] == sizes[1] and sizes[0] > 0, sizes)


def objects_per_frame():
    """trim_app perframe: each frame makes a vertex array and a buffer,
    draws with them into the window and deletes both while bound (GTK 4).
    The draws before the start go (step 2), so nothing reads through the
    arrays: their state goes (step 10), the buffers' contents with it
    (the array setters no longer hold them), and the makings and
    deletions of both (step 8: the binding a deletion undoes is set again
    by the next frame's; the last frame's stay, as its deletion unbinds
    them at the start). Trims at 3-5 and 6-8 are exact on the first try
    with setups of one size that make one vertex array at most and set
    up none (only the app's own array, before its first frame)."""
    trace = record('trim_app_perframe', [trim_app, 'perframe'])
    if not trace:
        return
    sizes = []
    for k in (3, 6):
        out = check_trim('perframe', trace, '--frames', k, k + 2)
        setup = setup_fns(out) if out else []
        sizes.append(len(setup) if out else -1)
        ck.check(f'perframe {k}-{k + 2}: the setup makes one vertex array at most '
                 f'({setup.count("glGenVertexArrays")}), and fills and sets up only the app\'s first buffer and '
                 f'array ({setup.count("glBufferData")} glBufferData, {setup.count("glVertexAttribPointer")} '
                 'glVertexAttribPointer)', out and setup.count('glGenVertexArrays') <= 1 and
                 setup.count('glBufferData') == 1 and setup.count('glVertexAttribPointer') == 1, setup)
    ck.check('perframe: the setups at frames 3 and 6 are of one size', sizes[0] == sizes[1] and sizes[0] > 0, sizes)


def texture_counts(stdout):
    """(draws and clears into textures left out, texture levels written)
    from trim's report, or (0, 0)."""
    m = re.search(r'left out of the setup: (\d+) draws and clears into textures, \d+ uploads of regions into them; '
                  r'written at the start instead: the pixels of (\d+) texture levels', stdout)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def texture_draws():
    """Step 9: draws into textures left out, their pixels at the start
    written as uploads. trim_app feedback draws blended into a texture
    every frame and never clears it (basevertex the same with
    glDrawElementsBaseVertex): a trim of frames 4-6 keeps none of
    frames 0-3's draws (nor the app's first clear of the texture) and
    writes the texture once, exact on the first try (of those draws, the
    ones of the frames step 4 left out are counted there). trim_app settings
    draws into the app's texture in frames 2 and 5: a trim of 7-8 keeps no
    draw at all. trim_app passes renders a multisampled pass a frame,
    stencilled and covered, resolved by a blit into a texture: trims of
    3-5 and 6-8 keep no pass (its renderbuffer is not read back, but it
    never carries what it holds into the next frame: the kept frames
    clear it first; the last pass before the start stayed before), and
    their setups are the same size; kept (--keep-texture-draws) the later
    one's setup grows. A trim by calls that starts inside a pass, between
    its stencil and its cover, keeps that pass's clear and stencil draw,
    exact on the first try (it took the second before)."""
    traces = {m: record(f'trim_app_{m}', [trim_app, m]) for m in ('feedback', 'basevertex', 'passes')}
    # basevertex draws with glDrawElementsBaseVertex, a call numbered from
    # 4000 (once taken for a record gltrace adds: its draws then stayed).
    for mode in ('feedback', 'basevertex'):
        if not traces[mode]:
            continue
        out = os.path.join(work, f'{mode}-frames-4-6.gltrace')
        r = run([gltrace, 'trim', traces[mode], '--frames', '4-6', '-o', out])
        n, levels = texture_counts(r.stdout)
        rep = re.search(r'(\d+) frames a later one repeats', r.stdout)
        rep = int(rep.group(1)) if rep else -1
        # Frames 0-3 draw into it once each and the app clears it once; those
        # of the frames step 4 left out (repeats) are not counted again.
        ck.check(f'{mode} 4-6: every draw and clear into the texture left out ({n} = 5 less {rep} repeated frames), '
                 f'its pixels written once ({levels}), exact on the first try',
                 r.returncode == 0 and rep >= 0 and n == 5 - rep and levels == 1 and
                 'note: without' not in r.stdout and 'checked: its replay matches 3 of 3' in r.stdout and
                 'is the original\'s' in r.stdout, r.stdout)
        setup = setup_fns(out) if r.returncode == 0 else []
        ck.check(f'{mode} 4-6: the setup holds no draw, and one glTexSubImage2D', r.returncode == 0 and
                 not any(f.startswith('glDraw') for f in setup) and setup.count('glTexSubImage2D') == 1,
                 {f: setup.count(f) for f in set(setup)})
    settings = os.path.join(work, 'trim_app_settings.gltrace')
    if os.path.exists(settings):
        out = os.path.join(work, 'settings-texture-draws.gltrace')
        r = run([gltrace, 'trim', settings, '--frames', '7-8', '-o', out])
        n, levels = texture_counts(r.stdout)
        ck.check(f'settings 7-8: its three draws and clears into the framebuffer object\'s texture left out ({n}), '
                 'exact on the first try, with no draw in the setup', r.returncode == 0 and n == 3 and levels == 1 and
                 'note: without' not in r.stdout and 'checked: its replay matches 2 of 2' in r.stdout and
                 setup_fns(out).count('glDrawArrays') == 0, r.stdout)
    if traces['passes']:
        sizes = []
        for k in (3, 6):
            out = check_trim('passes', traces['passes'], '--frames', k, k + 2)
            r = run([gltrace, 'trim', traces['passes'], '--frames', f'{k}-{k + 2}', '-o', out]) if out else None
            n, levels = texture_counts(r.stdout) if r else (0, 0)
            setup = setup_fns(out) if out else []
            sizes.append(len(setup))
            # Frames 0..k-1's passes (a clear, two draws, a blit each), the
            # app's clear of its texture and of the stencil. The resolved
            # texture is written; the app's own, which these frames never
            # reach (neither bound at the start nor named, nor attached to a
            # framebuffer that is), is not.
            ck.check(f'passes {k}-{k + 2}: every earlier pass left out ({n} = {4 * k + 2}), one texture written '
                     f'({levels}); no draw or blit in the setup',
                     n == 4 * k + 2 and levels == 1 and 'glBlitFramebuffer' not in setup and
                     setup.count('glDrawArrays') == 0, (r.stdout if r else None, {f: setup.count(f) for f in set(setup)}))
        ck.check(f'passes: the setup does not grow with the start ({sizes})', len(sizes) == 2 and sizes[0] == sizes[1],
                 sizes)
        kept = []
        for k in (3, 6):
            out = os.path.join(work, f'passes-keep-{k}.gltrace')
            r = run([gltrace, 'trim', traces['passes'], '--frames', f'{k}-{k + 2}', '--keep-texture-draws', '-o', out])
            kept.append(len(setup_fns(out)) if r.returncode == 0 else -1)
        ck.check(f'passes --keep-texture-draws: replays exactly, every pass kept: the setup grows ({kept})',
                 kept[0] > 0 and kept[1] > kept[0] + 20, kept)
        # The sixth pass: its stencil draw (after glStencilOp ... GL_INCR_WRAP), then its cover.
        recs = list(gt.dump(gltrace, traces['passes']).objects())
        incr = [i for i, x in enumerate(recs) if x.get('fn') == 'glStencilOp' and 'INCR' in str(x.get('args'))]
        draw = next((x.get('seq') for x in recs[incr[5]:] if x.get('fn') == 'glDrawArrays'), None) if len(incr) > 5 else None
        out = draw and check_trim('passes', traces['passes'], '--calls', draw + 1, draw + 40)
        setup = setup_fns(out) if out else []
        ck.check('passes --calls from inside the sixth pass: its stencil draw stays (the one draw in the setup)',
                 bool(out) and setup.count('glDrawArrays') == 1, {f: setup.count(f) for f in set(setup)})


def loops_written():
    """`gltrace replay TRIM --loop 2` of trim_app's trims: the reset writes
    back the textures drawn into, the attachments and vertex arrays the
    kept frames change, and every repeated snapshot matches; a buffer
    mapped before the kept frames and unmapped in them makes each repeat
    replay the setup again, and replay says why."""
    record('trim_app_units', [trim_app, 'units'])
    for mode, how in (('passes', 'a texture drawn into'), ('download', 'attachments changed'),
                      ('perframe', 'vertex array pointers set'), ('units', 'bindings at texture units 40 and 41, a buffer rewritten')):
        trace = os.path.join(work, f'trim_app_{mode}.gltrace')
        cut = os.path.join(work, f'{mode}-loop.gltrace')
        t = run([gltrace, 'trim', trace, '--frames', '3-5', '-o', cut]) if os.path.exists(trace) else None
        lp = run([gltrace, 'replay', cut, '--loop', '2', '--no-progress']) if t and t.returncode == 0 else None
        m = re.search(r'2 of 2 repeats reset by writing back the state the kept calls changed \((\d+) calls\)',
                      lp.stderr) if lp else None
        ck.check(f'{mode} frames 3-5 --loop 2 ({how}): both repeats reset by writing back, all 6 repeated '
                 'snapshots match', m is not None and int(m.group(1)) > 0 and lp.returncode == 0 and
                 'each from a reset: 6 of their 6 snapshots' in lp.stderr, (t and t.stdout, lp and lp.stderr))
    trace = os.path.join(work, 'trim_app_map.gltrace')
    cut = os.path.join(work, 'map-loop.gltrace')
    t = run([gltrace, 'trim', trace, '--frames', '3-5', '-o', cut]) if os.path.exists(trace) else None
    lp = run([gltrace, 'replay', cut, '--loop', '2', '--no-progress']) if t and t.returncode == 0 else None
    ck.check('map frames 3-5 --loop 2: a buffer mapped before the kept frames: each repeat replays the setup again, '
             'saying why, and matches', lp is not None and lp.returncode == 0 and
             '2 of 2 repeats reset by replaying its setup again into new contexts: the kept calls change a buffer '
             'mapped before them (glUnmapBuffer' in lp.stderr and 'each from a reset: 6 of their 6' in lp.stderr,
             lp and lp.stderr)


def named_by_target():
    """trim_app copies: its frames fill a texture of their own with
    glCopyImageSubData (names given with a target: a texture's, then a
    renderbuffer's), label it (glObjectLabel) and draw under
    NV_conditional_render. A trim leaves out the textures made and
    deleted first, so every later texture's name differs on replay: a
    trim exact on the first try (mapping those names as any other), with
    the renderbuffer and the copies' two sources kept. The earlier frames'
    copies, labels, queries and conditional rendering go with the textures
    and queries they deleted (a copy's destination and a label are that
    object's contents; conditional rendering is its query's), so the setup
    raises no GL error when replayed (before, each earlier frame's copies
    into a texture whose storage was left out, and its conditional
    rendering on a query never begun, did: checked by hand)."""
    trace = record('trim_app_copies', [trim_app, 'copies'])
    gone = ('glCopyImageSubData', 'glObjectLabel', 'glBeginConditionalRenderNV', 'glEndConditionalRenderNV',
            'glBeginQuery', 'glDeleteQueries')
    for k in (2, 5):
        out = os.path.join(work, f'copies-{k}.gltrace')
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '-o', out]) if trace else None
        setup = setup_records(out) if r and r.returncode == 0 else []
        sizes = [x.get('args', {}).get('width') for x in setup if x.get('fn') == 'glTexStorage2D']
        ck.check(f'copies {k}-{k + 2}: exact on the first try; the setup keeps the copies\' two sources and the '
                 f'renderbuffer, and leaves the three textures deleted before them out',
                 r is not None and r.returncode == 0 and 'note: without' not in r.stdout and
                 f'checked: its replay matches 3 of 3' in r.stdout and sizes.count(32) == 2 and 8 not in sizes and
                 any(x.get('fn') == 'glRenderbufferStorage' for x in setup), (r and r.stdout, sizes))
        fns = [x.get('fn') for x in setup]
        ck.check(f'copies {k}-{k + 2}: the setup has none of the earlier frames\' copies, labels, queries and '
                 'conditional rendering (all of them on objects deleted before the start)',
                 bool(setup) and not any(f in fns for f in gone), {f: fns.count(f) for f in gone})
        ck.check(f'copies {k}-{k + 2}: its replay raises no GL error (gltrace record --mode=error)',
                 bool(setup) and no_gl_errors(out), out)
        # The copies write the frames' own textures (api/annotations.txt
        # `writes`) and their queries are their own: --loop writes a reset.
        ck.check(f'copies {k}-{k + 2}: --loop repeats it from a written reset (its setup not replayed again)',
                 r is not None and 'write back the state they changed' in r.stdout and
                 'setup replayed again' not in r.stdout, r and r.stdout[-400:])


def main():
    os.makedirs(work, exist_ok=True)
    sample_apps()
    gles1_matrices()
    lights()
    hard_starts()
    deleted_objects()
    leaked_framebuffers()
    deleted_programs()
    chained_passes()
    unpack_rows()
    invalidations()
    first_binding()
    idle_switches()
    refused_commands()
    atlas_uploads()
    glyph_atlases()
    unused_names()
    stencil_counts()
    pass_framebuffers()
    superseded_writes()
    state_commands()
    offsets_ahead()
    texture_draws()
    pack_reads()
    queries_and_scissored_clears()
    objects_per_frame()
    loops_written()
    named_by_target()


main()
ck.exit()
