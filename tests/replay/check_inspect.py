#!/usr/bin/env python3
"""`gltrace inspect`: the state after chosen calls. The samples es3_scene
(GLES 3), es2_triangle (GLES 2) and gles1_scene (GLES 1.1), recorded with
GT_SAMPLE_PRINT_STATE set, print some of their GL state after each draw;
the dump at each draw must hold the same values (object names as the trace
knows them), parse as JSON, hold the texture es3_scene uploaded (a PNG
equal to its checkerboard) and the uniform buffer it wrote; --diff-from
lists exactly what gles1_scene changed between two draws; misuse exits 2.
uploads: every layer of its 3D and 2D array textures and every face of its
cube map dump as the data it uploaded (the unpack state applied), its
compressed texture says why it cannot be read, its transform feedback
buffer holds what the draw captured. depth_stencil: the depth and stencil
attachments dumped at each draw are the bytes the app read back after it.

usage: check_inspect.py GLTRACE APPS_DIR WORK_DIR"""
import functools
import json
import os
import re
import shutil
import struct
import sys
import time

import gltest as gt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'apps'))
import check_uploads as cu  # noqa: E402  (the uploads table, mirrored from uploads.c)


gltrace, apps, work = sys.argv[1:4]
run = functools.partial(gt.run, env=gt.gl_env(headless=True), timeout=600)
ck = gt.Checker('replay.inspect')
os.makedirs(work, exist_ok=True)
GL = {}
for header in ('/usr/include/GLES3/gl32.h', '/usr/include/GLES/gl.h', '/usr/include/GLES2/gl2ext.h'):
    if os.path.exists(header):
        for m in re.finditer(r'#define (GL_\w+)\s+(0x[0-9A-Fa-f]+|\d+)\b', open(header).read()):
            GL.setdefault(m.group(1), int(m.group(2), 0))


def record(app, printing=True):
    trace = os.path.join(work, app + '.gltrace')
    env = dict(gt.gl_env(headless=True), GT_SAMPLE_PRINT_STATE='1')
    r = gt.run([gltrace, 'record', '-o', trace, '--', os.path.join(apps, app)], env=env, timeout=600)
    printed = [json.loads(line[len('GT_STATE '):]) for line in r.stdout.splitlines()
               if line.startswith('GT_STATE ')]
    ck.check(f'{app} recorded' + (', printing its state after each draw' if printing else ''),
             r.returncode == 0 and (printed or not printing), r.stderr)
    d = run([gltrace, 'dump', '--json', trace])
    fns = {int(m.group(1)): m.group(2) for m in re.finditer(r'"seq":(\d+),[^\n]*?"fn":"(\w+)"', d.stdout)}
    return trace, printed, fns


def same(dumped, want):
    """A dumped value against the app's: names by their recorded number,
    enums by name, floats to 6 digits."""
    if isinstance(dumped, dict) and 'recorded' in dumped:
        dumped = dumped['recorded']
    if isinstance(dumped, str) and dumped in GL:
        dumped = GL[dumped]
    if isinstance(want, list):
        return isinstance(dumped, list) and len(dumped) == len(want) and all(
            same(a, b) for a, b in zip(dumped, want))
    if isinstance(want, bool) or isinstance(dumped, bool):
        return bool(dumped) == bool(want) and isinstance(dumped, bool)
    return isinstance(dumped, (int, float)) and abs(dumped - want) <= 1e-6 * max(1, abs(want))


def lookup(state, section, key, index=None):
    """The dump's value of KEY; sections the app keys by index (units,
    lights, indexed) are lists in the dump."""
    if section == 'units':
        return state['texture_units'][int(index)].get(key)
    if section == 'lights':
        return state['lights'][int(index)].get(key)
    if section == 'attribs':
        return state['vertex_attribs'][int(index)].get(key)
    if section == 'uniforms':
        return next((u['value'] for u in state['program']['uniforms'] if u['name'] == key), None)
    if section == 'indexed':
        return state['indexed'][key][int(index)]
    return state[section].get(key)


def compare(app, state, want):
    bad = []
    for section, values in want.items():
        if section == 'frame':
            continue
        for key, v in values.items():
            if isinstance(v, dict):  # index -> {key: value} or key -> {index: value}
                for sub, w in v.items():
                    k, i = (sub, key) if section in ('units', 'lights', 'attribs') else (key, sub)
                    got = lookup(state, section, k, i)
                    if not same(got, w):
                        bad.append(f'{section}[{i}].{k}: dumped {got}, the app had {w}')
            else:
                got = lookup(state, section, key)
                if not same(got, v):
                    bad.append(f'{section}.{key}: dumped {got}, the app had {v}')
    return bad


def inspect(trace, calls, out, *more):
    shutil.rmtree(out, ignore_errors=True)
    return run([gltrace, 'inspect', trace, calls, '--out', out] + list(more))


for app, draw_fn in (('es3_scene', 'glDrawElementsInstanced'), ('es2_triangle', 'glDrawArrays'),
                     ('gles1_scene', 'glDrawArrays')):
    trace, printed, fns = record(app)
    draws = sorted(s for s, f in fns.items() if f == draw_fn)
    ck.check(f'{app}: one printed state per {draw_fn}', len(draws) == len(printed) > 0, (draws, len(printed)))
    out = os.path.join(work, app + '-draws')
    p = inspect(trace, ','.join(map(str, draws)), out)
    ck.check(f'{app}: gltrace inspect at its draws exits 0', p.returncode == 0, p.stderr)
    for seq, want in zip(draws, printed):
        path = os.path.join(out, f'call-{seq}', 'state.json')
        try:
            state = json.load(open(path))
        except (OSError, ValueError) as e:
            ck.check(f'{app}: {path} parses as JSON', False, e)
            continue
        ck.check(f'{app}: state.json names its call', state['call'] == seq and state['function'] == draw_fn,
                 (state.get('call'), state.get('function')))
        bad = compare(app, state, want)
        ck.check(f'{app}: the state at call {seq} is what the app queried there', not bad, bad)
    if app == 'es3_scene':
        last = os.path.join(out, f'call-{draws[-1]}')
        state = json.load(open(os.path.join(last, 'state.json')))
        tex = [t for t in state['textures'] if t['target'] == 'GL_TEXTURE_2D']
        img = tex and tex[0].get('levels') and tex[0]['levels'][0]['images'][0].get('file')
        want = bytes(b for i in range(16) for b in [0x80 if (i + i // 4) & 1 else 0xff] * 4)
        ok = bool(img) and gt.png_rgba(os.path.join(last, img)) == want
        ck.check('es3_scene: its texture level 0 dumps as the checkerboard it uploaded', ok, (img, tex[:1]))
        ubo = [b for b in state['buffers'] if b['bound_as'].startswith('GL_UNIFORM_BUFFER_BINDING')]
        frame = len(draws) - 1
        want = struct.pack('<8f', 1.0, 1.0 - 0.25 * frame, 0.5, 1.0, 0.5, 0.5, 0.0, 0.0)
        got = open(os.path.join(last, ubo[0]['file']), 'rb').read() if ubo and 'file' in ubo[0] else b''
        ck.check('es3_scene: the uniform buffer dumps as the block it wrote last', got == want, (got, want))
        shaders = state['program']['shaders'] if state.get('program') else []
        ck.check('es3_scene: both shader sources written',
                 len(shaders) == 2 and all(os.path.getsize(os.path.join(last, s['source'])) > 0 for s in shaders),
                 shaders)
        # The time of a dump at the last draw against the replay up to it.
        t = time.time()
        p = inspect(trace, str(draws[-1]), os.path.join(work, 'one'))
        m = re.search(r'replay ([\d.]+) s, of which dumps ([\d.]+) s', p.stderr)
        ck.check('es3_scene: one dump takes under a second', m and float(m.group(2)) < 1.0, p.stderr)
    if app == 'gles1_scene':
        out = os.path.join(work, 'gles1-diff')
        p = inspect(trace, str(draws[1]), out, '--diff-from', str(draws[0]))
        try:
            diff = json.load(open(os.path.join(out, 'diff.json')))
        except (OSError, ValueError) as e:
            diff = {'changes': [], 'error': str(e)}
        paths = sorted(c['path'] for c in diff['changes'])
        # Between the first two glDrawArrays: glClearColor and the modelview
        # matrix (glLoadIdentity, glTranslatef, glRotatef); the colour array
        # was enabled and disabled again.
        ck.check('gles1_scene: --diff-from lists exactly the clear colour and the modelview matrix',
                 p.returncode == 0 and paths == ['/get/GL_COLOR_CLEAR_VALUE', '/get/GL_MODELVIEW_MATRIX'],
                 (p.stderr, diff))
        before = [c for c in diff['changes'] if c['path'] == '/get/GL_MODELVIEW_MATRIX']
        ck.check('gles1_scene: the change holds both values, as the app had them',
                 before and same(before[0]['before'], printed[0]['get']['GL_MODELVIEW_MATRIX'])
                 and same(before[0]['after'], printed[1]['get']['GL_MODELVIEW_MATRIX']), before)



def fnv1a(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h


def uploaded_textures():
    """{(target, face): (w, h, d, RGBA bytes)} after uploads.c's texture
    uploads 11-23 (3D, 2D array, cube map), the unpack state applied; RGB
    reads back with alpha 255."""
    tex = {}
    for i, u in enumerate(cu.UPLOADS):
        fn, target, _, (x0, y0, z0), (w, h, d), fmt, typ, (al, rl, sp, sr, ih, si) = u
        if target == 'GL_TEXTURE_2D':
            continue
        key = ('GL_TEXTURE_CUBE_MAP', cu.CUBE.index(target)) if target in cu.CUBE else (target, 0)
        src, bpp = cu.pattern(cu.upload_bytes(u), 10 + i), cu.TEXEL[(fmt, typ)]
        three = fn in (cu.T3, cu.S3)
        row = -(-((rl or w) * bpp) // al) * al
        image = row * (ih if three and ih else h)
        if fn in (cu.T2, cu.T3):
            tex[key] = (w, h, d, bytearray(w * h * d * 4))
        tw, th, td, px = tex[key]
        for z in range(d):
            for y in range(h):
                for x in range(w):
                    o = ((si if three else 0) + z) * image + (sr + y) * row + (sp + x) * bpp
                    texel = src[o:o + bpp] + (b'\xff' if bpp == 3 else b'')
                    t = (((z0 + z) * th + y0 + y) * tw + x0 + x) * 4
                    px[t:t + 4] = texel
    return tex


def check_uploads():
    trace, _, fns = record('uploads', printing=False)
    order = sorted(fns)
    etc = next(s for s in order if fns[s] == 'glCompressedTexImage2D')
    last = max(s for s in order if s < etc and fns[s] == 'glTexSubImage2D')
    end_xfb = next(s for s in order if fns[s] == 'glEndTransformFeedback')
    etc_sub = next(s for s in order if fns[s] == 'glCompressedTexSubImage2D')
    out = os.path.join(work, 'uploads-dumps')
    p = inspect(trace, f'{last},{etc_sub},{end_xfb}', out)
    ck.check('uploads: gltrace inspect at its uploads exits 0', p.returncode == 0, p.stderr)
    d = os.path.join(out, f'call-{last}')
    state = json.load(open(os.path.join(d, 'state.json')))
    by_target = {t['target']: t for t in state['textures']}
    for (target, face), (w, h, depth, px) in sorted(uploaded_textures().items()):
        t = by_target.get(target)
        images = t['levels'][0]['images'] if t and t.get('levels') else []
        layers = [(face, 0)] if target == 'GL_TEXTURE_CUBE_MAP' else [(z, z) for z in range(depth)]
        for z, src in layers:
            img = images[z] if z < len(images) else {}
            got = gt.png_rgba(os.path.join(d, img['file'])) if 'file' in img else None
            want = bytes(px[src * w * h * 4:(src + 1) * w * h * 4])
            ck.check(f'uploads: {target} level 0 {"face" if face or target.endswith("MAP") else "layer"} {z} '
                     'dumps as the data uploaded', got == want, (img, got, want))
    state = json.load(open(os.path.join(out, f'call-{etc_sub}', 'state.json')))
    t2d = [t for t in state['textures'] if t['target'] == 'GL_TEXTURE_2D']
    img = t2d[0]['levels'][0]['images'][0] if t2d and t2d[0].get('levels') else {}
    ck.check('uploads: the ETC2 texture says it is compressed, with its format',
             img.get('unreadable') == 'compressed: not readable on GLES'
             and img.get('format') == 'GL_COMPRESSED_RGBA8_ETC2_EAC', img)
    d = os.path.join(out, f'call-{end_xfb}')
    state = json.load(open(os.path.join(d, 'state.json')))
    pts = [cu.fval(j, 70) for j in range(12)]
    want = struct.pack('<15f', *[x for v in range(3) for x in [2 * p for p in pts[4 * v:4 * v + 4]]
                                 + [sum(pts[4 * v:4 * v + 4])]])
    bufs = state.get('transform_feedback', {}).get('buffers', [])
    got = open(os.path.join(d, bufs[0]['file']), 'rb').read() if bufs and 'file' in bufs[0] else None
    ck.check('uploads: the transform feedback buffer at index 0 holds what the draw captured',
             got == want and bufs[0]['index'] == 0, (bufs, got, want))


def check_depth_stencil():
    trace, printed, fns = record('depth_stencil')
    draws = sorted(s for s, f in fns.items() if f == 'glDrawArrays')
    ck.check('depth_stencil: one printed readback per draw', len(draws) == len(printed) > 0, (draws, printed))
    out = os.path.join(work, 'depth-dumps')
    p = inspect(trace, ','.join(map(str, draws)), out)
    ck.check('depth_stencil: gltrace inspect at its draws exits 0', p.returncode == 0, p.stderr)
    for seq, want in zip(draws, printed):
        d = os.path.join(out, f'call-{seq}')
        atts = json.load(open(os.path.join(d, 'state.json')))['framebuffers']['draw']['attachments']
        for part, key in (('depth', 'depth_fnv1a'), ('stencil', 'stencil_fnv1a')):
            a = atts.get(f'GL_{part.upper()}') or atts.get(f'GL_{part.upper()}_ATTACHMENT') or {}
            raw = open(os.path.join(d, a['raw']), 'rb').read() if 'raw' in a else b''
            ck.check(f'depth_stencil: the {part} attachment at call {seq} is what the app read back',
                     fnv1a(raw) == want[key] and len(raw) == want['width'] * want['height'] * (4 if part == 'depth' else 1)
                     and os.path.exists(os.path.join(d, a.get('file') or '-')), (a, len(raw)))


check_uploads()
check_depth_stencil()

p = run([gltrace, 'inspect', os.path.join(work, 'es3_scene.gltrace'), '10'])
ck.check('no --out: exit 2 naming it', p.returncode == 2 and '--out' in p.stderr, p.stderr)
p = run([gltrace, 'inspect', os.path.join(work, 'es3_scene.gltrace'), '30-20', '--out', os.path.join(work, 'x')])
ck.check('a backwards call set: exit 2', p.returncode == 2 and '30-20' in p.stderr, p.stderr)
ck.exit()
