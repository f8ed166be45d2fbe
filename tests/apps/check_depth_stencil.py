#!/usr/bin/env python3
"""Records depth_stencil with --fb=draw --fb-depth and checks the depth and
stencil snapshots: right after every colour snapshot (after each draw, and
before the swap) one of the depth (GL_DEPTH_COMPONENT/GL_UNSIGNED_INT,
4 bytes a pixel) and one of the stencil (GL_STENCIL_INDEX/GL_UNSIGNED_BYTE,
1 byte a pixel) of the same framebuffer and size: GL_DEPTH and GL_STENCIL
for the pbuffer, GL_DEPTH_ATTACHMENT and GL_STENCIL_ATTACHMENT for the
framebuffer object. Each has the FNV-1a of what the app then read back
itself with the same format and type, and what the app read holds, pixel
by pixel, the depth (within a few units of the 24-bit buffer) and the exact
stencil its depth and stencil tests leave. Then: recorded without
--fb-depth, only the colour snapshots, the same ones; and `gltrace replay`
of the --fb-depth trace matches every snapshot, depth and stencil included.

usage: check_depth_stencil.py --gltrace GLTRACE --app DEPTH_STENCIL --trace OUT.gltrace"""
import json
import os
import re
import struct

import gltest as gt
import apptrace as at


W, H = 64, 48          # the pbuffer
FBO_W, FBO_H = 40, 32  # the framebuffer object
# depth_stencil.c's quads: rectangle in quarters of the target (x0, y0, x1,
# y1), z, stencil func, ref, (sfail, dpfail, dppass), RGBA8 colour.
STEPS = [((0, 0, 2, 4), 0.0, 'GL_ALWAYS', 1, ('GL_KEEP', 'GL_KEEP', 'GL_REPLACE'), (255, 0, 0, 255)),
         ((0, 2, 4, 4), 0.5, 'GL_ALWAYS', 0x10, ('GL_KEEP', 'GL_INCR', 'GL_REPLACE'), (0, 255, 0, 255)),
         ((1, 1, 3, 3), -0.5, 'GL_EQUAL', 1, ('GL_KEEP', 'GL_KEEP', 'GL_INVERT'), (0, 0, 255, 255))]
CLEAR = (1.0, 0, (0, 0, 0, 255))  # depth, stencil, colour
# A 24-bit depth read as GL_UNSIGNED_INT: within this of depth * 0xffffffff
# (one unit of the 24-bit buffer is 256).
DEPTH_TOL = 1 << 12

# The snapshots after a draw into each target, in order: (source, attachment, object, format, type, bytes/px).
COLOR, DEPTH, STENCIL = ('GL_RGBA', 'GL_UNSIGNED_BYTE', 4), ('GL_DEPTH_COMPONENT', 'GL_UNSIGNED_INT', 4), \
    ('GL_STENCIL_INDEX', 'GL_UNSIGNED_BYTE', 1)
SURFACE_SNAPS = [('surface', 'GL_BACK', COLOR), ('surface', 'GL_DEPTH', DEPTH), ('surface', 'GL_STENCIL', STENCIL)]
FBO_SNAPS = [('attachment', 'GL_COLOR_ATTACHMENT0', COLOR), ('attachment', 'GL_DEPTH_ATTACHMENT', DEPTH),
             ('attachment', 'GL_STENCIL_ATTACHMENT', STENCIL)]

UNIFORMS = ['glUniform4f', 'glUniform1f', 'glUniform4fv', 'glStencilFunc', 'glStencilOp', 'glDrawArrays'] + \
    ['glReadPixels'] * 3
TARGET = ['glBindFramebuffer', 'glViewport', 'glUniform2f', 'glClearColor', 'glClearDepthf', 'glClearStencil',
          'glClear'] + UNIFORMS * len(STEPS)
EXPECTED = (['eglGetPlatformDisplay', 'eglInitialize'] + at.EGL_OPEN +
            ['glGetString', 'glGetIntegerv', 'glGetIntegerv'] + at.SHADER + at.SHADER +
            ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glLinkProgram', 'glGetProgramiv'] +
            ['glGetUniformLocation'] * 4 + ['glUseProgram',
             'glGenVertexArrays', 'glBindVertexArray', 'glGenBuffers', 'glBindBuffer', 'glBufferData',
             'glVertexAttribPointer', 'glEnableVertexAttribArray',
             'glGenRenderbuffers', 'glBindRenderbuffer', 'glRenderbufferStorage', 'glBindRenderbuffer',
             'glRenderbufferStorage', 'glGenFramebuffers', 'glBindFramebuffer', 'glFramebufferRenderbuffer',
             'glFramebufferRenderbuffer', 'glCheckFramebufferStatus',
             'glEnable', 'glDepthFunc', 'glEnable'] +
            TARGET * 2 +
            ['glBindFramebuffer', 'eglSwapBuffers', 'glGetError',
             'glDeleteFramebuffers', 'glDeleteRenderbuffers', 'glDeleteBuffers', 'glDeleteVertexArrays',
             'glDeleteProgram', 'glDeleteShader', 'glDeleteShader'] +
            at.EGL_CLOSE + ['eglTerminate'])
EGL_DEPTH_SIZE, EGL_STENCIL_SIZE, EGL_NONE = 0x3025, 0x3026, 0x3038


fnv1a, out_data = gt.fnv1a, at.out_data


def simulate(w, h, mirror):
    """What depth_stencil.c's quads leave in a w x h target, after each of
    them: [(depth floats, stencil bytes, RGBA8 tuples)], bottom row first
    (as glReadPixels reads)."""
    depth = [CLEAR[0]] * (w * h)
    stencil = [CLEAR[1]] * (w * h)
    color = [CLEAR[2]] * (w * h)
    after = []
    for (qx0, qy0, qx1, qy1), z, func, ref, ops, rgba in STEPS:
        x0, x1, y0, y1 = qx0 * w // 4, qx1 * w // 4, qy0 * h // 4, qy1 * h // 4
        if mirror:
            x0, x1 = w - x1, w - x0
        d = (z + 1) / 2
        for y in range(y0, y1):
            for x in range(x0, x1):
                p = y * w + x
                s = stencil[p]
                if not (func == 'GL_ALWAYS' or (func == 'GL_EQUAL' and s == ref)):
                    op = ops[0]
                elif not d < depth[p]:  # GL_LESS
                    op = ops[1]
                else:
                    op = ops[2]
                    depth[p] = d
                    color[p] = rgba
                stencil[p] = {'GL_KEEP': s, 'GL_REPLACE': ref, 'GL_INCR': min(s + 1, 255),
                              'GL_INVERT': ~s & 0xff}[op]
        after.append((list(depth), list(stencil), list(color)))
    return after


def walk(recs):
    """The draws (each with the snapshots right after it, the framebuffer
    bound and the app's glReadPixels before the next draw) and the swaps
    (each with the gltrace records right before it)."""
    draws, swaps = [], []
    bound = 0
    for i, r in enumerate(recs):
        fn, a = r.get('fn', ''), r.get('args', {})
        if fn == 'glBindFramebuffer':
            bound = a.get('framebuffer')
        elif fn == 'glDrawArrays':
            snaps = []
            for s in recs[i + 1:]:
                if s.get('fn') != 'gltraceSnapshot':
                    break
                snaps.append(s)
            draws.append({'draw': r, 'fbo': bound, 'snaps': snaps, 'reads': []})
        elif fn == 'glReadPixels' and draws:
            draws[-1]['reads'].append(r)
        elif fn == 'eglSwapBuffers':
            before = []
            for s in reversed(recs[:i]):
                if not s.get('fn', '').startswith('gltrace'):
                    break
                before.insert(0, s)
            swaps.append({'swap': r, 'before': before})
    return draws, swaps


def first_wrong(got, want, w, near=lambda g, e: g == e):
    """The first pixel where got and want disagree, as text ('' if none)."""
    for p, (g, e) in enumerate(zip(got, want)):
        if not near(g, e):
            return f'pixel ({p % w}, {p // w}): got {g}, expected {e}'
    return '' if len(got) == len(want) else f'{len(got)} pixels, {len(want)} expected'


def check_draw(ck, k, ev, fbo, model):
    on_fbo = k >= len(STEPS)
    step = k % len(STEPS)
    w, h = (FBO_W, FBO_H) if on_fbo else (W, H)
    label = f'{"framebuffer object" if on_fbo else "pbuffer"} draw {step}'
    ck.check(f'{label}: drawn with {"the framebuffer object" if on_fbo else "the pbuffer (framebuffer 0)"} bound',
             ev['fbo'] == (fbo if on_fbo else 0), ev['fbo'])
    got = [at.snap_summary(s, 'surface') for s in ev['snaps']]
    want = [{'source': src, 'attachment': att, 'object': fbo if on_fbo else 0, 'level': 0, 'layer': 0,
             'format': fmt, 'type': typ, 'width': w, 'height': h, 'bytes': w * h * bpp}
            for src, att, (fmt, typ, bpp) in (FBO_SNAPS if on_fbo else SURFACE_SNAPS)]
    ck.check(f'{label}: exactly three snapshots follow: colour (RGBA/UNSIGNED_BYTE), depth'
             f' (DEPTH_COMPONENT/UNSIGNED_INT) and stencil (STENCIL_INDEX/UNSIGNED_BYTE), all {w}x{h}, of '
             + ('GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT of the framebuffer object'
                if on_fbo else 'GL_BACK, GL_DEPTH, GL_STENCIL of the pbuffer'),
             [{k: v for k, v in g.items() if k not in ('fnv1a', 'surface')} for g in got] == want, got)
    if not on_fbo:
        surfaces = {g['surface'] for g in got}
        ck.check(f'{label}: the three name the same surface', len(surfaces) == 1 and None not in surfaces,
                 surfaces)

    reads = ev['reads']
    data = [out_data(r, 'pixels') for r in reads]
    formats = [{k: r['args'].get(k) for k in ('x', 'y', 'width', 'height', 'format', 'type')} for r in reads]
    want_reads = [{'x': 0, 'y': 0, 'width': w, 'height': h, 'format': f, 'type': t} for f, t, _ in
                  (COLOR, DEPTH, STENCIL)]
    if not ck.check(f'{label}: then the app reads colour, depth and stencil back ({w}x{h}, the same formats and'
                    f' types), the bytes recorded',
                    formats == want_reads and all(isinstance(d, bytes) for d in data) and
                    [len(d) for d in data] == [w * h * 4, w * h * 4, w * h],
                    {'reads': formats, 'bytes': [len(d) if isinstance(d, bytes) else d for d in data]}):
        return
    mism = [{'snapshot': g['attachment'], 'fnv1a': g['fnv1a'], 'app fnv1a': fnv1a(d)}
            for g, d in zip(got, data) if g['fnv1a'] != fnv1a(d)]
    ck.check(f'{label}: each snapshot has the FNV-1a of the bytes the app read back with the same format and type',
             len(got) == 3 and not mism, mism)

    depth, stencil, color = model[step]
    got_depth = list(struct.unpack(f'<{w * h}I', data[1]))
    where = first_wrong(got_depth, [round(d * 0xffffffff) for d in depth], w,
                        lambda g, e: abs(g - e) <= DEPTH_TOL)
    ck.check(f'{label}: the depth read is, pixel by pixel, the depth the quads leave (1.0 cleared, 0.5, 0.75,'
             f' 0.25) times 0xffffffff, within {DEPTH_TOL}', not where, where)
    where = first_wrong(list(data[2]), stencil, w)
    ck.check(f'{label}: the stencil read is, pixel by pixel, exactly what the stencil tests leave'
             f' (0 cleared, 1 REPLACE, 2 INCR on depth fail, 0x10 REPLACE, 0xfe INVERT)', not where, where)
    where = first_wrong([tuple(data[0][p:p + 4]) for p in range(0, w * h * 4, 4)], color, w)
    ck.check(f'{label}: the colour read is that of the last quad to pass both tests at each pixel', not where, where)
    return {g['attachment']: g['fnv1a'] for g in got}


def check_swap(ck, sw, last_surface, surface):
    snaps = [s for s in sw['before'] if s.get('fn') == 'gltraceSnapshot']
    got = [at.snap_summary(s, 'surface') for s in snaps]
    ck.check('right before eglSwapBuffers: gltraceSurface, then the colour, depth and stencil snapshots of the'
             ' pbuffer (GL_BACK RGBA/UNSIGNED_BYTE, GL_DEPTH DEPTH_COMPONENT/UNSIGNED_INT, GL_STENCIL'
             ' STENCIL_INDEX/UNSIGNED_BYTE, 64x48) of the surface eglCreatePbufferSurface returned',
             [s.get('fn') for s in sw['before']] == ['gltraceSurface'] + ['gltraceSnapshot'] * 3 and
             [{k: v for k, v in g.items() if k != 'fnv1a'} for g in got] ==
             [{'source': src, 'attachment': att, 'object': 0, 'level': 0, 'layer': 0, 'format': fmt, 'type': typ,
               'width': W, 'height': H, 'bytes': W * H * bpp, 'surface': surface}
              for src, att, (fmt, typ, bpp) in SURFACE_SNAPS],
             [(s.get('fn'), at.snap_summary(s, 'surface') if s.get('fn') == 'gltraceSnapshot' else None)
              for s in sw['before']])
    ck.check("... equal (FNV-1a) to the pbuffer's snapshots after its last draw, which the app read back",
             {g['attachment']: g['fnv1a'] for g in got} == last_surface,
             {'swap': {g['attachment']: g['fnv1a'] for g in got}, 'last draw': last_surface})


def config_attribs(r):
    """gltraceSurface's config attributes as {attribute: value}."""
    d = out_data(r, 'config_attribs')
    if not isinstance(d, bytes) or len(d) % 4:
        return {}
    ints = struct.unpack(f'<{len(d) // 4}i', d)
    return {ints[i]: ints[i + 1] for i in range(0, len(ints) - 1, 2) if ints[i] != EGL_NONE}


def check_every_color_followed(ck, recs):
    """Whatever the trace: after each colour snapshot, a depth then a stencil
    snapshot of the same framebuffer and size."""
    bad = []
    for i, r in enumerate(recs):
        if r.get('fn') != 'gltraceSnapshot' or r['fb'].get('format') != 'GL_RGBA':
            continue
        c = r['fb']
        nxt = [s.get('fb', {}) if s.get('fn') == 'gltraceSnapshot' else {} for s in recs[i + 1:i + 3]]
        same = lambda f: all(f.get(k) == c.get(k) for k in  # noqa: E731
                             ('width', 'height', 'source', 'object', 'surface', 'level', 'layer'))
        if not (len(nxt) == 2 and [f.get('format') for f in nxt] == ['GL_DEPTH_COMPONENT', 'GL_STENCIL_INDEX']
                and [f.get('type') for f in nxt] == ['GL_UNSIGNED_INT', 'GL_UNSIGNED_BYTE'] and all(map(same, nxt))):
            bad.append({'seq': r['seq'], 'next': [{k: f.get(k) for k in ('format', 'type', 'width', 'height',
                                                                        'source', 'attachment')} for f in nxt]})
    colors = sum(1 for r in recs if r.get('fn') == 'gltraceSnapshot' and r['fb'].get('format') == 'GL_RGBA')
    ck.check('after every colour snapshot comes a depth snapshot then a stencil snapshot of the same framebuffer'
             ' and size', colors and not bad, bad[:3] or f'{colors} colour snapshots')


def check_without_depth(ck, args, plain, color_snaps):
    """Recorded with --fb=draw alone: the colour snapshots, nothing more."""
    recs = at.record_variant(ck, args, plain, 'nodepth', ['--fb=draw'], 'without --fb-depth')
    snaps = gt.named(recs, 'gltraceSnapshot')
    others = [at.snap_summary(s, 'surface') for s in snaps if s.get('fb', {}).get('format') != 'GL_RGBA']
    ck.check('without --fb-depth: no depth or stencil snapshots', snaps and not others, others[:3])
    got = [(s['fb'].get('attachment'), s['fb'].get('fnv1a')) for s in snaps]
    ck.check('without --fb-depth: the same colour snapshots as with it, in the same order', got == color_snaps,
             {'without': got, 'with': color_snaps})


def check_replay(ck, args, snap_seqs):
    report = args.trace + '.replay.json'
    if os.path.exists(report):
        os.remove(report)
    rp = gt.run([args.gltrace, 'replay', args.trace, '--json', report, '--no-progress'])
    ck.check('gltrace replay of the --fb-depth trace exits 0 (every snapshot matched)', rp.returncode == 0,
             f'exit {rp.returncode}: {rp.stderr.strip()}')
    try:
        with open(report) as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        ck.check('gltrace replay writes its JSON report', False, str(e))
        return
    results = rep.get('results') or []
    bad = [r for r in results if r.get('status') != 'matched' or r.get('identical') is not True]
    ck.check('gltrace replay compared every snapshot of the trace, depth and stencil ones too, and each is'
             ' byte-identical',
             rep.get('snapshots') == rep.get('matched') == len(snap_seqs) and
             sorted(r.get('call') for r in results) == sorted(snap_seqs) and not bad,
             {k: rep.get(k) for k in ('snapshots', 'matched', 'differing', 'not_compared')} | {'bad': bad[:3]})


def main():
    args = at.parse_args()
    ck = gt.Checker('depth_stencil')
    recs = at.record_sample(ck, args, 'depth_stencil', flags=['--fb=draw', '--fb-depth'])
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    n = lambda fn: gt.named(c, fn)  # noqa: E731
    at.check_sequence(ck, 'the calls depth_stencil made, in its order', [r['fn'] for r in c], EXPECTED)
    at.check_display(ck, c)
    at.check_egl_open(ck, c)
    ck.check('every GL call is on context 0', {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0})

    attribs = out_data((n('eglChooseConfig') or [{}])[0], 'attrib_list') or []
    asked = dict(zip(attribs[0::2], attribs[1::2])) if isinstance(attribs, list) else {}
    created = config_attribs((gt.named(recs, 'gltraceSurface') or [{}])[0])
    ck.check('a config with depth 24 and stencil 8 asked for, and the pbuffer made with one (gltraceSurface)',
             asked.get(EGL_DEPTH_SIZE) == 24 and asked.get(EGL_STENCIL_SIZE) == 8 and
             created.get(EGL_DEPTH_SIZE) == 24 and created.get(EGL_STENCIL_SIZE) == 8,
             {'asked': asked, 'surface': {k: created.get(k) for k in (EGL_DEPTH_SIZE, EGL_STENCIL_SIZE)}})
    ext = str((n('glGetString') or [{}])[0].get('ret'))
    ck.check('the driver has GL_NV_read_depth and GL_NV_read_stencil',
             'GL_NV_read_depth' in ext and 'GL_NV_read_stencil' in ext, ext[:300])
    ck.check('GL_DEPTH_BITS 24, GL_STENCIL_BITS 8',
             [(r['args'].get('pname'), out_data(r, 'data')) for r in n('glGetIntegerv')] ==
             [('GL_DEPTH_BITS', [24]), ('GL_STENCIL_BITS', [8])], [r['args'] for r in n('glGetIntegerv')])
    ck.check('renderbuffers: RGBA8 and DEPTH24_STENCIL8, 40x32; attached as GL_COLOR_ATTACHMENT0 and'
             ' GL_DEPTH_STENCIL_ATTACHMENT; complete',
             [(r['args'].get('internalformat'), r['args'].get('width'), r['args'].get('height'))
              for r in n('glRenderbufferStorage')] == [('GL_RGBA8', FBO_W, FBO_H),
                                                       ('GL_DEPTH24_STENCIL8', FBO_W, FBO_H)] and
             [r['args'].get('attachment') for r in n('glFramebufferRenderbuffer')] ==
             ['GL_COLOR_ATTACHMENT0', 'GL_DEPTH_STENCIL_ATTACHMENT'] and
             [r.get('ret') for r in n('glCheckFramebufferStatus')] == ['GL_FRAMEBUFFER_COMPLETE'],
             [r['args'] for r in n('glRenderbufferStorage') + n('glFramebufferRenderbuffer')])
    ck.check('depth test GL_LESS and stencil test on; cleared to depth 1.0 and stencil 0',
             [r['args'].get('cap') for r in n('glEnable')] == ['GL_DEPTH_TEST', 'GL_STENCIL_TEST'] and
             gt.all_args(c, 'glDepthFunc') == [{'func': 'GL_LESS'}] and
             [r['args'].get('d') for r in n('glClearDepthf')] == [1, 1] and
             [r['args'].get('s') for r in n('glClearStencil')] == [0, 0],
             [gt.all_args(c, fn) for fn in ('glEnable', 'glDepthFunc', 'glClearDepthf', 'glClearStencil')])
    stencil = [(r['args'].get('func'), r['args'].get('ref'), r['args'].get('mask')) for r in n('glStencilFunc')]
    ops = [(r['args'].get('fail'), r['args'].get('zfail'), r['args'].get('zpass')) for r in n('glStencilOp')]
    z = [r['args'].get('v0') for r in n('glUniform1f')]
    ck.check('the stencil functions, operations and z of the three quads, on each target, are the modelled ones',
             stencil == [(s[2], s[3], 255) for s in STEPS] * 2 and ops == [s[4] for s in STEPS] * 2 and
             z == [s[1] for s in STEPS] * 2, {'func': stencil, 'op': ops, 'z': z})
    ck.check('glGetError (after the swap) returns GL_NO_ERROR',
             [r.get('ret') for r in n('glGetError')] == ['GL_NO_ERROR'], n('glGetError'))

    fbos = out_data((n('glGenFramebuffers') or [{}])[0], 'framebuffers') or []
    fbo = fbos[0] if isinstance(fbos, list) and len(fbos) == 1 else None
    ck.check('glGenFramebuffers(1) records the name', fbo is not None, fbos)
    draws, swaps = walk(recs)
    if not ck.check(f'{2 * len(STEPS)} draws and one swap', len(draws) == 2 * len(STEPS) and len(swaps) == 1,
                    f'{len(draws)} draws, {len(swaps)} swaps'):
        ck.exit()
    models = (simulate(W, H, False), simulate(FBO_W, FBO_H, True))  # the pbuffer, the framebuffer object
    last = [check_draw(ck, k, ev, fbo, models[k >= len(STEPS)]) for k, ev in enumerate(draws)]
    surface = (n('eglCreatePbufferSurface') or [{}])[0].get('ret')
    check_swap(ck, swaps[0], last[len(STEPS) - 1], surface)
    check_every_color_followed(ck, recs)
    snaps = gt.named(recs, 'gltraceSnapshot')
    placed = sum(len(e['snaps']) for e in draws) + \
        sum(1 for s in swaps[0]['before'] if s.get('fn') == 'gltraceSnapshot')
    ck.check(f'no other snapshots: 3 after each of the {2 * len(STEPS)} draws, 3 before the swap',
             len(snaps) == placed == 3 * (2 * len(STEPS) + 1), f'{len(snaps)} in all, {placed} placed')

    # What the app printed: its last reads of each target, as the snapshots have them.
    plain = gt.run([args.app])
    m = re.search(r'surface \d+x\d+ color=(\w{8}) depth=(\w{8}) stencil=(\w{8}) '
                  r'fbo \d+x\d+ color=(\w{8}) depth=(\w{8}) stencil=(\w{8})', plain.stdout)
    printed = list(m.groups()) if m else None
    snapped = [last[len(STEPS) - 1] and last[len(STEPS) - 1].get(a) for _, a, _ in SURFACE_SNAPS] + \
        [last[-1] and last[-1].get(a) for _, a, _ in FBO_SNAPS]
    ck.check("the colour, depth and stencil hashes the app prints are those of each target's last snapshots",
             printed == snapped, {'printed': printed, 'snapshots': snapped})

    check_without_depth(ck, args, plain,
                        [(s['fb'].get('attachment'), s['fb'].get('fnv1a')) for s in snaps
                         if s['fb'].get('format') == 'GL_RGBA'])
    check_replay(ck, args, [s['seq'] for s in snaps])
    ck.exit()


if __name__ == '__main__':
    main()
