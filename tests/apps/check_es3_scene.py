#!/usr/bin/env python3
"""Records es3_scene and checks its trace: the exact OpenGL ES 3.0 calls it
makes, in order, with their arguments, and the names that flow from one call
to the next (program, uniform block, buffers, texture, framebuffer, syncs).

usage: check_es3_scene.py --gltrace GLTRACE --app ES3_SCENE --trace OUT.gltrace"""

import gltest as gt
import apptrace as at

FRAMES = 3
FRAME = ['glBindFramebuffer', 'glViewport', 'glClearColor', 'glClear', 'glBufferSubData', 'glDrawElementsInstanced',
         'glBindFramebuffer', 'glBindFramebuffer', 'glBlitFramebuffer', 'glFenceSync', 'glClientWaitSync',
         'glDeleteSync', 'eglSwapBuffers']
EXPECTED = (['eglGetPlatformDisplay', 'eglInitialize'] + at.EGL_OPEN +
            ['glGetIntegerv', 'glGetStringi'] + at.SHADER + at.SHADER +
            ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glLinkProgram', 'glGetProgramiv',
             'glGetUniformBlockIndex', 'glUniformBlockBinding', 'glGetUniformLocation', 'glUseProgram', 'glUniform1i',
             'glGenVertexArrays', 'glBindVertexArray', 'glGenBuffers',
             'glBindBuffer', 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
             'glBindBuffer', 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
             'glVertexAttribDivisor', 'glBindBuffer', 'glBufferData', 'glBindBuffer', 'glBufferData',
             'glBindBufferBase',
             'glGenTextures', 'glActiveTexture', 'glBindTexture', 'glTexStorage2D', 'glTexSubImage2D',
             'glTexParameteri', 'glTexParameteri',
             'glGenRenderbuffers', 'glBindRenderbuffer', 'glRenderbufferStorage', 'glGenFramebuffers',
             'glBindFramebuffer', 'glFramebufferRenderbuffer', 'glCheckFramebufferStatus'] +
            FRAME * FRAMES +
            ['glBindFramebuffer', 'glReadPixels', 'glGetError',
             'glDeleteFramebuffers', 'glDeleteRenderbuffers', 'glDeleteTextures', 'glDeleteBuffers',
             'glDeleteVertexArrays', 'glDeleteProgram', 'glDeleteShader', 'glDeleteShader'] +
            at.EGL_CLOSE + ['eglTerminate'])


def main():
    args = at.parse_args()
    ck = gt.Checker('es3_scene')
    recs = at.record_sample(ck, args, 'es3_scene')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    n = lambda fn: gt.named(c, fn)  # noqa: E731
    a = lambda fn, i=0: gt.args_of(c, fn, i)  # noqa: E731
    at.check_sequence(ck, 'the calls es3_scene made, in its order', [r['fn'] for r in c], EXPECTED)
    at.check_display(ck, c)
    at.check_egl_open(ck, c)
    ck.check('every GL call is on context 0', {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0})

    ck.check('glGetIntegerv(GL_NUM_EXTENSIONS), then glGetStringi(GL_EXTENSIONS, 0) returns a string',
             a('glGetIntegerv').get('pname') == 'GL_NUM_EXTENSIONS' and
             a('glGetStringi') == {'name': 'GL_EXTENSIONS', 'index': 0} and
             n('glGetStringi')[0].get('ret') not in (None, '0x0'), n('glGetStringi'))
    shaders = n('glCreateShader')
    ck.check('glCreateShader types: GL_VERTEX_SHADER then GL_FRAGMENT_SHADER',
             [r['args'].get('type') for r in shaders] == ['GL_VERTEX_SHADER', 'GL_FRAGMENT_SHADER'], shaders)
    for fn in ('glShaderSource', 'glCompileShader', 'glAttachShader', 'glDeleteShader'):
        at.links(ck, f"glCreateShader's returns are the shaders of {fn}", shaders, n(fn), 'shader')
    prog = n('glCreateProgram')
    users = [r for r in c if 'program' in r['args']]
    ck.check("glCreateProgram's return is the program of every program call after it",
             len(prog) == 1 and prog[0].get('ret', 0) > 0 and len(users) == 9 and
             all(r['args']['program'] == prog[0]['ret'] for r in users), [r['args'] for r in users])
    block = n('glGetUniformBlockIndex')
    ck.check("glGetUniformBlockIndex's return is the block glUniformBlockBinding binds to binding point 2",
             len(block) == 1 and isinstance(block[0].get('ret'), int) and
             a('glUniformBlockBinding').get('uniformBlockIndex') == block[0]['ret'] and
             a('glUniformBlockBinding').get('uniformBlockBinding') == 2, [block, a('glUniformBlockBinding')])
    at.links(ck, "glGetUniformLocation's return is glUniform1i's location (the sampler, unit 0)",
             n('glGetUniformLocation'), n('glUniform1i'), 'location')
    ck.check('glUniform1i sets texture unit 0', a('glUniform1i').get('v0') == 0, a('glUniform1i'))

    ck.check('glGenVertexArrays(1), glBindVertexArray(a name); glGenBuffers(4)',
             a('glGenVertexArrays').get('n') == 1 and a('glBindVertexArray').get('array', 0) > 0 and
             a('glGenBuffers').get('n') == 4, [a('glGenVertexArrays'), a('glBindVertexArray'), a('glGenBuffers')])
    binds = [(b.get('target'), d.get('target'), d.get('size'), d.get('usage'))
             for b, d in zip(gt.all_args(c, 'glBindBuffer'), gt.all_args(c, 'glBufferData'))]
    ck.check('buffers: 32-byte quad and 24-byte offsets (GL_ARRAY_BUFFER), 12-byte indices (GL_ELEMENT_ARRAY_BUFFER),'
             ' 32-byte uniform block (GL_UNIFORM_BUFFER, GL_DYNAMIC_DRAW)',
             binds == [('GL_ARRAY_BUFFER', 'GL_ARRAY_BUFFER', 32, 'GL_STATIC_DRAW'),
                       ('GL_ARRAY_BUFFER', 'GL_ARRAY_BUFFER', 24, 'GL_STATIC_DRAW'),
                       ('GL_ELEMENT_ARRAY_BUFFER', 'GL_ELEMENT_ARRAY_BUFFER', 12, 'GL_STATIC_DRAW'),
                       ('GL_UNIFORM_BUFFER', 'GL_UNIFORM_BUFFER', 32, 'GL_DYNAMIC_DRAW')], binds)
    names = [b.get('buffer') for b in gt.all_args(c, 'glBindBuffer')]
    ck.check('four distinct buffer names bound', len(set(names)) == 4 and all(x and x > 0 for x in names), names)
    ck.check('glBindBufferBase(GL_UNIFORM_BUFFER, 2, the uniform buffer)',
             a('glBindBufferBase') == {'target': 'GL_UNIFORM_BUFFER', 'index': 2,
                                       'buffer': names[-1] if names else None},
             a('glBindBufferBase'))
    ck.check('glVertexAttribPointer for attribute 0 and 1 (vec2 floats from offset 0)',
             gt.all_args(c, 'glVertexAttribPointer') ==
             [{'index': i, 'size': 2, 'type': 'GL_FLOAT', 'normalized': False, 'stride': 0, 'pointer': '0x0'}
              for i in (0, 1)], gt.all_args(c, 'glVertexAttribPointer'))
    ck.check('glVertexAttribDivisor(1, 1): attribute 1 per instance',
             gt.all_args(c, 'glVertexAttribDivisor') == [{'index': 1, 'divisor': 1}])

    ck.check('glActiveTexture(GL_TEXTURE0); glBindTexture(GL_TEXTURE_2D, a name)',
             a('glActiveTexture') == {'texture': 'GL_TEXTURE0'} and a('glBindTexture').get('target') == 'GL_TEXTURE_2D'
             and a('glBindTexture').get('texture', 0) > 0, [a('glActiveTexture'), a('glBindTexture')])
    ck.check('glTexStorage2D(GL_TEXTURE_2D, 1 level, GL_RGBA8, 4, 4)',
             a('glTexStorage2D') == {'target': 'GL_TEXTURE_2D', 'levels': 1, 'internalformat': 'GL_RGBA8',
                                     'width': 4, 'height': 4}, a('glTexStorage2D'))
    ts = a('glTexSubImage2D')
    ck.check('glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels)',
             {k: v for k, v in ts.items() if k != 'pixels'} ==
             {'target': 'GL_TEXTURE_2D', 'level': 0, 'xoffset': 0, 'yoffset': 0, 'width': 4, 'height': 4,
              'format': 'GL_RGBA', 'type': 'GL_UNSIGNED_BYTE'} and ts.get('pixels') != '0x0', ts)
    # glTexParameteri's param is a GLint in the registry: GL_NEAREST is the number 0x2600.
    ck.check('glTexParameteri: min and mag filter GL_NEAREST (0x2600)',
             gt.all_args(c, 'glTexParameteri') ==
             [{'target': 'GL_TEXTURE_2D', 'pname': p, 'param': 0x2600}
              for p in ('GL_TEXTURE_MIN_FILTER', 'GL_TEXTURE_MAG_FILTER')], gt.all_args(c, 'glTexParameteri'))

    rb = a('glBindRenderbuffer').get('renderbuffer')
    ck.check('glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 48) on a bound renderbuffer',
             a('glRenderbufferStorage') == {'target': 'GL_RENDERBUFFER', 'internalformat': 'GL_RGBA8',
                                            'width': 64, 'height': 48} and rb and rb > 0, a('glRenderbufferStorage'))
    fbo = a('glBindFramebuffer').get('framebuffer')
    ck.check('glFramebufferRenderbuffer attaches that renderbuffer as GL_COLOR_ATTACHMENT0 of the bound framebuffer',
             a('glFramebufferRenderbuffer') == {'target': 'GL_FRAMEBUFFER', 'attachment': 'GL_COLOR_ATTACHMENT0',
                                                'renderbuffertarget': 'GL_RENDERBUFFER', 'renderbuffer': rb}
             and fbo and fbo > 0, a('glFramebufferRenderbuffer'))
    ck.check('glCheckFramebufferStatus(GL_FRAMEBUFFER) returns GL_FRAMEBUFFER_COMPLETE',
             [(r['args'].get('target'), r.get('ret')) for r in n('glCheckFramebufferStatus')] ==
             [('GL_FRAMEBUFFER', 'GL_FRAMEBUFFER_COMPLETE')], n('glCheckFramebufferStatus'))
    fb_binds = [(b.get('target'), b.get('framebuffer')) for b in gt.all_args(c, 'glBindFramebuffer')]
    ck.check('framebuffer bindings: the FBO to draw into, the FBO to read and the window to draw on for each blit,'
             ' the window to read back',
             fb_binds == [('GL_FRAMEBUFFER', fbo)] + [('GL_FRAMEBUFFER', fbo), ('GL_READ_FRAMEBUFFER', fbo),
                                                      ('GL_DRAW_FRAMEBUFFER', 0)] * FRAMES +
             [('GL_READ_FRAMEBUFFER', 0)], fb_binds)

    ck.check('glViewport(0, 0, 64, 48) each frame',
             gt.all_args(c, 'glViewport') == [{'x': 0, 'y': 0, 'width': 64, 'height': 48}] * FRAMES,
             gt.all_args(c, 'glViewport'))
    clears = [tuple(r['args'].get(k) for k in ('red', 'green', 'blue', 'alpha')) for r in n('glClearColor')]
    ck.check('glClearColor per frame: red 0, 0.125, 0.25',
             clears == [(0, 0, 0.25, 1), (0.125, 0, 0.25, 1), (0.25, 0, 0.25, 1)], clears)
    sub = gt.all_args(c, 'glBufferSubData')
    ck.check('glBufferSubData(GL_UNIFORM_BUFFER, 0, 32 bytes) each frame',
             [{k: s.get(k) for k in ('target', 'offset', 'size')} for s in sub] ==
             [{'target': 'GL_UNIFORM_BUFFER', 'offset': 0, 'size': 32}] * FRAMES, sub)
    ck.check('glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, offset 0, 3 instances) each frame',
             gt.all_args(c, 'glDrawElementsInstanced') ==
             [{'mode': 'GL_TRIANGLES', 'count': 6, 'type': 'GL_UNSIGNED_SHORT', 'indices': '0x0',
               'instancecount': 3}] * FRAMES, gt.all_args(c, 'glDrawElementsInstanced'))
    ck.check('glBlitFramebuffer 64x48 to 128x96, GL_COLOR_BUFFER_BIT, GL_NEAREST, each frame',
             gt.all_args(c, 'glBlitFramebuffer') ==
             [{'srcX0': 0, 'srcY0': 0, 'srcX1': 64, 'srcY1': 48, 'dstX0': 0, 'dstY0': 0, 'dstX1': 128, 'dstY1': 96,
               'mask': 0x4000, 'filter': 'GL_NEAREST'}] * FRAMES, gt.all_args(c, 'glBlitFramebuffer'))

    fences = n('glFenceSync')
    ck.check('glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0) returns a sync each frame',
             len(fences) == FRAMES and all(f['args'] == {'condition': 'GL_SYNC_GPU_COMMANDS_COMPLETE', 'flags': 0}
                                           and f.get('ret') not in (None, '0x0') for f in fences), fences)
    at.links(ck, 'glClientWaitSync waits on the sync just made', fences, n('glClientWaitSync'), 'sync')
    at.links(ck, 'glDeleteSync deletes it', fences, n('glDeleteSync'), 'sync')
    waits = n('glClientWaitSync')
    ck.check('glClientWaitSync(flags GL_SYNC_FLUSH_COMMANDS_BIT = 1, timeout 1 s) returns a signalled state',
             all(w['args'].get('flags') == 1 and w['args'].get('timeout') == 1000000000 and
                 w.get('ret') in ('GL_ALREADY_SIGNALED', 'GL_CONDITION_SATISFIED') for w in waits) and waits, waits)
    rp = a('glReadPixels')
    ck.check('glReadPixels(0, 0, 128, 96, GL_RGBA, GL_UNSIGNED_BYTE, buffer)',
             {k: rp.get(k) for k in ('x', 'y', 'width', 'height', 'format', 'type')} ==
             {'x': 0, 'y': 0, 'width': 128, 'height': 96, 'format': 'GL_RGBA', 'type': 'GL_UNSIGNED_BYTE'}, rp)
    ck.check('glGetError returns GL_NO_ERROR', [r.get('ret') for r in n('glGetError')] == ['GL_NO_ERROR'],
             n('glGetError'))
    ck.check('deletes: one framebuffer, renderbuffer, texture, vertex array; four buffers',
             [a(fn).get('n') for fn in ('glDeleteFramebuffers', 'glDeleteRenderbuffers', 'glDeleteTextures',
                                        'glDeleteBuffers', 'glDeleteVertexArrays')] == [1, 1, 1, 4, 1])
    texels = bytes(0x80 if (i + i // 4) & 1 else 0xff for i in range(16) for _ in range(4)).hex()
    tsi = gt.args_of(c, 'glTexSubImage2D')['pixels'].get('data')
    ck.check('glTexSubImage2D records the 64 bytes of the checkerboard', tsi == {'bytes': 64, 'hex': texels}, tsi)
    gs = gt.named(c, 'glGetStringi')[0].get('ret')
    ck.check('glGetStringi records the string it returned', isinstance(gs, dict) and
             gs.get('data', '').startswith('GL_'), gs)
    ub = [r['args'] for r in gt.named(c, 'glBufferData') if r['args']['target'] == 'GL_UNIFORM_BUFFER']
    ck.check('glBufferData(GL_UNIFORM_BUFFER, NULL) records a NULL pointer and no data',
             len(ub) == 1 and ub[0]['data'] == '0x0', ub)
    sub = [r['args']['data'].get('data', {}).get('bytes') for r in gt.named(c, 'glBufferSubData')]
    ck.check('glBufferSubData records its 32 bytes each frame', sub == [32] * 3, sub)
    ck.exit()


if __name__ == '__main__':
    main()
