#!/usr/bin/env python3
"""Records dlopen_app, which links neither libEGL nor libGLESv2 but
dlopen()s them, and checks that its calls are traced all the same: the
exact calls in order, the two extension functions it got from
eglGetProcAddress, and one gltraceUncovered marker for the name that
exists nowhere.

usage: check_dlopen_app.py --gltrace GLTRACE --app DLOPEN_APP --trace OUT.gltrace"""
import shutil

import gltest as gt
import apptrace as at


UNKNOWN = 'glNoSuchFunctionGLTRACE'
EXPECTED = ['eglGetProcAddress', 'eglGetProcAddress', 'eglGetPlatformDisplayEXT', 'eglInitialize'] + at.EGL_OPEN + [
    'glGetString', 'eglGetProcAddress',
    'glViewport', 'glClearColor', 'glClear', 'glEnable', 'glScissor', 'glClearColor', 'glClear', 'glDisable',
    'glDiscardFramebufferEXT', 'eglSwapBuffers',
    'glReadPixels', 'glGetError'] + at.EGL_CLOSE + ['eglTerminate']


def main():
    args = at.parse_args()
    ck = gt.Checker('dlopen_app')
    readelf = shutil.which('readelf')
    if ck.check('readelf is installed (binutils, from build-essential)', readelf):
        d = gt.run([readelf, '-d', args.app])
        needed = [line for line in d.stdout.splitlines() if '(NEEDED)' in line]
        ck.check('the premise: dlopen_app does not link libEGL or libGLES (readelf -d)',
                 d.returncode == 0 and needed and not any('libEGL' in x or 'libGLES' in x for x in needed), needed)
    recs = at.record_sample(ck, args, 'dlopen_app')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    n = lambda fn: gt.named(c, fn)  # noqa: E731
    a = lambda fn, i=0: gt.args_of(c, fn, i)  # noqa: E731
    at.check_sequence(ck, 'the calls dlopen_app made through dlopen/dlsym, in its order', [r['fn'] for r in c],
                      EXPECTED)
    at.check_display(ck, c)
    at.check_egl_open(ck, c)

    gpa = n('eglGetProcAddress')
    ck.check('eglGetProcAddress gives non-NULL for the two extension functions (1st and 3rd call)',
             len(gpa) == 3 and gpa[0].get('ret') not in (None, '0x0') and gpa[2].get('ret') not in (None, '0x0'), gpa)
    ck.check('eglGetPlatformDisplayEXT, got from eglGetProcAddress, is traced with its arguments',
             a('eglGetPlatformDisplayEXT') == {'platform': 'EGL_PLATFORM_SURFACELESS_MESA', 'native_display': '0x0',
                                               'attrib_list': '0x0'}, a('eglGetPlatformDisplayEXT'))
    disc = a('glDiscardFramebufferEXT')
    ck.check('glDiscardFramebufferEXT, got from eglGetProcAddress, is traced: (GL_FRAMEBUFFER, 1, attachments)',
             {k: disc.get(k) for k in ('target', 'numAttachments')} == {'target': 'GL_FRAMEBUFFER',
                                                                         'numAttachments': 1} and
             disc.get('attachments') not in (None, '0x0'), disc)

    marks = gt.named(recs, 'gltraceUncovered')
    ck.check(f'exactly one gltraceUncovered marker, naming {UNKNOWN}',
             [m.get('marker') for m in marks] == [UNKNOWN], marks)
    if marks and len(gpa) >= 1 and n('eglGetPlatformDisplayEXT'):
        ck.check('the marker sits where the app looked the name up (after the 1st eglGetProcAddress, before '
                 'eglGetPlatformDisplayEXT), on the same thread',
                 gpa[0]['seq'] < marks[0]['seq'] < n('eglGetPlatformDisplayEXT')[0]['seq'] and
                 marks[0]['tid'] == gpa[0]['tid'], marks[0])
    inf = gt.read_info(ck, args.gltrace, args.trace)
    ck.check('gltrace info counts one uncovered marker and one frame',
             inf.get('uncovered_markers') == 1 and inf.get('frames') == 1,
             {k: inf.get(k) for k in ('uncovered_markers', 'frames')})

    ck.check('glGetString(GL_EXTENSIONS) returns a string', a('glGetString') == {'name': 'GL_EXTENSIONS'} and
             n('glGetString')[0].get('ret') not in (None, '0x0'), n('glGetString'))
    clears = [tuple(r['args'].get(k) for k in ('red', 'green', 'blue', 'alpha')) for r in n('glClearColor')]
    ck.check('glClearColor (0.25, 0.5, 0.75, 1), then yellow (1, 1, 0, 1)',
             clears == [(0.25, 0.5, 0.75, 1), (1, 1, 0, 1)], clears)
    ck.check('glEnable/glDisable(GL_SCISSOR_TEST) around glScissor(16, 16, 32, 32)',
             a('glEnable') == {'cap': 'GL_SCISSOR_TEST'} and a('glDisable') == {'cap': 'GL_SCISSOR_TEST'} and
             a('glScissor') == {'x': 16, 'y': 16, 'width': 32, 'height': 32})
    ck.check('glClear(GL_COLOR_BUFFER_BIT) twice', gt.all_args(c, 'glClear') == [{'mask': 0x4000}] * 2)
    ck.check('glGetError returns GL_NO_ERROR', [r.get('ret') for r in n('glGetError')] == ['GL_NO_ERROR'],
             n('glGetError'))
    ck.exit()


if __name__ == '__main__':
    main()
