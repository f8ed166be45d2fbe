#!/usr/bin/env python3
"""Records gles1_scene and checks its trace: the exact OpenGL ES 1.1
fixed-function calls it makes, in order, with their arguments (matrix
modes, frustum planes, lights, client arrays, client-side indices).

usage: check_gles1_scene.py --gltrace GLTRACE --app GLES1_SCENE --trace OUT.gltrace"""

import gltest as gt
import apptrace as at

FRAMES = 3
FRAME = ['glClearColor', 'glClear', 'glLoadIdentity', 'glTranslatef', 'glRotatef', 'glColor4f', 'glDrawArrays',
         'glLoadIdentity', 'glTranslatef', 'glEnableClientState', 'glColorPointer', 'glDrawElements',
         'glDisableClientState', 'eglSwapBuffers']
EXPECTED = (['eglGetPlatformDisplay', 'eglInitialize'] + at.EGL_OPEN +
            ['glViewport', 'glMatrixMode', 'glLoadIdentity', 'glFrustumf', 'glMatrixMode',
             'glEnable', 'glEnable', 'glEnable', 'glLightfv', 'glLightfv', 'glEnable',
             'glEnableClientState', 'glEnableClientState', 'glVertexPointer', 'glNormalPointer'] +
            FRAME * FRAMES +
            ['glReadPixels', 'glGetError'] + at.EGL_CLOSE + ['eglTerminate'])


def main():
    args = at.parse_args()
    ck = gt.Checker('gles1_scene')
    recs = at.record_sample(ck, args, 'gles1_scene')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    n = lambda fn: gt.named(c, fn)  # noqa: E731
    a = lambda fn, i=0: gt.args_of(c, fn, i)  # noqa: E731
    at.check_sequence(ck, 'the calls gles1_scene made, in its order', [r['fn'] for r in c], EXPECTED)
    at.check_display(ck, c)
    at.check_egl_open(ck, c)
    ck.check('every GL call is on context 0', {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0})
    meta = gt.read_info(ck, args.gltrace, args.trace).get('metadata') or {}
    ck.check('the metadata has the GL version of an OpenGL ES 1 context ("OpenGL ES-CM 1.")',
             meta.get('gl_version', '').startswith('OpenGL ES-CM 1.'), meta.get('gl_version'))

    ck.check('glViewport(0, 0, 64, 64)', a('glViewport') == {'x': 0, 'y': 0, 'width': 64, 'height': 64},
             a('glViewport'))
    ck.check('glMatrixMode: GL_PROJECTION, then GL_MODELVIEW',
             gt.all_args(c, 'glMatrixMode') == [{'mode': 'GL_PROJECTION'}, {'mode': 'GL_MODELVIEW'}],
             gt.all_args(c, 'glMatrixMode'))
    ck.check('glFrustumf(-1, 1, -1, 1, 1, 10)',
             a('glFrustumf') == {'l': -1, 'r': 1, 'b': -1, 't': 1, 'n': 1, 'f': 10}, a('glFrustumf'))
    caps = [r['args'].get('cap') for r in n('glEnable')]
    ck.check('glEnable: GL_DEPTH_TEST, GL_LIGHTING, GL_LIGHT0, GL_COLOR_MATERIAL',
             caps == ['GL_DEPTH_TEST', 'GL_LIGHTING', 'GL_LIGHT0', 'GL_COLOR_MATERIAL'], caps)
    lights = [(r['args'].get('light'), r['args'].get('pname'), r['args'].get('params', '0x0') != '0x0')
              for r in n('glLightfv')]
    ck.check('glLightfv(GL_LIGHT0, GL_POSITION, ...) then (GL_LIGHT0, GL_DIFFUSE, ...)',
             lights == [('GL_LIGHT0', 'GL_POSITION', True), ('GL_LIGHT0', 'GL_DIFFUSE', True)], lights)
    arrays = [r['args'].get('array') for r in n('glEnableClientState')]
    ck.check('glEnableClientState: GL_VERTEX_ARRAY, GL_NORMAL_ARRAY, then GL_COLOR_ARRAY each frame',
             arrays == ['GL_VERTEX_ARRAY', 'GL_NORMAL_ARRAY'] + ['GL_COLOR_ARRAY'] * FRAMES and
             gt.all_args(c, 'glDisableClientState') == [{'array': 'GL_COLOR_ARRAY'}] * FRAMES, arrays)
    vp, np_ = a('glVertexPointer'), a('glNormalPointer')
    ck.check('glVertexPointer(3, GL_FLOAT, 0, client memory); glNormalPointer(GL_FLOAT, 0, client memory)',
             {k: vp.get(k) for k in ('size', 'type', 'stride')} == {'size': 3, 'type': 'GL_FLOAT', 'stride': 0} and
             {k: np_.get(k) for k in ('type', 'stride')} == {'type': 'GL_FLOAT', 'stride': 0} and
             vp.get('pointer') not in (None, '0x0') and np_.get('pointer') not in (None, '0x0'), [vp, np_])
    cps = gt.all_args(c, 'glColorPointer')
    ck.check('glColorPointer(4, GL_FLOAT, 0, the same client memory) each frame',
             len(cps) == FRAMES and all({k: p.get(k) for k in ('size', 'type', 'stride')} ==
                                        {'size': 4, 'type': 'GL_FLOAT', 'stride': 0} for p in cps) and
             len({p.get('pointer') for p in cps}) == 1 and cps[0].get('pointer') != '0x0', cps)

    clears = [tuple(r['args'].get(k) for k in ('red', 'green', 'blue', 'alpha')) for r in n('glClearColor')]
    ck.check('glClearColor per frame: blue 0, 0.25, 0.5',
             clears == [(0, 0, 0, 1), (0, 0, 0.25, 1), (0, 0, 0.5, 1)], clears)
    ck.check('glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT = 0x4100) each frame',
             gt.all_args(c, 'glClear') == [{'mask': 0x4100}] * FRAMES, gt.all_args(c, 'glClear'))
    moves = [tuple(r['args'].get(k) for k in ('x', 'y', 'z')) for r in n('glTranslatef')]
    ck.check('glTranslatef: (-0.5, 0, -4) for the quad, (1, 0, -5) for the indexed pair, each frame',
             moves == [(-0.5, 0, -4), (1, 0, -5)] * FRAMES, moves)
    ck.check('glRotatef about z by 0, 30, 60 degrees',
             gt.all_args(c, 'glRotatef') == [{'angle': d, 'x': 0, 'y': 0, 'z': 1} for d in (0, 30, 60)],
             gt.all_args(c, 'glRotatef'))
    ck.check('glColor4f(1, 1, 1, 1) each frame',
             gt.all_args(c, 'glColor4f') == [{'red': 1, 'green': 1, 'blue': 1, 'alpha': 1}] * FRAMES,
             gt.all_args(c, 'glColor4f'))
    ck.check('glDrawArrays(GL_TRIANGLE_FAN, 0, 4) each frame',
             gt.all_args(c, 'glDrawArrays') == [{'mode': 'GL_TRIANGLE_FAN', 'first': 0, 'count': 4}] * FRAMES,
             gt.all_args(c, 'glDrawArrays'))
    de = gt.all_args(c, 'glDrawElements')
    ck.check('glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_BYTE, client-side indices) each frame',
             len(de) == FRAMES and all({k: d.get(k) for k in ('mode', 'count', 'type')} ==
                                       {'mode': 'GL_TRIANGLES', 'count': 6, 'type': 'GL_UNSIGNED_BYTE'} and
                                       d.get('indices') not in (None, '0x0') for d in de), de)
    rp = a('glReadPixels')
    ck.check('glReadPixels(0, 0, 64, 64, GL_RGBA, GL_UNSIGNED_BYTE, buffer)',
             {k: rp.get(k) for k in ('x', 'y', 'width', 'height', 'format', 'type')} ==
             {'x': 0, 'y': 0, 'width': 64, 'height': 64, 'format': 'GL_RGBA', 'type': 'GL_UNSIGNED_BYTE'}, rp)
    ck.check('glGetError returns GL_NO_ERROR', [r.get('ret') for r in n('glGetError')] == ['GL_NO_ERROR'],
             n('glGetError'))
    lights = [(r['args']['pname'], r['args']['params']['data']) for r in gt.named(c, 'glLightfv')]
    ck.check('glLightfv records the four floats of GL_POSITION and GL_DIFFUSE',
             lights == [('GL_POSITION', [0, 0, 1, 0]), ('GL_DIFFUSE', [1, 1, 1, 1])], lights)
    ck.exit()


if __name__ == '__main__':
    main()
