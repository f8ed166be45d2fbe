#!/usr/bin/env python3
"""Records uploads and checks that the trace holds exactly the data behind
each pointer the app passed or the driver wrote: the bytes of every texture
upload as the unpack state delimits them (alignment, row length, skipped
pixels, rows and images, image height; 2D, 3D, 2D array, cube map), ETC2
blocks, nothing but the offset for uploads from a pixel unpack buffer,
uniform arrays and matrices, the values glGetUniform* read back, the active
uniform and uniform block queries, buffer contents, transform feedback
varyings; and the exact OpenGL ES 3.2 call sequence.

Byte i of datum k is (i * 7 + k) & 255, as in uploads.c; the upload table
below mirrors the app's: change one, change the other.

usage: check_uploads.py --gltrace GLTRACE --app UPLOADS --trace OUT.gltrace"""
import struct

import gltest as gt
import apptrace as at


def pattern(n, k):
    return bytes((i * 7 + k) & 255 for i in range(n))


def fval(j, k):
    return ((j * 7 + k) & 255) / 8 - 16


def ival(j, k):
    return ((j * 7 + k) & 255) - 100


def uval(j, k):
    return (j * 7 + k) & 255


GL_RGB8, GL_RGBA8, GL_R32F, GL_RGB565, GL_RGBA16F, GL_RG8 = 0x8051, 0x8058, 0x822E, 0x8D62, 0x881A, 0x822B
T2, S2, T3, S3 = 'glTexImage2D', 'glTexSubImage2D', 'glTexImage3D', 'glTexSubImage3D'
TEXEL = {('GL_RGB', 'GL_UNSIGNED_BYTE'): 3, ('GL_RGBA', 'GL_UNSIGNED_BYTE'): 4, ('GL_RG', 'GL_UNSIGNED_BYTE'): 2,
         ('GL_RED', 'GL_FLOAT'): 4, ('GL_RGB', 'GL_UNSIGNED_SHORT_5_6_5'): 2, ('GL_RGBA', 'GL_HALF_FLOAT'): 8}
CUBE = ['GL_TEXTURE_CUBE_MAP_' + f for f in ('POSITIVE_X', 'NEGATIVE_X', 'POSITIVE_Y', 'NEGATIVE_Y',
                                              'POSITIVE_Z', 'NEGATIVE_Z')]
# fn, target, internalformat, (x, y, z), (w, h, d), format, type, (alignment, row length, skip pixels,
# skip rows, image height, skip images); upload i passes datum 10 + i.
UPLOADS = [
    (T2, 'GL_TEXTURE_2D', GL_RGB8, (0, 0, 0), (5, 3, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (1, 0, 0, 0, 0, 0)),
    (T2, 'GL_TEXTURE_2D', GL_RGB8, (0, 0, 0), (5, 3, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (2, 0, 0, 0, 0, 0)),
    (T2, 'GL_TEXTURE_2D', GL_RGB8, (0, 0, 0), (7, 3, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (8, 0, 0, 0, 0, 0)),
    (T2, 'GL_TEXTURE_2D', GL_RGB8, (0, 0, 0), (9, 7, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (4, 0, 0, 0, 0, 0)),
    (S2, 'GL_TEXTURE_2D', 0, (1, 2, 0), (5, 3, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (4, 9, 2, 1, 0, 0)),
    (S2, 'GL_TEXTURE_2D', 0, (0, 0, 0), (3, 2, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (8, 5, 1, 2, 0, 0)),
    (S2, 'GL_TEXTURE_2D', 0, (2, 1, 0), (3, 2, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (1, 0, 0, 0, 4, 1)),
    (T2, 'GL_TEXTURE_2D', GL_R32F, (0, 0, 0), (3, 3, 1), 'GL_RED', 'GL_FLOAT', (8, 0, 0, 0, 0, 0)),
    (T2, 'GL_TEXTURE_2D', GL_RGB565, (0, 0, 0), (3, 2, 1), 'GL_RGB', 'GL_UNSIGNED_SHORT_5_6_5', (4, 0, 0, 0, 0, 0)),
    (T2, 'GL_TEXTURE_2D', GL_RGBA16F, (0, 0, 0), (3, 2, 1), 'GL_RGBA', 'GL_HALF_FLOAT', (8, 4, 1, 0, 0, 0)),
    (T2, 'GL_TEXTURE_2D', GL_RG8, (0, 0, 0), (5, 2, 1), 'GL_RG', 'GL_UNSIGNED_BYTE', (4, 0, 0, 1, 0, 0)),
    (T3, 'GL_TEXTURE_3D', GL_RGB8, (0, 0, 0), (3, 2, 2), 'GL_RGB', 'GL_UNSIGNED_BYTE', (1, 0, 0, 0, 3, 1)),
    (T3, 'GL_TEXTURE_3D', GL_RGBA8, (0, 0, 0), (4, 4, 3), 'GL_RGBA', 'GL_UNSIGNED_BYTE', (4, 0, 0, 0, 0, 0)),
    (S3, 'GL_TEXTURE_3D', 0, (1, 1, 1), (2, 2, 2), 'GL_RGBA', 'GL_UNSIGNED_BYTE', (4, 4, 1, 1, 4, 1)),
    (T3, 'GL_TEXTURE_2D_ARRAY', GL_RGB8, (0, 0, 0), (3, 3, 2), 'GL_RGB', 'GL_UNSIGNED_BYTE', (8, 0, 0, 0, 0, 0)),
    (S3, 'GL_TEXTURE_2D_ARRAY', 0, (0, 1, 1), (2, 2, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (2, 0, 0, 0, 5, 2)),
    (S3, 'GL_TEXTURE_2D_ARRAY', 0, (1, 0, 0), (2, 3, 2), 'GL_RGB', 'GL_UNSIGNED_BYTE', (4, 3, 0, 1, 4, 0)),
] + [(T2, CUBE[f], GL_RGB8, (0, 0, 0), (3, 3, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (al, 0, 0, 0, 0, 0))
     for f, al in enumerate((1, 2, 4, 8, 1, 2))] + [
    (S2, 'GL_TEXTURE_CUBE_MAP_POSITIVE_Y', 0, (1, 1, 0), (2, 2, 1), 'GL_RGB', 'GL_UNSIGNED_BYTE', (4, 3, 1, 0, 0, 0)),
]
BINDS = {0: 'GL_TEXTURE_2D', 11: 'GL_TEXTURE_3D', 14: 'GL_TEXTURE_2D_ARRAY', 17: 'GL_TEXTURE_CUBE_MAP'}
SKIP_IMAGES_2D = 6  # the 2D upload with IMAGE_HEIGHT and SKIP_IMAGES set, read back by the app
# The uploads from the pixel unpack buffer: the offsets the app passes.
PBO_UPLOADS = [
    (T2, 'GL_TEXTURE_2D', GL_RGBA8, (0, 0, 0), (4, 4, 1), 'GL_RGBA', 'GL_UNSIGNED_BYTE', (4, 0, 0, 0, 0, 0)),
    (S2, 'GL_TEXTURE_2D', 0, (1, 1, 0), (3, 3, 1), 'GL_RGBA', 'GL_UNSIGNED_BYTE', (2, 4, 1, 0, 0, 0)),
]
PIXEL_STORE = ['GL_UNPACK_ALIGNMENT', 'GL_UNPACK_ROW_LENGTH', 'GL_UNPACK_SKIP_PIXELS', 'GL_UNPACK_SKIP_ROWS',
               'GL_UNPACK_IMAGE_HEIGHT', 'GL_UNPACK_SKIP_IMAGES']


def upload_bytes(u):
    """What the GL reads for upload u (ES 3.2 section 8.4.4.1): whole rows of
    row length (or width) pixels rounded up to the alignment, the last row
    only up to its last pixel; IMAGE_HEIGHT and SKIP_IMAGES for the 3D calls
    only."""
    fn, _, _, _, (w, h, d), fmt, typ, (al, rl, sp, sr, ih, si) = u
    bpp = TEXEL[(fmt, typ)]
    row = -(-(rl or w) * bpp // al) * al
    if fn in (T3, S3):
        return ((si + d - 1) * (ih or h) + sr + h - 1) * row + (sp + w) * bpp
    return (sr + h - 1) * row + (sp + w) * bpp


def describe(i, u):
    fn, target, _, _, (w, h, d), fmt, typ, (al, rl, sp, sr, ih, si) = u
    state = [f'alignment {al}'] + [f'{name} {v}' for name, v in
                                   (('row length', rl), ('skip pixels', sp), ('skip rows', sr),
                                    ('image height', ih), ('skip images', si)) if v]
    size = f'{w}x{h}' + (f'x{d}' if fn in (T3, S3) else '')
    return f'upload {i}: {fn}({target}, {size}, {fmt}, {typ}; {", ".join(state)})'


def upload_args(u):
    fn, target, ifmt, (x, y, z), (w, h, d), fmt, typ, _ = u
    a = {'target': target, 'level': 0}
    if fn in (T2, T3):
        a['internalformat'] = ifmt
    else:
        a.update({'xoffset': x, 'yoffset': y})
        if fn == S3:
            a['zoffset'] = z
    a.update({'width': w, 'height': h})
    if fn in (T3, S3):
        a['depth'] = d
    if fn in (T2, T3):
        a['border'] = 0
    a.update({'format': fmt, 'type': typ})
    return a


def expected_sequence():
    ps = ['glPixelStorei'] * 6
    s = ['eglGetPlatformDisplay', 'eglInitialize'] + at.EGL_OPEN + ['glGetIntegerv', 'glGetIntegerv', 'glGenTextures']
    for i, u in enumerate(UPLOADS):
        if i in BINDS:
            s.append('glBindTexture')
        s += ps + [u[0]]
        if i == SKIP_IMAGES_2D:
            s += ['glGenFramebuffers', 'glBindFramebuffer', 'glFramebufferTexture2D', 'glCheckFramebufferStatus',
                  'glReadPixels', 'glBindFramebuffer', 'glDeleteFramebuffers']
    s += ['glGetError', 'glGenTextures', 'glBindTexture', 'glCompressedTexImage2D', 'glCompressedTexSubImage2D',
          'glGetError', 'glGenBuffers', 'glBindBuffer', 'glBufferData', 'glBindTexture'] + ps + [T2] + ps + [S2] + \
         ['glBindTexture', 'glCompressedTexSubImage2D', 'glBindBuffer', 'glGetError', 'glDeleteBuffers',
          'glDeleteTextures', 'glDeleteTextures']
    # uniforms
    s += at.SHADER + at.SHADER + ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glLinkProgram',
                                  'glGetProgramiv'] + ['glGetUniformLocation'] * 10 + \
        ['glUseProgram', 'glUniformMatrix2x3fv', 'glUniformMatrix3fv', 'glUniformMatrix4fv', 'glUniform4fv',
         'glUniform1iv', 'glUniform3uiv', 'glUniform1i', 'glGetError'] + ['glGetUniformfv'] * 5 + \
        ['glGetUniformiv'] * 3 + ['glGetUniformuiv', 'glGetError', 'glGetUniformfv', 'glGetError', 'glGetProgramiv'] + \
        ['glGetActiveUniform'] * 9 + \
        ['glGetUniformIndices', 'glGetActiveUniformsiv', 'glGetActiveUniformsiv', 'glGetError',
         'glGetUniformBlockIndex', 'glUniformBlockBinding'] + ['glGetActiveUniformBlockiv'] * 3 + \
        ['glGetIntegerv', 'glGenBuffers', 'glBindBuffer', 'glBufferData', 'glBindBufferRange', 'glGetError',
         'glGenVertexArrays', 'glBindVertexArray', 'glBindBuffer', 'glBufferData', 'glVertexAttribPointer',
         'glEnableVertexAttribArray', 'glViewport', 'glClearColor', 'glClear', 'glDrawArrays', 'glGetError',
         'glDeleteVertexArrays', 'glDeleteBuffers', 'glDeleteProgram', 'glDeleteShader', 'glDeleteShader']
    # transform feedback
    s += at.SHADER + at.SHADER + \
        ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glTransformFeedbackVaryings', 'glLinkProgram',
         'glGetProgramiv', 'glUseProgram', 'glGenVertexArrays', 'glBindVertexArray', 'glGenBuffers', 'glBindBuffer',
         'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray', 'glBindBuffer', 'glBufferData',
         'glBindBufferBase', 'glEnable', 'glBeginTransformFeedback', 'glDrawArrays', 'glEndTransformFeedback',
         'glDisable', 'glMapBufferRange', 'glUnmapBuffer', 'glGetError', 'glDeleteBuffers', 'glDeleteVertexArrays',
         'glDeleteProgram', 'glDeleteShader', 'glDeleteShader']
    # compute
    s += at.SHADER + ['glCreateProgram', 'glAttachShader', 'glLinkProgram', 'glGetProgramiv', 'glUseProgram',
                      'glGetIntegerv', 'glGenBuffers', 'glBindBuffer', 'glBufferData', 'glBindBufferRange',
                      'glDispatchCompute', 'glMemoryBarrier', 'glMapBufferRange', 'glUnmapBuffer', 'glGetError',
                      'glDeleteBuffers', 'glDeleteProgram', 'glDeleteShader']
    return s + ['eglSwapBuffers', 'glReadPixels', 'glGetError'] + at.EGL_CLOSE + ['eglTerminate']


def data_of(arg):
    """The recorded data behind a pointer argument (None when only the address was recorded)."""
    return arg.get('data') if isinstance(arg, dict) else None


def raw(b):
    return {'bytes': len(b), 'hex': b.hex()}


def check_uploads(ck, c):
    stores = [r['args'] for r in gt.named(c, 'glPixelStorei')]
    tex = [r for r in c if r['fn'] in (T2, S2, T3, S3)]
    ck.check(f'{len(UPLOADS) + len(PBO_UPLOADS)} texture uploads, each after its six glPixelStorei',
             len(tex) == len(UPLOADS) + len(PBO_UPLOADS) and len(stores) == 6 * len(tex), (len(tex), len(stores)))
    for i, u in enumerate(UPLOADS + PBO_UPLOADS):
        if i >= len(tex):
            break
        what = describe(i, u) if i < len(UPLOADS) else 'pixel unpack buffer ' + describe(i - len(UPLOADS), u)
        got_state = stores[6 * i:6 * i + 6]
        want_state = [{'pname': p, 'param': v} for p, v in zip(PIXEL_STORE, u[7])]
        args = {k: v for k, v in tex[i]['args'].items() if k != 'pixels'}
        ck.check(what + ': the call and its unpack state as the app made them',
                 tex[i]['fn'] == u[0] and args == upload_args(u) and got_state == want_state,
                 [tex[i]['fn'], args, got_state])
        pixels = tex[i]['args'].get('pixels')
        if i < len(UPLOADS):
            n = upload_bytes(u)
            ck.check(what + f': records exactly the {n} bytes the GL reads',
                     data_of(pixels) == raw(pattern(n, 10 + i)), pixels)
        else:
            offset = (32, 100)[i - len(UPLOADS)]
            ck.check(what + f': records the offset {offset:#x} alone, no data', pixels == hex(offset), pixels)

    rp = gt.named(c, 'glReadPixels')
    if rp:
        d = pattern(upload_bytes(UPLOADS[SKIP_IMAGES_2D]), 10 + SKIP_IMAGES_2D)
        rgba = b''.join(d[3 * p:3 * p + 3] + b'\xff' for p in range(6))
        ck.check('the 2D upload with IMAGE_HEIGHT 4 and SKIP_IMAGES 1 reads back as its first 18 bytes:'
                 ' the GL ignores both for 2D (so the trace must too)',
                 rp[0]['args'].get('x') == 2 and data_of(rp[0]['args'].get('pixels')) == raw(rgba), rp[0])

    comp = gt.all_args(c, 'glCompressedTexImage2D')
    ck.check('glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 8, 8, 0, 64): the 64 bytes',
             len(comp) == 1 and {k: v for k, v in comp[0].items() if k != 'data'} ==
             {'target': 'GL_TEXTURE_2D', 'level': 0, 'internalformat': 'GL_COMPRESSED_RGBA8_ETC2_EAC', 'width': 8,
              'height': 8, 'border': 0, 'imageSize': 64} and data_of(comp[0]['data']) == raw(pattern(64, 40)), comp)
    sub = gt.all_args(c, 'glCompressedTexSubImage2D')
    ck.check('glCompressedTexSubImage2D(4, 0, 4x4, ETC2, 16): the 16 bytes; from the pixel unpack buffer: offset'
             ' 0x40 alone',
             len(sub) == 2 and sub[0].get('xoffset') == 4 and sub[0].get('imageSize') == 16 and
             sub[0].get('format') == 'GL_COMPRESSED_RGBA8_ETC2_EAC' and
             data_of(sub[0].get('data')) == raw(pattern(16, 41)) and
             sub[1].get('yoffset') == 4 and sub[1].get('data') == '0x40', sub)
    pbo = [a for a in gt.all_args(c, 'glBufferData') if a.get('target') == 'GL_PIXEL_UNPACK_BUFFER']
    ck.check('glBufferData(GL_PIXEL_UNPACK_BUFFER, 256): the 256 bytes',
             len(pbo) == 1 and pbo[0].get('size') == 256 and data_of(pbo[0].get('data')) == raw(pattern(256, 42)), pbo)
    binds = [(a.get('target'), a.get('buffer')) for a in gt.all_args(c, 'glBindBuffer')
             if a.get('target') == 'GL_PIXEL_UNPACK_BUFFER']
    ck.check('the pixel unpack buffer is bound before those uploads and unbound after',
             len(binds) == 2 and binds[0][1] > 0 and binds[1][1] == 0, binds)


def check_uniforms(ck, c):
    locs = {r['args']['name']['data']: r.get('ret') for r in gt.named(c, 'glGetUniformLocation')
            if isinstance(r['args'].get('name'), dict)}
    ck.check('glGetUniformLocation: ten names, each a location; array elements follow their array',
             len(locs) == 10 and all(isinstance(v, int) and v >= 0 for v in locs.values()), locs)
    sets = [('glUniformMatrix2x3fv', 'u_m23', 2, 6, 50, False), ('glUniformMatrix3fv', 'u_m3', 2, 9, 51, False),
            ('glUniformMatrix4fv', 'u_m4', 3, 16, 52, False), ('glUniform4fv', 'u_v4', 3, 4, 53, None)]
    for fn, name, count, comps, k, transpose in sets:
        a = gt.args_of(c, fn)
        want = [fval(j, k) for j in range(count * comps)]
        head = {'location': locs.get(name), 'count': count}
        if transpose is not None:
            head['transpose'] = transpose
        ck.check(f'{fn}({name}, count {count}): the {count * comps} floats',
                 {k2: v for k2, v in a.items() if k2 != 'value'} == head and data_of(a.get('value')) == want, a)
    a = gt.args_of(c, 'glUniform1iv')
    ck.check('glUniform1iv(u_i, count 4): the 4 ints',
             a.get('location') == locs.get('u_i') and a.get('count') == 4 and
             data_of(a.get('value')) == [ival(j, 54) for j in range(4)], a)
    a = gt.args_of(c, 'glUniform3uiv')
    ck.check('glUniform3uiv(u_u3, count 1): the 3 uints',
             a.get('location') == locs.get('u_u3') and a.get('count') == 1 and
             data_of(a.get('value')) == [uval(j, 55) for j in range(3)], a)

    # What glGetUniform* wrote, and only that: the app checked it read these values.
    gets = [('glGetUniformfv', 'u_m23', [fval(j, 50) for j in range(0, 6)]),
            ('glGetUniformfv', 'u_m23[1]', [fval(j, 50) for j in range(6, 12)]),
            ('glGetUniformfv', 'u_m3', [fval(j, 51) for j in range(0, 9)]),
            ('glGetUniformfv', 'u_m4[2]', [fval(j, 52) for j in range(32, 48)]),
            ('glGetUniformfv', 'u_v4', [fval(j, 53) for j in range(0, 4)]),
            ('glGetUniformiv', 'u_i[3]', [ival(3, 54)]),
            ('glGetUniformiv', 'u_i', [ival(0, 54)]),
            ('glGetUniformiv', 'u_tex', [3]),
            ('glGetUniformuiv', 'u_u3', [uval(j, 55) for j in range(3)])]
    seen = {}
    prog = gt.named(c, 'glCreateProgram')
    for fn, name, want in gets:
        i = seen.get(fn, 0)
        seen[fn] = i + 1
        a = gt.args_of(c, fn, i)
        ck.check(f'{fn}({name}) records the {len(want)} values read, no more',
                 a.get('program') == (prog[0].get('ret') if prog else None) and a.get('location') == locs.get(name)
                 and data_of(a.get('params')) == want, a)
    bad = gt.args_of(c, 'glGetUniformfv', 5)
    errors = [r.get('ret') for r in gt.named(c, 'glGetError')]
    ck.check('glGetUniformfv(location -1) fails (GL_INVALID_OPERATION) and records no values',
             bad.get('location') == -1 and data_of(bad.get('params')) == [] and
             errors.count('GL_INVALID_OPERATION') == 1, [bad, errors])
    ck.check('every other glGetError returns GL_NO_ERROR (the size queries made no error)',
             errors.count('GL_NO_ERROR') == len(errors) - 1, errors)

    types = {'bb[0]': (2, 0x8B52), 'ba': (1, 0x8B52), 'u_m23[0]': (2, 0x8B65), 'u_m3[0]': (2, 0x8B5B),
             'u_m4[0]': (3, 0x8B5C), 'u_v4[0]': (3, 0x8B52), 'u_i[0]': (4, 0x1404), 'u_u3': (1, 0x8DC7),
             'u_tex': (1, 0x8B5E)}
    active = gt.all_args(c, 'glGetActiveUniform')
    got = {}
    for a in active:
        name = data_of(a.get('name'))
        length, size, typ = (data_of(a.get(k)) for k in ('length', 'size', 'type'))
        if isinstance(name, str) and length == [len(name)] and isinstance(size, list) and isinstance(typ, list):
            got[name] = (size[0], typ[0])
    ck.check('glGetActiveUniform 0..8 record each name as written, its length, size and type',
             [a.get('index') for a in active] == list(range(9)) and all(a.get('bufSize') == 64 for a in active) and
             got == types, active)
    index_of = {data_of(a.get('name')): a.get('index') for a in active}
    gi = gt.args_of(c, 'glGetUniformIndices')
    want_idx = [index_of.get(n) for n in ('u_v4[0]', 'u_m4[0]', 'ba', 'bb[0]')]
    ck.check('glGetUniformIndices records the 4 names and the 4 indices written, those of glGetActiveUniform',
             data_of(gi.get('uniformNames')) == ['u_v4', 'u_m4', 'ba', 'bb'] and
             data_of(gi.get('uniformIndices')) == want_idx, gi)
    siv = gt.all_args(c, 'glGetActiveUniformsiv')
    ck.check('glGetActiveUniformsiv records the 4 indices and 4 values: GL_UNIFORM_TYPE, GL_UNIFORM_SIZE',
             [(a.get('pname'), data_of(a.get('uniformIndices')), data_of(a.get('params'))) for a in siv] ==
             [('GL_UNIFORM_TYPE', want_idx, [0x8B52, 0x8B5C, 0x8B52, 0x8B52]),
              ('GL_UNIFORM_SIZE', want_idx, [3, 3, 1, 2])], siv)
    blk = gt.named(c, 'glGetUniformBlockIndex')
    biv = gt.all_args(c, 'glGetActiveUniformBlockiv')
    ck.check('glGetActiveUniformBlockiv records one value for GL_UNIFORM_BLOCK_DATA_SIZE (48) and'
             ' _ACTIVE_UNIFORMS (2), two for _ACTIVE_UNIFORM_INDICES (those of ba and bb)',
             len(blk) == 1 and data_of(blk[0]['args'].get('uniformBlockName')) == 'Blk' and
             [(a.get('uniformBlockIndex'), a.get('pname')) for a in biv] ==
             [(blk[0].get('ret'), 'GL_UNIFORM_BLOCK_' + p) for p in ('DATA_SIZE', 'ACTIVE_UNIFORMS',
                                                                     'ACTIVE_UNIFORM_INDICES')] and
             data_of(biv[0].get('params')) == [48] and data_of(biv[1].get('params')) == [2] and
             sorted(data_of(biv[2].get('params')) or []) == sorted([index_of.get('ba'), index_of.get('bb[0]')]),
             biv)


def check_buffers(ck, c):
    """The uniform buffer, the vertex buffers, transform feedback, compute.
    Returns (uniform buffer alignment, storage buffer alignment)."""
    ints = {a.get('pname'): data_of(a.get('data')) for a in gt.all_args(c, 'glGetIntegerv')}
    ck.check('glGetIntegerv records one value each: GL_MAJOR_VERSION 3, GL_MINOR_VERSION 2, the buffer offset'
             ' alignments',
             ints.get('GL_MAJOR_VERSION') == [3] and ints.get('GL_MINOR_VERSION') == [2] and
             all(isinstance(ints.get(p), list) and len(ints[p]) == 1 for p in
                 ('GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT', 'GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT')), ints)
    ubo_align = (ints.get('GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT') or [None])[0]
    ssbo_align = (ints.get('GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT') or [None])[0]
    data = {a.get('target'): a for a in gt.all_args(c, 'glBufferData')}
    ranges = {a.get('target'): a for a in gt.all_args(c, 'glBindBufferRange')}
    ub = data.get('GL_UNIFORM_BUFFER', {})
    ck.check('glBufferData(GL_UNIFORM_BUFFER, 512): the 512 bytes; glBindBufferRange binds 48 of them to point 1'
             ' at the alignment',
             ub.get('size') == 512 and data_of(ub.get('data')) == raw(pattern(512, 60)) and
             {k: v for k, v in ranges.get('GL_UNIFORM_BUFFER', {}).items() if k != 'buffer'} ==
             {'target': 'GL_UNIFORM_BUFFER', 'index': 1, 'offset': ubo_align, 'size': 48},
             [ub.get('size'), ranges.get('GL_UNIFORM_BUFFER')])
    arrays = [a for a in gt.all_args(c, 'glBufferData') if a.get('target') == 'GL_ARRAY_BUFFER']
    verts = struct.pack('<12f', *[fval(j, 61) / 64 for j in range(12)])
    pts = [fval(j, 70) for j in range(12)]
    ck.check('glBufferData(GL_ARRAY_BUFFER): the 48 bytes of the triangle, then of the three points',
             [data_of(a.get('data')) for a in arrays] == [raw(verts), raw(struct.pack('<12f', *pts))], arrays)

    tfv = gt.args_of(c, 'glTransformFeedbackVaryings')
    ck.check('glTransformFeedbackVaryings(count 2) records the strings "v_twice", "v_sum"; GL_INTERLEAVED_ATTRIBS',
             tfv.get('count') == 2 and data_of(tfv.get('varyings')) == ['v_twice', 'v_sum'] and
             tfv.get('bufferMode') == 'GL_INTERLEAVED_ATTRIBS', tfv)
    tb = data.get('GL_TRANSFORM_FEEDBACK_BUFFER', {})
    ck.check('the transform feedback buffer: 60 bytes, no data (NULL), bound to point 0',
             tb.get('size') == 60 and tb.get('data') == '0x0' and tb.get('usage') == 'GL_STATIC_READ' and
             gt.args_of(c, 'glBindBufferBase').get('target') == 'GL_TRANSFORM_FEEDBACK_BUFFER', tb)
    draws = gt.all_args(c, 'glDrawArrays')
    ck.check('glBeginTransformFeedback(GL_POINTS), glDrawArrays(GL_POINTS, 0, 3) under GL_RASTERIZER_DISCARD',
             gt.args_of(c, 'glBeginTransformFeedback') == {'primitiveMode': 'GL_POINTS'} and
             draws[1:] == [{'mode': 'GL_POINTS', 'first': 0, 'count': 3}] and
             gt.args_of(c, 'glEnable') == {'cap': 'GL_RASTERIZER_DISCARD'}, draws)
    maps = gt.named(c, 'glMapBufferRange')
    ck.check('glMapBufferRange(GL_MAP_READ_BIT): the 60 feedback bytes, then 128 storage bytes at the alignment;'
             ' both map',
             [{k: v for k, v in r['args'].items()} for r in maps] ==
             [{'target': 'GL_TRANSFORM_FEEDBACK_BUFFER', 'offset': 0, 'length': 60, 'access': 1},
              {'target': 'GL_SHADER_STORAGE_BUFFER', 'offset': ssbo_align, 'length': 128, 'access': 1}] and
             all(r.get('ret') not in (None, '0x0') for r in maps), maps)

    sb = data.get('GL_SHADER_STORAGE_BUFFER', {})
    ck.check('glBufferData(GL_SHADER_STORAGE_BUFFER, 512): the 512 bytes; glBindBufferRange binds 128 of them to'
             ' point 0 at the alignment',
             sb.get('size') == 512 and data_of(sb.get('data')) == raw(pattern(512, 80)) and
             {k: v for k, v in ranges.get('GL_SHADER_STORAGE_BUFFER', {}).items() if k != 'buffer'} ==
             {'target': 'GL_SHADER_STORAGE_BUFFER', 'index': 0, 'offset': ssbo_align, 'size': 128},
             [sb.get('size'), ranges.get('GL_SHADER_STORAGE_BUFFER')])
    ck.check('glDispatchCompute(8, 1, 1), then glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT)',
             gt.args_of(c, 'glDispatchCompute') == {'num_groups_x': 8, 'num_groups_y': 1, 'num_groups_z': 1} and
             gt.args_of(c, 'glMemoryBarrier') == {'barriers': 0x200})
    return pts, ssbo_align


def main():
    args = at.parse_args()
    ck = gt.Checker('uploads')
    recs = at.record_sample(ck, args, 'uploads')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    at.check_sequence(ck, 'the calls uploads made, in its order', [r['fn'] for r in c], expected_sequence())
    at.check_display(ck, c)
    at.check_egl_open(ck, c)
    ck.check('every GL call is on context 0', {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0})
    check_uploads(ck, c)
    check_uniforms(ck, c)
    pts, ssbo_align = check_buffers(ck, c)

    # The results the app printed follow from the data the trace holds.
    out = gt.run([args.app]).stdout
    tf = sum(sum(pts[4 * v:4 * v + 4]) for v in range(3))
    if isinstance(ssbo_align, int):
        init = pattern(512, 80)[ssbo_align:ssbo_align + 128]
        words = struct.unpack('<32I', init)
        cs = gt.fnv1a(struct.pack('<32I', *[(w * 3 + i) & 0xffffffff for i, w in enumerate(words)]))
        ck.check('the app printed the transform feedback sum and compute result the recorded inputs give',
                 f'transform feedback sum {tf:g}, compute hash {cs},' in out, (out, tf, cs))
    ck.exit()


if __name__ == '__main__':
    main()
