#!/usr/bin/env python3
"""gltrace trim on a real program's long run: glmark2-es2 (four scenes in
one process, a new context per scene, thousands of frames) recorded under
an Xvfb of the test's own, three frames cut out at a few points, each trim
replayed headless on its own: exit 0, every snapshot matched, its
snapshots the original's of those frames, its setup under a tenth of the
calls before them (the setup of a three-frame trim is the state those
frames start from, not the run before them) and its size under half the
original's (a trim's bytes are mostly its scene's assets and its own
snapshots). The same of es2gears_x11 (mesa-utils), stopped by SIGTERM. The
buffer scene, which rewrites all of its vertex buffer every frame: the
trim keeps the last rewrite, under 5% of the trace (all of them: 27%);
by glBufferSubData and, as it does by default, by mapping the buffer. The
desktop scene, whose client arrays move every frame: its frames repeat,
and the setup does not grow with the start. The terrain scene, which
sets each next frame's noise offset after its last draw: its frames
repeat, and the trims are exact on the first try with setups of one size.
An --off-screen run (no swaps: a
snapshot at each glFinish) is cut by calls. Exit 77 (skipped) when Xvfb or
glmark2-es2 is not installed.

usage: check_trim_glmark2.py GLTRACE WORK_DIR"""
import os
import re
import shutil
import sys

import gltest as gt

gltrace, work = sys.argv[1:3]
HEADLESS = gt.gl_env(headless=True)
ck = gt.Checker('trim.glmark2')
SCENES = ['build:use-vbo=true', 'texture', 'effect2d', 'jellyfish']


def run(argv, env=HEADLESS):
    return gt.run(argv, env=env, timeout=600)


def snapshots(trace, frames=None, calls=None):
    out, frame = [], 0
    for r in gt.dump(gltrace, trace).objects():
        fn = r.get('fn', '')
        if fn == 'gltraceSnapshot':
            if ((frames is None or frames[0] <= frame <= frames[1]) and
                    (calls is None or calls[0] <= r.get('seq', -1) <= calls[1])):
                fb = r.get('fb', {})
                out.append((fb.get('width'), fb.get('height'), fb.get('fnv1a')))
        elif fn.startswith('eglSwapBuffers'):
            frame += 1
    return out


def check_trim(name, trace, how, first, last):
    label = f'{name} {how} {first}-{last}'
    out = os.path.join(work, f'{name}-{first}-{last}.gltrace')
    r = run([gltrace, 'trim', trace, how, f'{first}-{last}', '-o', out])
    if not ck.check(f'{label}: trim exits 0, its replay checked', r.returncode == 0 and 'checked:' in r.stdout,
                    (r.returncode, r.stdout, r.stderr[-500:])):
        return
    print('   ' + r.stdout.replace('\n', '\n   '))
    rp = run([gltrace, 'replay', out])
    s = gt.replay_summary(rp.stderr)
    ck.check(f'{label}: replays on its own, every snapshot matched', rp.returncode == 0 and s and s[0] > 0 and
             s[1] == s[0], (rp.returncode, rp.stderr[-500:]))
    want = snapshots(trace, frames=(first, last) if how == '--frames' else None,
                     calls=(first, last) if how == '--calls' else None)
    ck.check(f'{label}: its snapshots are the original\'s ({len(want)})', want and snapshots(out) == want)
    m = re.search(r'after a setup of (\d+) of the (\d+) calls before them', r.stdout)
    ck.check(f'{label}: a setup of under a tenth of the calls before the start', m and
             int(m.group(1)) * 10 < int(m.group(2)), r.stdout)
    size, orig = os.path.getsize(out), os.path.getsize(trace)
    # The bytes are mostly the scene's own assets (a model, a texture: up to
    # a few MB in jellyfish) and the three snapshots, which do not shrink
    # with the run; the setup's calls above are what a trim must not carry.
    if how == '--frames':  # (the --off-screen run is short: its own snapshots weigh most)
        ck.check(f'{label}: {size} bytes, under half the original\'s {orig}', size * 2 < orig)


def main():
    os.makedirs(work, exist_ok=True)
    tools = {t: shutil.which(t) for t in ('Xvfb', 'glmark2-es2')}
    if not all(tools.values()):
        print(f'skipped: not installed: {[t for t, p in tools.items() if not p]} (ci/setup.sh installs them)')
        sys.exit(77)
    xvfb, display, _ = gt.start_xvfb()
    if not ck.check('Xvfb started', display):
        return
    xenv = gt.gl_env(headless=True, DISPLAY=display)
    long_run = os.path.join(work, 'mix.gltrace')
    off = os.path.join(work, 'offscreen.gltrace')
    try:
        args = [x for s in SCENES for x in ('-b', f'{s}:duration=1')]
        r = run([gltrace, 'record', '-o', long_run, '--', tools['glmark2-es2'], '--size', '160x120', *args], env=xenv)
        ok = ck.check('glmark2-es2 scene mix recorded', r.returncode == 0 and os.path.exists(long_run), r.stderr[-500:])
        r = run([gltrace, 'record', '-o', off, '--', tools['glmark2-es2'], '--off-screen', '--size', '160x120',
                 '-b', 'shading:shading=phong:duration=1'], env=xenv)
        ok_off = ck.check('glmark2-es2 --off-screen recorded', r.returncode == 0 and os.path.exists(off),
                          r.stderr[-500:])
        # The buffer scene rewrites all of its vertex buffer every frame
        # (glBufferSubData of the whole): a trim keeps the last write only.
        buf = os.path.join(work, 'buffer.gltrace')
        r = run([gltrace, 'record', '-o', buf, '--', tools['glmark2-es2'], '--size', '160x120', '-b',
                 'buffer:update-fraction=1.0:update-method=subdata:columns=50:duration=1'], env=xenv)
        ok_buf = ck.check('glmark2-es2 buffer scene recorded', r.returncode == 0 and os.path.exists(buf),
                          r.stderr[-500:])
        # The same scene by default maps each vertex buffer whole, writes
        # it and unmaps it every frame: the trim keeps the last mapping.
        bufmap = os.path.join(work, 'buffer-map.gltrace')
        r = run([gltrace, 'record', '-o', bufmap, '--', tools['glmark2-es2'], '--size', '160x120', '-b',
                 'buffer:columns=50:duration=1'], env=xenv)
        ok_bufmap = ck.check('glmark2-es2 buffer scene (mapped) recorded', r.returncode == 0 and os.path.exists(bufmap),
                             r.stderr[-500:])
        # The desktop scene draws its windows from client arrays whose
        # float vertices move every frame (and into framebuffer objects).
        desk = os.path.join(work, 'desktop.gltrace')
        r = run([gltrace, 'record', '-o', desk, '--', tools['glmark2-es2'], '--size', '160x120', '-b',
                 'desktop:duration=1'], env=xenv)
        ok_desk = ck.check('glmark2-es2 desktop scene recorded', r.returncode == 0 and os.path.exists(desk),
                           r.stderr[-500:])
        # The terrain scene renders its height map, normal map and passes
        # into textures each frame, and sets the next frame's noise offset
        # after its last draw.
        terr = os.path.join(work, 'terrain.gltrace')
        r = run([gltrace, 'record', '-o', terr, '--', tools['glmark2-es2'], '--size', '160x120', '-b',
                 'terrain:duration=4'], env=xenv)  # 1 frame in 2 s seen under ctest -j2
        ok_terr = ck.check('glmark2-es2 terrain scene recorded', r.returncode == 0 and os.path.exists(terr),
                           r.stderr[-500:])
        gears = os.path.join(work, 'gears.gltrace')
        ok_gears = False
        if shutil.which('es2gears_x11') and shutil.which('timeout'):
            # timeout signals its process group: gltrace record and the app, as a user's ^C would.
            r = run(['timeout', '-s', 'TERM', '4', gltrace, 'record', '-o', gears, '--', 'es2gears_x11'], env=xenv)
            ok_gears = ck.check('es2gears_x11 recorded until stopped by SIGTERM', os.path.exists(gears), r.stderr[-500:])
        else:
            print('note: es2gears_x11 (mesa-utils) not installed: no es2gears trim')
    finally:
        xvfb.terminate()
        xvfb.wait()
    if ok:
        _, obj = gt.info(gltrace, long_run)
        frames = obj.get('frames', 0) if obj else 0
        ck.check(f'a long run ({frames} frames)', frames > 200, obj)
        for k in (frames // 8, frames // 2, frames * 7 // 8):
            check_trim('mix', long_run, '--frames', k, k + 2)
    if ok_buf:
        _, obj = gt.info(gltrace, buf)
        frames = obj.get('frames', 0) if obj else 0
        if ck.check(f'buffer scene: {frames} frames', frames > 20, obj):
            k = frames // 2
            out = os.path.join(work, f'buffer-{k}.gltrace')
            r = run([gltrace, 'trim', buf, '--frames', f'{k}-{k + 2}', '-o', out])
            m = re.search(r'uploads a later whole one replaced, into \d+ textures and buffers \((\d+) calls\)', r.stdout)
            size, orig = (os.path.getsize(out), os.path.getsize(buf)) if r.returncode == 0 else (0, 1)
            ck.check(f'buffer scene frames {k}-{k + 2}: the vertex buffer\'s earlier whole rewrites left out '
                     f'(at least one a frame: {m.group(1) if m else None} for {k} frames), {size} bytes under 5% of {orig}, '
                     'replaying exactly',
                     r.returncode == 0 and m and int(m.group(1)) >= k and size * 20 < orig and
                     'checked: its replay matches 3 of 3' in r.stdout, (r.stdout, r.stderr[-500:]))
    if ok_bufmap:
        _, obj = gt.info(gltrace, bufmap)
        frames = obj.get('frames', 0) if obj else 0
        if ck.check(f'buffer scene (mapped): {frames} frames', frames > 20, obj):
            k = frames // 2
            out = os.path.join(work, f'buffer-map-{k}.gltrace')
            r = run([gltrace, 'trim', bufmap, '--frames', f'{k}-{k + 2}', '-o', out])
            m = re.search(r'uploads a later whole one replaced, into \d+ textures and buffers \((\d+) calls\)', r.stdout)
            size, orig = (os.path.getsize(out), os.path.getsize(bufmap)) if r.returncode == 0 else (0, 1)
            # A mapping that goes is three records: the map, its data, the unmap.
            ck.check(f'buffer scene (mapped) frames {k}-{k + 2}: the earlier mappings of all of a buffer left out '
                     f'(three records each, one a frame at least: {m.group(1) if m else None} for {k} frames), '
                     f'{size} bytes under 5% of {orig}, replaying exactly on the first try',
                     r.returncode == 0 and m and int(m.group(1)) >= 3 * k and size * 20 < orig and
                     'checked: its replay matches 3 of 3' in r.stdout and 'note:' not in r.stdout,
                     (r.stdout, r.stderr[-500:]))
    if ok_desk:
        _, obj = gt.info(gltrace, desk)
        frames = obj.get('frames', 0) if obj else 0
        if ck.check(f'desktop scene: {frames} frames', frames > 20, obj):
            setups = []
            for k in (frames // 4, frames * 3 // 4):
                out = os.path.join(work, f'desktop-{k}.gltrace')
                r = run([gltrace, 'trim', desk, '--frames', f'{k}-{k + 2}', '-o', out])
                m = re.search(r'after a setup of (\d+) of', r.stdout)
                rep = re.search(r'(\d+) frames a later one repeats', r.stdout)
                setups.append(int(m.group(1)) if m else -1)
                ck.check(f'desktop frames {k}-{k + 2}: frames whose client arrays differ in floats only are '
                         f'repeats ({rep.group(1) if rep else None} of {k}), replaying exactly on the first try',
                         r.returncode == 0 and rep and int(rep.group(1)) >= k // 2 and
                         'checked: its replay matches 3 of 3' in r.stdout and 'note:' not in r.stdout,
                         (r.stdout, r.stderr[-500:]))
            ck.check(f'desktop: the setup does not grow with the start ({setups[0]} and {setups[1]} calls)',
                     0 < setups[0] and 0 < setups[1] <= setups[0] + 50, setups)
    if ok_terr:
        _, obj = gt.info(gltrace, terr)
        frames = obj.get('frames', 0) if obj else 0
        # A start at frame 2 has no repeated frame before it (frame 1 sets
        # the offset frame 0 drew at): its setup is smaller than the steady
        # one from frame 3 on. A loaded machine records few frames (9 in
        # 2 s), and frames // 4 was 2 then.
        early = max(3, frames // 4)
        late = max(early + 2, frames * 3 // 4 - 2)
        if ck.check(f'terrain scene: {frames} frames', frames >= late + 3, obj):
            setups = []
            for k in (early, late):
                out = os.path.join(work, f'terrain-{k}.gltrace')
                r = run([gltrace, 'trim', terr, '--frames', f'{k}-{k + 2}', '-o', out])
                m = re.search(r'after a setup of (\d+) of', r.stdout)
                rep = re.search(r'(\d+) frames a later one repeats', r.stdout)
                setups.append(int(m.group(1)) if m else -1)
                ck.check(f'terrain frames {k}-{k + 2}: frames that differ in their offsets only are repeats '
                         f'({rep.group(1) if rep else None} of {k}), replaying exactly on the first try, the state at '
                         'the start the original\'s', r.returncode == 0 and rep and int(rep.group(1)) >= k // 2 and
                         'checked: its replay matches 3 of 3' in r.stdout and 'note:' not in r.stdout and
                         'is the original\'s' in r.stdout, (r.stdout, r.stderr[-500:]))
            ck.check(f'terrain: the setup does not grow with the start ({setups[0]} and {setups[1]} calls)',
                     0 < setups[0] and setups[1] == setups[0], setups)
    if ok_gears:
        _, obj = gt.info(gltrace, gears)
        frames = obj.get('frames', 0) if obj else 0
        if ck.check(f'es2gears_x11: {frames} frames', frames > 20, obj):
            check_trim('gears', gears, '--frames', frames // 2, frames // 2 + 2)
    if ok_off:
        d = gt.dump(gltrace, off).objects()
        finishes = [r.get('seq') for r in d if r.get('fn') == 'glFinish']
        if ck.check('the --off-screen run ends frames with glFinish', len(finishes) > 20, len(finishes)):
            mid = len(finishes) // 2
            check_trim('offscreen', off, '--calls', finishes[mid] + 1, finishes[mid + 3] + 1)
        # Its frames end at its snapshots (one at each glFinish after a draw,
        # one attachment each): trim --frames cuts there.
        snaps = [(r.get('fb') or {}).get('fnv1a') for r in d if r.get('fn') == 'gltraceSnapshot']
        _, obj = gt.info(gltrace, off)
        k = len(snaps) // 3
        out = os.path.join(work, f'offscreen-frames-{k}.gltrace')
        r = run([gltrace, 'trim', off, '--frames', f'{k}-{k + 2}', '-o', out])
        got = [(x.get('fb') or {}).get('fnv1a') for x in gt.dump(gltrace, out).objects()
               if x.get('fn') == 'gltraceSnapshot'] if r.returncode == 0 else []
        ck.check(f'the --off-screen run: info counts its {len(snaps)} snapshots as its frames; trim --frames '
                 f'{k}-{k + 2} keeps those three, exact on the first try',
                 obj and obj.get('frames') == len(snaps) and obj.get('frames_end_at') == 'snapshots' and
                 r.returncode == 0 and '(3 frames, ended by snapshots: it never swaps)' in r.stdout and
                 'checked: its replay matches 3 of 3' in r.stdout and 'note:' not in r.stdout and
                 got == snaps[k:k + 3], (obj, r.stdout[-600:], r.stderr[-300:], got, snaps[k:k + 3]))


main()
ck.exit()
