#!/usr/bin/env python3
"""Records fbo_snapshots with --fb=draw --textures and checks the snapshots
against what the app read back itself: after every draw one snapshot per
colour attachment (RGBA8 and RGBA32F textures, an RGBA32I renderbuffer, layer
1 of an array texture), each in the format that loses nothing and with the
FNV-1a of the app's own glReadPixels of that attachment; before every swap
one snapshot of each texture drawn into (not the renderbuffer), equal to the
last draw's, and one of the pbuffer, equal to the app's read of it. The
app's own queries show the pack, read and binding state it set was left
alone. Then records it again with the default --fb=swap: surface snapshots
only.

usage: check_fbo_snapshots.py --gltrace GLTRACE --app FBO_SNAPSHOTS --trace OUT.gltrace"""
import struct

import gltest as gt
import apptrace as at


W, H = 64, 48
FRAMES, DRAWS = 2, 2
ATTS = ['GL_COLOR_ATTACHMENT0', 'GL_COLOR_ATTACHMENT1', 'GL_COLOR_ATTACHMENT2', 'GL_COLOR_ATTACHMENT3']
# How each attachment reads without loss: (format, type, bytes per pixel).
READ = [('GL_RGBA', 'GL_UNSIGNED_BYTE', 4), ('GL_RGBA', 'GL_FLOAT', 16), ('GL_RGBA_INTEGER', 'GL_INT', 16),
        ('GL_RGBA', 'GL_UNSIGNED_BYTE', 4)]
LAYERS = [0, 0, 0, 1]
DRAW_FNS = ['glDrawArrays', 'glDrawElements']
# What the app's check_state() queries after every draw and after the last swap.
KEPT = ['GL_PACK_ALIGNMENT', 'GL_PIXEL_PACK_BUFFER_BINDING', 'GL_READ_BUFFER', 'GL_RENDERBUFFER_BINDING',
        'GL_ACTIVE_TEXTURE', 'GL_TEXTURE_BINDING_2D_ARRAY', 'GL_TEXTURE_BINDING_2D', 'GL_READ_FRAMEBUFFER_BINDING',
        'GL_DRAW_FRAMEBUFFER_BINDING']
GL_COLOR_ATTACHMENT2, GL_TEXTURE1 = 0x8CE2, 0x84C1

STATE = ['glGetIntegerv'] * len(KEPT)
READBACKS = ['glBindBuffer'] + ['glReadBuffer', 'glReadPixels'] * 4 + ['glReadBuffer', 'glBindBuffer']
FRAME = (['glClearBufferfv', 'glClearBufferfv', 'glClearBufferiv', 'glClearBufferfv'] +
         [c for fn in DRAW_FNS for c in ['glUniform4f', 'glUniform4f', fn] + STATE + READBACKS] +
         ['glReadBuffer', 'glBindFramebuffer', 'glBlitFramebuffer', 'glBindFramebuffer', 'glBindBuffer',
          'glReadPixels', 'glBindBuffer', 'glBindFramebuffer', 'glReadBuffer', 'eglSwapBuffers'])
EXPECTED = (['eglGetPlatformDisplay', 'eglInitialize'] + at.EGL_OPEN +
            ['glGetIntegerv', 'glGetIntegerv', 'glGetString'] + at.SHADER + at.SHADER +
            ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glLinkProgram', 'glGetProgramiv',
             'glGetUniformLocation', 'glGetUniformLocation', 'glUseProgram',
             'glGenVertexArrays', 'glBindVertexArray', 'glGenBuffers',
             'glBindBuffer', 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
             'glBindBuffer', 'glBufferData', 'glBindBuffer', 'glBufferData',
             'glGenTextures', 'glActiveTexture', 'glBindTexture', 'glTexStorage2D', 'glBindTexture', 'glTexStorage2D',
             'glActiveTexture', 'glBindTexture', 'glTexStorage3D',
             'glGenRenderbuffers', 'glBindRenderbuffer', 'glRenderbufferStorage', 'glBindRenderbuffer',
             'glRenderbufferStorage',
             'glGenFramebuffers', 'glBindFramebuffer', 'glFramebufferTexture2D', 'glFramebufferTexture2D',
             'glFramebufferRenderbuffer', 'glFramebufferTextureLayer', 'glDrawBuffers', 'glCheckFramebufferStatus',
             'glViewport', 'glPixelStorei', 'glReadBuffer'] +
            FRAME * FRAMES + STATE +
            ['glGetError', 'glDeleteFramebuffers', 'glDeleteRenderbuffers', 'glDeleteTextures', 'glDeleteBuffers',
             'glDeleteVertexArrays', 'glDeleteProgram', 'glDeleteShader', 'glDeleteShader'] +
            at.EGL_CLOSE + ['eglTerminate'])


fnv1a, out_data = gt.fnv1a, at.out_data


def rect(f, d):
    """The pixels draw d of frame f covers: [x0, x1) x [y0, y1)."""
    if d == 0:
        return 0, W, 0, H
    return (24, 56, 6, 30) if f == 0 else (8, 40, 18, 42)


def expected_ints(f, d):
    """Attachment 2 after draw d of frame f, as the fragment shader writes
    it: (x - 40, -1000 y, -7 (1 + d + 2 f), 123456789) where a draw of this
    frame covers the pixel (the first covers them all)."""
    px = {}
    for dd in range(d + 1):
        x0, x1, y0, y1 = rect(f, dd)
        for y in range(y0, y1):
            for x in range(x0, x1):
                px[x, y] = (x - 40, -1000 * y, -7 * (1 + dd + 2 * f), 123456789)
    return b''.join(struct.pack('<4i', *px[x, y]) for y in range(H) for x in range(W))


def walk(recs, fbo):
    """Follows the framebuffer bindings and read buffers through the trace:
    returns the draws (each with the snapshots right after it and the app's
    glReadPixels of each attachment before the next draw or swap) and the
    swaps (each with the gltrace records right before it, the app's read of
    the window in that frame and the draw before it)."""
    draws, swaps = [], []
    read_fbo = 0
    read_buf = {0: 'GL_BACK', fbo: 'GL_COLOR_ATTACHMENT0'}
    window_read = None
    for i, r in enumerate(recs):
        fn, a = r.get('fn', ''), r.get('args', {})
        if fn == 'glBindFramebuffer' and a.get('target') in ('GL_FRAMEBUFFER', 'GL_READ_FRAMEBUFFER'):
            read_fbo = a.get('framebuffer')
        elif fn == 'glReadBuffer':
            read_buf[read_fbo] = a.get('src')
        elif fn.startswith(('glDrawArrays', 'glDrawElements', 'glDrawRangeElements', 'glMultiDraw')):
            snaps = []
            for s in recs[i + 1:]:
                if s.get('fn') != 'gltraceSnapshot':
                    break
                snaps.append(s)
            draws.append({'draw': r, 'snaps': snaps, 'reads': {}})
        elif fn == 'glReadPixels':
            if read_fbo == 0:
                window_read = r
            elif draws:
                draws[-1]['reads'].setdefault(read_buf.get(read_fbo), []).append(r)
        elif fn == 'eglSwapBuffers':
            before = []
            for s in reversed(recs[:i]):
                if not s.get('fn', '').startswith('gltrace'):
                    break
                before.insert(0, s)
            swaps.append({'swap': r, 'before': before, 'window': window_read, 'draw': draws[-1] if draws else None})
            window_read = None
    return draws, swaps


def check_draw(ck, f, d, ev, fbo):
    label = f'frame {f} draw {d} ({ev["draw"]["fn"]})'
    snaps = ev['snaps']
    got = [at.snap_summary(s) for s in snaps]
    want = [{'source': 'attachment', 'attachment': ATTS[i], 'object': fbo, 'level': 0, 'layer': LAYERS[i],
             'format': READ[i][0], 'type': READ[i][1], 'width': W, 'height': H, 'bytes': W * H * READ[i][2]}
            for i in range(4)]
    ck.check(f'{label}: exactly four snapshots follow, source "attachment", GL_COLOR_ATTACHMENT0..3 of the'
             f' framebuffer, 64x48, RGBA/UNSIGNED_BYTE, RGBA/FLOAT, RGBA_INTEGER/INT, RGBA/UNSIGNED_BYTE,'
             f' layer 1 for attachment 3',
             [{k: v for k, v in g.items() if k != 'fnv1a'} for g in got] == want, got)
    reads = ev['reads']
    mism = []
    for i, att in enumerate(ATTS):
        rp = reads.get(att, [])
        a = rp[0]['args'] if len(rp) == 1 else {}
        data = out_data(rp[0], 'pixels') if len(rp) == 1 else None
        ok = (len(rp) == 1 and isinstance(data, bytes) and len(data) == W * H * READ[i][2] and
              {k: a.get(k) for k in ('x', 'y', 'width', 'height', 'format', 'type')} ==
              {'x': 0, 'y': 0, 'width': W, 'height': H, 'format': READ[i][0], 'type': READ[i][1]} and
              i < len(got) and got[i]['fnv1a'] == fnv1a(data))
        if not ok:
            mism.append({'attachment': att, 'app reads': len(rp),
                         'app read': {k: a.get(k) for k in ('format', 'type')},
                         'app bytes': len(data) if isinstance(data, bytes) else data,
                         'app fnv1a': fnv1a(data) if isinstance(data, bytes) else None,
                         'snapshot fnv1a': got[i]['fnv1a'] if i < len(got) else None})
    ck.check(f'{label}: each snapshot has the FNV-1a of the bytes the app then read from that attachment'
             f' (one glReadPixels each, after glReadBuffer of it)', not mism, mism)

    # What the app read proves the shader wrote what a lossless snapshot must keep.
    data = {att: out_data(reads[att][0], 'pixels') for att in ATTS if len(reads.get(att, [])) == 1}
    if not all(isinstance(data.get(att), bytes) for att in ATTS):
        ck.check(f'{label}: the app read every attachment', False, sorted(data))
        return
    ints = data['GL_COLOR_ATTACHMENT2']
    want_ints = expected_ints(f, d)
    first = next((p for p in range(0, len(want_ints), 16) if ints[p:p + 16] != want_ints[p:p + 16]), None)
    where = '' if first is None else (f'pixel ({first // 16 % W}, {first // 16 // W}): got '
                                      f'{struct.unpack("<4i", ints[first:first + 16])}, expected '
                                      f'{struct.unpack("<4i", want_ints[first:first + 16])}')
    ck.check(f'{label}: the RGBA32I renderbuffer holds exactly the integers drawn (negative ones too)',
             ints == want_ints, where)
    fl = [struct.unpack_from('<4f', data['GL_COLOR_ATTACHMENT1'], p) for p in range(0, W * H * 16, 16)]
    f32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]  # noqa: E731
    x0, x1, y0, y1 = rect(f, d)
    alpha = fl[((y0 + y1) // 2) * W + (x0 + x1) // 2][3]
    ck.check(f'{label}: the RGBA32F texture holds 0.3, 1e-3 and negative values an RGBA8 target would lose'
             f' (red 0.3, blue 1e-3 everywhere; green negative and varying; alpha -{1.75 + f} where this draw covers)',
             all(p[0] == f32(0.3) and p[2] == f32(1e-3) and p[1] < 0 for p in fl) and
             len({p[1] for p in fl}) > 1 and alpha == -(1.75 + f), fl[:2] + [alpha])
    flat = [att for att in ('GL_COLOR_ATTACHMENT0', 'GL_COLOR_ATTACHMENT3')
            if len({data[att][p:p + 4] for p in range(0, W * H * 4, 4)}) < 2]
    ck.check(f'{label}: the RGBA8 texture and the array layer are not flat images', not flat, flat)


def check_swap(ck, f, sw, textures, att_of, surface):
    label = f'frame {f} eglSwapBuffers'
    snaps = [s for s in sw['before'] if s.get('fn') == 'gltraceSnapshot']
    tex = [at.snap_summary(s) for s in snaps if s['fb'].get('source') == 'texture']
    surf = [at.snap_summary(s) for s in snaps if s['fb'].get('source') == 'surface']
    ck.check(f'{label}: right before it only gltraceSurface, the texture snapshots, then the surface snapshot',
             [s.get('fn') for s in sw['before']] == ['gltraceSurface'] + ['gltraceSnapshot'] * len(snaps) and
             [s['fb'].get('source') for s in snaps] == ['texture'] * len(tex) + ['surface'],
             [(s.get('fn'), s.get('fb', {}).get('source')) for s in sw['before']])
    got = sorted((t['object'], t['level'], t['layer'], t['format'], t['type'], t['width'], t['height'])
                 for t in tex)
    want = sorted((name, 0, layer, fmt, typ, W, H) for name, layer, fmt, typ in textures)
    ck.check(f'{label}: texture snapshots of exactly the three textures drawn into (RGBA8 2D, RGBA32F 2D,'
             f' layer 1 of the array; not the RGBA32I renderbuffer), level 0, 64x48, lossless formats',
             got == want and len(tex) == 3 and not any(t['format'] == 'GL_RGBA_INTEGER' for t in tex),
             {'got': tex, 'expected': want})
    last = {s['fb'].get('attachment'): s['fb'].get('fnv1a') for s in (sw['draw'] or {}).get('snaps', [])}
    wrong = [{'texture': t['object'], 'layer': t['layer'], 'fnv1a': t['fnv1a'],
              'attachment': att_of.get((t['object'], t['layer'])),
              'last draw snapshot': last.get(att_of.get((t['object'], t['layer'])))}
             for t in tex if t['fnv1a'] != last.get(att_of.get((t['object'], t['layer'])))]
    ck.check(f"{label}: each texture snapshot equals (FNV-1a) the last draw's snapshot of its attachment",
             tex and not wrong, wrong or tex)
    win = out_data(sw['window'], 'pixels') if sw['window'] else None
    ok = (len(surf) == 1 and isinstance(win, bytes) and len(win) == W * H * 4 and
          surf[0] == {'source': 'surface', 'attachment': 'GL_BACK', 'object': 0, 'level': 0, 'layer': 0,
                      'format': 'GL_RGBA', 'type': 'GL_UNSIGNED_BYTE', 'width': W, 'height': H,
                      'bytes': W * H * 4, 'fnv1a': fnv1a(win)} and
          snaps[-1]['fb'].get('surface') == surface)
    ck.check(f"{label}: one surface snapshot of the pbuffer (GL_BACK, 64x48 RGBA8) with the FNV-1a of the app's"
             f' glReadPixels of the window after its blit', ok,
             {'surface snapshots': surf, 'app fnv1a': fnv1a(win) if isinstance(win, bytes) else None})
    att0 = (sw['draw'] or {}).get('reads', {}).get('GL_COLOR_ATTACHMENT0', [])
    ck.check(f'{label}: the window the app read is attachment 0 as it read it (a 1:1 blit)',
             isinstance(win, bytes) and len(att0) == 1 and out_data(att0[0], 'pixels') == win)


def check_swap_run(ck, args, plain, draw_surfaces):
    """The default --fb=swap: one surface snapshot before each swap, nothing else."""
    recs = at.record_variant(ck, args, plain, 'swap', ['--fb=swap'], '--fb=swap')
    snaps = gt.named(recs, 'gltraceSnapshot')
    others = [at.snap_summary(s) for s in snaps if s.get('fb', {}).get('source') != 'surface']
    ck.check('--fb=swap: no attachment or texture snapshots', snaps and not others, others[:4])
    before = [recs[i - 1].get('fn') == 'gltraceSnapshot' and recs[i - 1]['fb'].get('source') == 'surface'
              for i, r in enumerate(recs) if r.get('fn') == 'eglSwapBuffers']
    ck.check('--fb=swap: one surface snapshot right before each eglSwapBuffers, and no other snapshot',
             len(before) == FRAMES and all(before) and len(snaps) == FRAMES, f'{len(snaps)} snapshots, {before}')
    got = [s['fb'].get('fnv1a') for s in snaps]
    ck.check('--fb=swap: the surface snapshots are the ones the --fb=draw run took', got == draw_surfaces,
             {'swap': got, 'draw': draw_surfaces})


def main():
    args = at.parse_args()
    ck = gt.Checker('fbo_snapshots')
    recs = at.record_sample(ck, args, 'fbo_snapshots', flags=['--fb=draw', '--textures'])
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    n = lambda fn: gt.named(c, fn)  # noqa: E731
    a = lambda fn, i=0: gt.args_of(c, fn, i)  # noqa: E731
    at.check_sequence(ck, 'the calls fbo_snapshots made, in its order', [r['fn'] for r in c], EXPECTED)
    at.check_display(ck, c)
    at.check_egl_open(ck, c)
    ck.check('every GL call is on context 0', {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0})
    ck.check('an OpenGL ES 3.2 context (GL_MAJOR_VERSION 3, GL_MINOR_VERSION 2) with GL_EXT_color_buffer_float',
             [out_data(r, 'data') for r in n('glGetIntegerv')[:2]] == [[3], [2]] and
             'GL_EXT_color_buffer_float' in str((n('glGetString') or [{}])[0].get('ret')),
             [r['args'] for r in n('glGetIntegerv')[:2]])

    # The names: what is attached where, and the state the app set.
    gen = lambda fn, key: out_data((n(fn) or [{}])[0], key) or []  # noqa: E731
    tex, rbs, bufs, fbos = (gen('glGenTextures', 'textures'), gen('glGenRenderbuffers', 'renderbuffers'),
                            gen('glGenBuffers', 'buffers'), gen('glGenFramebuffers', 'framebuffers'))
    if not ck.check('glGenTextures(3), glGenRenderbuffers(2), glGenBuffers(3), glGenFramebuffers(1) record the names',
                    len(tex) == 3 and len(rbs) == 2 and len(bufs) == 3 and len(fbos) == 1,
                    [tex, rbs, bufs, fbos]):
        ck.exit()
    fbo = fbos[0]
    storage = [(r['fn'], r['args'].get('internalformat')) for r in n('glTexStorage2D') + n('glTexStorage3D')]
    bound = [(r['args'].get('target'), r['args'].get('texture')) for r in n('glBindTexture')]
    ck.check('textures: RGBA8 2D, RGBA32F 2D, a two-layer RGBA8 2D array on unit 1',
             storage == [('glTexStorage2D', 'GL_RGBA8'), ('glTexStorage2D', 'GL_RGBA32F'),
                         ('glTexStorage3D', 'GL_RGBA8')] and
             bound == [('GL_TEXTURE_2D', tex[0]), ('GL_TEXTURE_2D', tex[1]), ('GL_TEXTURE_2D_ARRAY', tex[2])] and
             a('glTexStorage3D').get('depth') == 2 and
             [r['args'].get('texture') for r in n('glActiveTexture')] == ['GL_TEXTURE0', 'GL_TEXTURE1'],
             [storage, bound])
    ck.check('renderbuffers: RGBA32I (to attach) and a spare DEPTH_COMPONENT16 left bound',
             [(r['args'].get('renderbuffer')) for r in n('glBindRenderbuffer')] == rbs and
             [r['args'].get('internalformat') for r in n('glRenderbufferStorage')] ==
             ['GL_RGBA32I', 'GL_DEPTH_COMPONENT16'], n('glRenderbufferStorage'))
    attach = ([(r['args'].get('attachment'), 'texture', r['args'].get('texture'), 0)
               for r in n('glFramebufferTexture2D')] +
              [(r['args'].get('attachment'), 'renderbuffer', r['args'].get('renderbuffer'), 0)
               for r in n('glFramebufferRenderbuffer')] +
              [(r['args'].get('attachment'), 'texture', r['args'].get('texture'), r['args'].get('layer'))
               for r in n('glFramebufferTextureLayer')])
    ck.check('attachments 0..3: the RGBA8 texture, the RGBA32F texture, the RGBA32I renderbuffer, layer 1 of the'
             ' array; glDrawBuffers of all four; complete',
             attach == [(ATTS[0], 'texture', tex[0], 0), (ATTS[1], 'texture', tex[1], 0),
                        (ATTS[2], 'renderbuffer', rbs[0], 0), (ATTS[3], 'texture', tex[2], 1)] and
             out_data(n('glDrawBuffers')[0], 'bufs') == [0x8CE0, 0x8CE1, 0x8CE2, 0x8CE3] and
             [r.get('ret') for r in n('glCheckFramebufferStatus')] == ['GL_FRAMEBUFFER_COMPLETE'], attach)
    ck.check('state set before the first draw: GL_PACK_ALIGNMENT 2, a pixel-pack buffer bound, read buffer'
             ' GL_COLOR_ATTACHMENT2',
             gt.all_args(c, 'glPixelStorei') == [{'pname': 'GL_PACK_ALIGNMENT', 'param': 2}] and
             gt.args_of(c, 'glBindBuffer', 2) == {'target': 'GL_PIXEL_PACK_BUFFER', 'buffer': bufs[2]} and
             a('glReadBuffer') == {'src': 'GL_COLOR_ATTACHMENT2'},
             [gt.all_args(c, 'glPixelStorei'), gt.args_of(c, 'glBindBuffer', 2), a('glReadBuffer')])
    kept = [2, bufs[2], GL_COLOR_ATTACHMENT2, rbs[1], GL_TEXTURE1, tex[2], 0, fbo, fbo]
    queries = n('glGetIntegerv')[2:]
    got = [(r['args'].get('pname'), out_data(r, 'data')) for r in queries]
    want = [(p, [v]) for p, v in zip(KEPT, kept)] * (FRAMES * DRAWS + 1)
    bad = [(i // len(KEPT), g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    ck.check('after every draw (before its readbacks) and after the last swap the app found the pack alignment,'
             ' pack buffer, read buffer, renderbuffer, active unit, unit 1 bindings and framebuffers as it set them',
             len(got) == len(want) and not bad, bad[:3] or f'{len(got)} queries, {len(want)} expected')
    ck.check("the app's own readbacks into client memory are made with no pixel-pack buffer bound",
             all(isinstance(out_data(r, 'pixels'), bytes) for r in n('glReadPixels')) and
             len(n('glReadPixels')) == FRAMES * (DRAWS * 4 + 1))
    ck.check('glGetError returns GL_NO_ERROR', [r.get('ret') for r in n('glGetError')] == ['GL_NO_ERROR'],
             n('glGetError'))

    # The snapshots.
    draws, swaps = walk(recs, fbo)
    ck.check(f'{FRAMES * DRAWS} draws ({" then ".join(DRAW_FNS)} each frame) and {FRAMES} swaps',
             [e['draw']['fn'] for e in draws] == DRAW_FNS * FRAMES and len(swaps) == FRAMES,
             [e['draw']['fn'] for e in draws])
    for k, ev in enumerate(draws[:FRAMES * DRAWS]):
        check_draw(ck, k // DRAWS, k % DRAWS, ev, fbo)
    textures = [(tex[0], 0, 'GL_RGBA', 'GL_UNSIGNED_BYTE'), (tex[1], 0, 'GL_RGBA', 'GL_FLOAT'),
                (tex[2], 1, 'GL_RGBA', 'GL_UNSIGNED_BYTE')]
    att_of = {(tex[0], 0): ATTS[0], (tex[1], 0): ATTS[1], (tex[2], 1): ATTS[3]}
    surface = (n('eglCreatePbufferSurface') or [{}])[0].get('ret')
    for f, sw in enumerate(swaps[:FRAMES]):
        check_swap(ck, f, sw, textures, att_of, surface)
    snaps = gt.named(recs, 'gltraceSnapshot')
    # A blit writes the draw framebuffer as a draw does: the pbuffer's
    # snapshot right after each, equal to the app's read of it.
    blits = [recs[i + 1] for i, r in enumerate(recs[:-1])
             if r.get('fn') == 'glBlitFramebuffer' and recs[i + 1].get('fn') == 'gltraceSnapshot']
    ck.check(f'after each of the {FRAMES} blits, one snapshot of the pbuffer, equal to the next swap\'s',
             len(blits) == FRAMES and all(b['fb'].get('source') == 'surface' for b in blits) and
             [b['fb'].get('fnv1a') for b in blits] ==
             [s['fb'].get('fnv1a') for sw in swaps for s in sw['before']
              if s.get('fn') == 'gltraceSnapshot' and s['fb'].get('source') == 'surface'],
             [at.snap_summary(b) for b in blits])
    placed = sum(len(e['snaps']) for e in draws) + sum(
        len([s for s in sw['before'] if s.get('fn') == 'gltraceSnapshot']) for sw in swaps) + len(blits)
    ck.check(f'no other snapshots: {FRAMES * DRAWS * 4} after draws, {FRAMES} after blits, {FRAMES * 4} before swaps',
             len(snaps) == placed == FRAMES * DRAWS * 4 + FRAMES + FRAMES * 4, f'{len(snaps)} in all, {placed} placed')

    plain = gt.run([args.app])
    surfaces = [s['fb'].get('fnv1a') for sw in swaps for s in sw['before']
                if s.get('fn') == 'gltraceSnapshot' and s['fb'].get('source') == 'surface']
    check_swap_run(ck, args, plain, surfaces)
    ck.exit()


if __name__ == '__main__':
    main()
