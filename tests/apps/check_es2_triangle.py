#!/usr/bin/env python3
"""Records es2_triangle and checks its trace: the exact calls it makes, in
order, with their arguments, and the values that flow from one call to the
next (shader and program names, uniform locations, EGL handles).

usage: check_es2_triangle.py --gltrace GLTRACE --app ES2_TRIANGLE --trace OUT.gltrace"""
import struct

import gltest as gt
import apptrace as at


FRAMES = 3
FRAME = ['glClearColor', 'glClear', 'glUniform2f', 'glUniform4f', 'glDrawArrays', 'eglSwapBuffers']
EXPECTED = (['eglGetPlatformDisplay', 'eglInitialize'] + at.EGL_OPEN + at.SHADER + at.SHADER +
            ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glBindAttribLocation', 'glLinkProgram',
             'glGetProgramiv', 'glGetUniformLocation', 'glGetUniformLocation', 'glUseProgram',
             'glGenBuffers', 'glBindBuffer', 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
             'glViewport'] +
            FRAME * FRAMES +
            ['glReadPixels', 'glGetError', 'glDeleteBuffers', 'glDeleteProgram', 'glDeleteShader', 'glDeleteShader'] +
            at.EGL_CLOSE + ['eglTerminate'])


def main():
    args = at.parse_args()
    ck = gt.Checker('es2_triangle')
    recs = at.record_sample(ck, args, 'es2_triangle')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    n = lambda fn: gt.named(c, fn)  # noqa: E731
    a = lambda fn, i=0: gt.args_of(c, fn, i)  # noqa: E731
    at.check_sequence(ck, 'the calls es2_triangle made, in its order', [r['fn'] for r in c], EXPECTED)
    at.check_display(ck, c)
    at.check_egl_open(ck, c)
    ck.check('one thread, one context: every GL call is on context 0',
             {r['tid'] for r in c} == {recs[0]['tid']} and {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0})

    shaders = n('glCreateShader')
    ck.check('glCreateShader types: GL_VERTEX_SHADER then GL_FRAGMENT_SHADER',
             [r['args'].get('type') for r in shaders] == ['GL_VERTEX_SHADER', 'GL_FRAGMENT_SHADER'], shaders)
    for fn in ('glShaderSource', 'glCompileShader', 'glGetShaderiv', 'glDeleteShader'):
        at.links(ck, f"glCreateShader's returns are the shaders of {fn}", shaders, n(fn), 'shader')
    at.links(ck, "... and of glAttachShader", shaders, n('glAttachShader'), 'shader')
    ck.check('glShaderSource passes one string; glGetShaderiv asks GL_COMPILE_STATUS',
             all(r['args'].get('count') == 1 and r['args'].get('string') != '0x0' for r in n('glShaderSource')) and
             all(r['args'].get('pname') == 'GL_COMPILE_STATUS' for r in n('glGetShaderiv')))
    prog = n('glCreateProgram')
    users = [r for r in c if 'program' in r['args']]
    ck.check("glCreateProgram's return is the program of every program call after it",
             len(prog) == 1 and prog[0].get('ret', 0) > 0 and len(users) == 9 and
             all(r['args']['program'] == prog[0]['ret'] for r in users), (prog, [r['args'] for r in users]))
    ck.check('glBindAttribLocation binds index 0; glGetProgramiv asks GL_LINK_STATUS',
             a('glBindAttribLocation').get('index') == 0 and a('glGetProgramiv').get('pname') == 'GL_LINK_STATUS')

    locs = [r.get('ret') for r in n('glGetUniformLocation')]
    ck.check('glGetUniformLocation finds two distinct uniforms', len(locs) == 2 and len(set(locs)) == 2 and
             all(isinstance(v, int) and v >= 0 for v in locs), locs)
    at.links(ck, "the first location is glUniform2f's (u_offset), every frame",
             n('glGetUniformLocation')[:1] * FRAMES, n('glUniform2f'), 'location')
    at.links(ck, "the second location is glUniform4f's (u_color), every frame",
             n('glGetUniformLocation')[1:2] * FRAMES, n('glUniform4f'), 'location')
    ck.check('glUniform2f moves the triangle: (0, 0), (0.0625, 0), (0.125, 0)',
             [(r['args'].get('v0'), r['args'].get('v1')) for r in n('glUniform2f')] ==
             [(0, 0), (0.0625, 0), (0.125, 0)], gt.all_args(c, 'glUniform2f'))
    ck.check('glUniform4f colour (1, 0.5, 0, 1) every frame',
             len(n('glUniform4f')) == FRAMES and
             all(tuple(r['args'].get(k) for k in ('v0', 'v1', 'v2', 'v3')) == (1, 0.5, 0, 1) for r in n('glUniform4f')),
             gt.all_args(c, 'glUniform4f')[:1])

    ck.check('glGenBuffers(1); glBindBuffer(GL_ARRAY_BUFFER, a buffer name)',
             a('glGenBuffers').get('n') == 1 and a('glBindBuffer').get('target') == 'GL_ARRAY_BUFFER' and
             a('glBindBuffer').get('buffer', 0) > 0, [n('glGenBuffers'), n('glBindBuffer')])
    bd = a('glBufferData')
    ck.check('glBufferData(GL_ARRAY_BUFFER, 24 bytes, data, GL_STATIC_DRAW)',
             bd.get('target') == 'GL_ARRAY_BUFFER' and bd.get('size') == 24 and bd.get('usage') == 'GL_STATIC_DRAW'
             and bd.get('data') != '0x0', bd)
    vap = a('glVertexAttribPointer')
    ck.check('glVertexAttribPointer(0, 2, GL_FLOAT, false, 8, offset 0)',
             vap == {'index': 0, 'size': 2, 'type': 'GL_FLOAT', 'normalized': False, 'stride': 8, 'pointer': '0x0'},
             vap)
    ck.check('glEnableVertexAttribArray(0)', a('glEnableVertexAttribArray') == {'index': 0})
    ck.check('glViewport(0, 0, 64, 64)', a('glViewport') == {'x': 0, 'y': 0, 'width': 64, 'height': 64},
             n('glViewport'))

    clears = [tuple(r['args'].get(k) for k in ('red', 'green', 'blue', 'alpha')) for r in n('glClearColor')]
    ck.check('glClearColor per frame: red 0, 0.25, 0.5 over (0.5, 0.75, 1)',
             clears == [(0, 0.5, 0.75, 1), (0.25, 0.5, 0.75, 1), (0.5, 0.5, 0.75, 1)], clears)
    ck.check('glClear(GL_COLOR_BUFFER_BIT = 0x4000) every frame',
             gt.all_args(c, 'glClear') == [{'mask': 0x4000}] * FRAMES, gt.all_args(c, 'glClear'))
    ck.check('glDrawArrays(GL_TRIANGLES, 0, 3) every frame',
             gt.all_args(c, 'glDrawArrays') == [{'mode': 'GL_TRIANGLES', 'first': 0, 'count': 3}] * FRAMES,
             gt.all_args(c, 'glDrawArrays'))
    rp = a('glReadPixels')
    ck.check('glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, buffer)',
             {k: rp.get(k) for k in ('x', 'y', 'width', 'height', 'format', 'type')} ==
             {'x': 0, 'y': 0, 'width': 64, 'height': 64, 'format': 'GL_RGBA', 'type': 'GL_UNSIGNED_BYTE'} and
             rp.get('pixels') != '0x0', rp)
    ck.check('glGetError returns GL_NO_ERROR', [r.get('ret') for r in n('glGetError')] == ['GL_NO_ERROR'],
             n('glGetError'))
    # The data behind the pointers (the capture's fixup step).
    src = [r['args'].get('string', {}).get('data') for r in n('glShaderSource')]
    ck.check('glShaderSource records both sources, whole', src == [
        'attribute vec2 a_pos;\nuniform vec2 u_offset;\n'
         'void main() { gl_Position = vec4(a_pos + u_offset, 0.0, 1.0); }\n',
        'precision mediump float;\nuniform vec4 u_color;\nvoid main() { gl_FragColor = u_color; }\n'], src)
    ck.check('glGetUniformLocation and glBindAttribLocation record the names',
             [r['args']['name']['data'] for r in n('glGetUniformLocation')] == ['u_offset', 'u_color'] and
             a('glBindAttribLocation')['name']['data'] == 'a_pos', n('glGetUniformLocation'))
    ck.check('glGetShaderiv and glGetProgramiv record the value returned (GL_TRUE)',
             [r['args']['params']['data'] for r in n('glGetShaderiv') + n('glGetProgramiv')] == [[1]] * 3)
    ck.check("glGenBuffers records the name made, and it is glBindBuffer's",
             a('glGenBuffers')['buffers']['data'] == [a('glBindBuffer')['buffer']], a('glGenBuffers'))
    tri = struct.pack('<6f', -0.5, -0.5, 0.5, -0.5, 0.0, 0.5).hex()
    ck.check('glBufferData records the 24 bytes of the triangle', bd['data'].get('data') == {'bytes': 24, 'hex': tri},
             bd['data'])
    px = rp['pixels'].get('data', {})
    ck.check('glReadPixels records the 64x64x4 bytes it returned', px.get('bytes') == 64 * 64 * 4, px.get('bytes'))
    ch = a('eglChooseConfig')
    ck.check('eglChooseConfig records the attribute list up to EGL_NONE and the config it returned, '
             "which is eglCreateContext's", ch['attrib_list']['data'][-1] == 0x3038 and
             len(ch['attrib_list']['data']) % 2 == 1 and ch['configs']['data'] == [a('eglCreateContext')['config']],
             ch)
    ck.exit()


if __name__ == '__main__':
    main()
