#!/usr/bin/env python3
"""Records one sample app with `gltrace record` and asserts on the trace what
a user would check: the calls the app made, in its order, with the
arguments it passed and return values that link up, frames, contexts and
threads, and the metadata record first.

usage: check_samples.py GLTRACE NAME PROGRAM"""
import json
import struct
import os
import shutil
import subprocess
import sys
import tempfile

gltrace, name, program = sys.argv[1:4]
failures, checked = [], []
EGL_SETUP = ['eglGetPlatformDisplay', 'eglInitialize', 'eglChooseConfig', 'eglCreatePbufferSurface',
             'eglBindAPI', 'eglCreateContext', 'eglMakeCurrent']
EGL_TEARDOWN = ['eglMakeCurrent', 'eglDestroyContext', 'eglDestroySurface', 'eglTerminate']


def check(what, cond, detail=''):
    checked.append(what)
    print(('ok   ' if cond else 'FAIL ') + what + ('' if cond else ': ' + str(detail)[:2000]))
    if not cond:
        failures.append(what)


def record(out, argv, wrap=()):
    r = subprocess.run([*wrap, gltrace, 'record', '-o', out, '--', *argv], capture_output=True, text=True,
                       timeout=300)
    return r


def read(out):
    d = subprocess.run([gltrace, 'dump', '--json', out], capture_output=True, text=True, timeout=300)
    recs = [json.loads(l) for l in d.stdout.splitlines()]
    info = subprocess.run([gltrace, 'info', out], capture_output=True, text=True, timeout=300)
    return d, recs, json.loads(info.stdout) if info.stdout else {}


def calls(recs):
    return [r for r in recs if not r['fn'].startswith('gltrace')]


def common(recs, info, process):
    check('seq runs 0, 1, 2, ... over the whole trace', [r['seq'] for r in recs] == list(range(len(recs))))
    check('the first record is the metadata', recs and recs[0]['fn'] == 'gltraceMetadata' and
          recs[0]['metadata'].get('process_name') == process and recs[0]['metadata'].get('format_version') == 1,
          recs[:1])
    real = calls(recs)
    swaps = sum(1 for r in real if r['fn'].startswith('eglSwapBuffers'))
    check('info: calls and frames agree with the dump', info.get('calls') == len(real) and info.get('frames') == swaps,
          f"info {info.get('calls')}/{info.get('frames')} dump {len(real)}/{swaps}")
    gl = [r for r in real if r['fn'].startswith('gl')]
    check('every GL call has a current context', all(r['ctx'] >= 0 for r in gl),
          [r for r in gl if r['ctx'] < 0][:3])
    meta = info.get('metadata') or {}
    check('metadata has the GL and EGL strings', 'llvmpipe' in meta.get('gl_renderer', '') and
          meta.get('egl_version', '').startswith('1.'), {k: meta.get(k) for k in ('gl_renderer', 'egl_version')})


def first(recs, fn):
    return next(r for r in recs if r['fn'] == fn)


def all_of(recs, fn):
    return [r for r in recs if r['fn'] == fn]


def frames(body, n):
    return body * n


def close(a, b):
    return isinstance(a, (int, float)) and abs(a - b) < 1e-6


def check_es2_triangle(recs):
    shader = ['glCreateShader', 'glShaderSource', 'glCompileShader', 'glGetShaderiv']
    expected = (EGL_SETUP + shader + shader +
                ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glBindAttribLocation', 'glLinkProgram',
                 'glUseProgram', 'glGetUniformLocation', 'glGetUniformLocation', 'glGenBuffers', 'glBindBuffer',
                 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray', 'glViewport'] +
                frames(['glClearColor', 'glClear', 'glUniform1f', 'glUniform4f', 'glDrawArrays', 'eglSwapBuffers'], 3) +
                ['glReadPixels', 'glGetError'] + EGL_TEARDOWN)
    c = calls(recs)
    check('the calls, in order', [r['fn'] for r in c] == expected, [r['fn'] for r in c])
    shaders = all_of(c, 'glCreateShader')
    check('shader types', [s['args']['type'] for s in shaders] == ['GL_VERTEX_SHADER', 'GL_FRAGMENT_SHADER'])
    check('glCreateShader returns the shader glShaderSource gets',
          [s['ret'] for s in shaders] == [s['args']['shader'] for s in all_of(c, 'glShaderSource')])
    check('glCreateProgram returns the program used', first(c, 'glCreateProgram')['ret'] ==
          first(c, 'glUseProgram')['args']['program'] == first(c, 'glLinkProgram')['args']['program'])
    locs = [r['ret'] for r in all_of(c, 'glGetUniformLocation')]
    check('uniform locations link up', all(r['args']['location'] == locs[0] for r in all_of(c, 'glUniform1f')) and
          all(r['args']['location'] == locs[1] for r in all_of(c, 'glUniform4f')) and locs[0] != locs[1], locs)
    check('glUniform1f values', [r['args']['v0'] for r in all_of(c, 'glUniform1f')] == [1.0, 0.75, 0.5])
    bd = first(c, 'glBufferData')['args']
    check('glBufferData arguments', bd['target'] == 'GL_ARRAY_BUFFER' and bd['size'] == 24 and
          bd['usage'] == 'GL_STATIC_DRAW', bd)
    draws = all_of(c, 'glDrawArrays')
    check('glDrawArrays(GL_TRIANGLES, 0, 3)', all(d['args'] == {'mode': 'GL_TRIANGLES', 'first': 0, 'count': 3}
                                                   for d in draws), draws[:1])
    reds = [r['args']['red'] for r in all_of(c, 'glClearColor')]
    check('glClearColor per frame', all(close(a, b) for a, b in zip(reds, [0.0, 0.1, 0.2])) and len(reds) == 3, reds)
    vp = first(c, 'glViewport')['args']
    check('glViewport size', vp == {'x': 0, 'y': 0, 'width': 64, 'height': 64}, vp)
    check('glClear mask', all(r['args']['mask'] == 0x4000 for r in all_of(c, 'glClear')))
    check('eglCreateContext returns the context made current',
          first(c, 'eglCreateContext')['ret'] == first(c, 'eglMakeCurrent')['args']['ctx'] != '0x0')
    check('eglBindAPI(EGL_OPENGL_ES_API)', first(c, 'eglBindAPI')['args']['api'] == 'EGL_OPENGL_ES_API')
    check('glGetError returns GL_NO_ERROR', first(c, 'glGetError')['ret'] == 'GL_NO_ERROR')
    # The data behind pointers (the fixups).
    src = [r['args']['string']['data'] for r in all_of(c, 'glShaderSource')]
    check('shader sources recorded', len(src) == 2 and 'gl_Position' in src[0] and 'gl_FragColor' in src[1], src)
    check('uniform names recorded', [r['args']['name']['data'] for r in all_of(c, 'glGetUniformLocation')] ==
          ['scale', 'color'])
    check('glBindAttribLocation name recorded', first(c, 'glBindAttribLocation')['args']['name']['data'] == 'pos')
    gen = first(c, 'glGenBuffers')['args']['buffers']['data']
    check('glGenBuffers names recorded and used', gen == [first(c, 'glBindBuffer')['args']['buffer']], gen)
    verts = struct.pack('<6f', -0.8, -0.8, 0.8, -0.8, 0.0, 0.8).hex()
    check('glBufferData bytes are the vertices', bd['data']['data'] == {'bytes': 24, 'hex': verts}, bd['data'])
    check('glGetShaderiv result recorded', all(r['args']['params']['data'] == [1] for r in all_of(c, 'glGetShaderiv')))
    rp = first(c, 'glReadPixels')['args']['pixels']['data']
    check('glReadPixels result recorded (64x64 RGBA)', rp['bytes'] == 64 * 64 * 4, rp.get('bytes'))
    ca = first(c, 'eglChooseConfig')['args']
    check('EGL attribute list recorded up to EGL_NONE', ca['attrib_list']['data'][-1] == 0x3038 and
          ca['attrib_list']['data'][:2] == [0x3033, 0x0001], ca['attrib_list'])
    check('eglChooseConfig config recorded and used', ca['configs']['data'] ==
          [first(c, 'eglCreatePbufferSurface')['args']['config']], ca['configs'])


def check_gles1_scene(recs):
    expected = (EGL_SETUP +
                ['glViewport', 'glMatrixMode', 'glLoadIdentity', 'glFrustumf', 'glMatrixMode', 'glEnable', 'glEnable',
                 'glLightfv', 'glEnable', 'glEnableClientState', 'glEnableClientState', 'glVertexPointer',
                 'glColorPointer'] +
                frames(['glClearColor', 'glClear', 'glLoadIdentity', 'glTranslatef', 'glRotatef', 'glColor4f',
                        'glDrawArrays', 'glTranslatef', 'glDrawElements', 'eglSwapBuffers'], 3) +
                ['glReadPixels', 'glGetError'] + EGL_TEARDOWN)
    c = calls(recs)
    check('the calls, in order', [r['fn'] for r in c] == expected, [r['fn'] for r in c])
    check('context is ES 1', first(c, 'eglMakeCurrent')['ctx'] == 0)
    check('matrix modes', [r['args']['mode'] for r in all_of(c, 'glMatrixMode')] == ['GL_PROJECTION', 'GL_MODELVIEW'])
    fr = first(c, 'glFrustumf')['args']
    check('glFrustumf planes', (fr['l'], fr['r'], fr['b'], fr['t'], fr['n'], fr['f']) == (-1, 1, -1, 1, 1, 10), fr)
    check('glEnable caps', [r['args']['cap'] for r in all_of(c, 'glEnable')] ==
          ['GL_LIGHTING', 'GL_LIGHT0', 'GL_COLOR_MATERIAL'])
    check('glRotatef angles', [r['args']['angle'] for r in all_of(c, 'glRotatef')] == [0, 30, 60])
    check('client arrays', first(c, 'glVertexPointer')['args']['size'] == 3 and
          first(c, 'glColorPointer')['args']['type'] == 'GL_FLOAT' and
          [r['args']['array'] for r in all_of(c, 'glEnableClientState')] == ['GL_VERTEX_ARRAY', 'GL_COLOR_ARRAY'])
    de = all_of(c, 'glDrawElements')
    check('glDrawElements with client indices', all(d['args']['mode'] == 'GL_TRIANGLES' and d['args']['count'] == 6 and
                                                     d['args']['type'] == 'GL_UNSIGNED_BYTE' and
                                                     d['args']['indices'] != '0x0' for d in de), de[:1])
    check('glDrawArrays(GL_TRIANGLE_FAN, 0, 4)', all(d['args'] == {'mode': 'GL_TRIANGLE_FAN', 'first': 0, 'count': 4}
                                                      for d in all_of(c, 'glDrawArrays')))
    check('glGetError returns GL_NO_ERROR', first(c, 'glGetError')['ret'] == 'GL_NO_ERROR')
    check('glLightfv position recorded', first(c, 'glLightfv')['args']['params']['data'] == [0, 0, 2, 1])


def check_es3_scene(recs):
    shader = ['glCreateShader', 'glShaderSource', 'glCompileShader']
    expected = (EGL_SETUP + ['glGetStringi', 'glCreateProgram'] + shader + ['glAttachShader'] + shader +
                ['glAttachShader', 'glLinkProgram', 'glUseProgram', 'glGetUniformBlockIndex', 'glUniformBlockBinding',
                 'glGenVertexArrays', 'glBindVertexArray', 'glGenBuffers',
                 'glBindBuffer', 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
                 'glBindBuffer', 'glBufferData', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
                 'glVertexAttribDivisor', 'glBindBuffer', 'glBufferData', 'glBindBuffer', 'glBufferData',
                 'glBindBufferBase', 'glGenTextures', 'glBindTexture', 'glTexStorage2D', 'glTexSubImage2D',
                 'glTexParameteri', 'glTexParameteri', 'glGenFramebuffers', 'glGenRenderbuffers',
                 'glBindRenderbuffer', 'glRenderbufferStorage', 'glBindFramebuffer', 'glFramebufferRenderbuffer',
                 'glCheckFramebufferStatus'] +
                frames(['glBindFramebuffer', 'glViewport', 'glClearColor', 'glClear', 'glDrawElementsInstanced',
                        'glBindFramebuffer', 'glBindFramebuffer', 'glBlitFramebuffer', 'glFenceSync',
                        'glClientWaitSync', 'glDeleteSync', 'eglSwapBuffers'], 3) +
                ['glBindFramebuffer', 'glReadPixels', 'glGetError'] + EGL_TEARDOWN)
    c = calls(recs)
    check('the calls, in order', [r['fn'] for r in c] == expected, [r['fn'] for r in c])
    gs = first(c, 'glGetStringi')
    check('glGetStringi(GL_EXTENSIONS, 0)', gs['args'] == {'name': 'GL_EXTENSIONS', 'index': 0} and gs['ret'] != '0x0', gs)
    check('glVertexAttribDivisor(1, 1)', first(c, 'glVertexAttribDivisor')['args'] == {'index': 1, 'divisor': 1})
    di = all_of(c, 'glDrawElementsInstanced')
    check('instanced draws', all(d['args']['mode'] == 'GL_TRIANGLES' and d['args']['count'] == 6 and
                                 d['args']['type'] == 'GL_UNSIGNED_SHORT' and d['args']['indices'] == '0x0' and
                                 d['args']['instancecount'] == 2 for d in di), di[:1])
    ts = first(c, 'glTexStorage2D')['args']
    check('glTexStorage2D', ts == {'target': 'GL_TEXTURE_2D', 'levels': 1, 'internalformat': 'GL_RGBA8',
                                   'width': 8, 'height': 8}, ts)
    check('framebuffer complete', first(c, 'glCheckFramebufferStatus')['ret'] == 'GL_FRAMEBUFFER_COMPLETE')
    fences = all_of(c, 'glFenceSync')
    check('the sync waited on and deleted is the one created',
          [f['ret'] for f in fences] == [w['args']['sync'] for w in all_of(c, 'glClientWaitSync')] ==
          [d['args']['sync'] for d in all_of(c, 'glDeleteSync')] and all(f['ret'] != '0x0' for f in fences))
    check('glClientWaitSync signalled', all(w['ret'] in ('GL_ALREADY_SIGNALED', 'GL_CONDITION_SATISFIED')
                                            for w in all_of(c, 'glClientWaitSync')))
    check('glGetStringi returns a recorded string', isinstance(gs['ret'], dict) and
          gs['ret']['data'].startswith('GL_'), gs['ret'])
    tex = first(c, 'glTexSubImage2D')['args']['pixels']['data']
    check('texture upload bytes recorded (8x8 RGBA)', tex['bytes'] == 256 and tex['hex'].startswith('00ff00ff04fb20ff'), tex)
    bl = first(c, 'glBlitFramebuffer')['args']
    check('glBlitFramebuffer', bl['mask'] == 0x4000 and bl['filter'] == 'GL_NEAREST' and bl['dstX1'] == 64, bl)
    check('glGetError returns GL_NO_ERROR', first(c, 'glGetError')['ret'] == 'GL_NO_ERROR')


def check_dlopen_app(recs):
    c = calls(recs)
    names = [r['fn'] for r in c]
    for fn in ('eglGetProcAddress', 'eglGetPlatformDisplayEXT', 'eglInitialize', 'eglCreateContext',
               'eglMakeCurrent', 'glClearColor', 'glClear', 'eglSwapBuffers', 'glGetError', 'eglTerminate'):
        check(f'{fn} recorded although the app dlopened the libraries', fn in names, names)
    gpa = [r['args']['procname'] for r in all_of(c, 'eglGetProcAddress')]
    check('two eglGetProcAddress calls', len(gpa) == 2, gpa)
    marks = [r for r in recs if r['fn'] == 'gltraceUncovered']
    check('one marker for the unknown name', [m['marker'] for m in marks] == ['glNoSuchFunctionGLTRACE'], marks)
    cc = first(c, 'glClearColor')['args']
    check('glClearColor values', (cc['red'], cc['green'], cc['blue'], cc['alpha']) == (0.25, 0.5, 0.75, 1.0), cc)


def check_two_threads(recs):
    c = calls(recs)
    by_tid = {}
    for r in c:
        by_tid.setdefault(r['tid'], []).append(r)
    workers = {t: rs for t, rs in by_tid.items() if any(r['fn'] == 'glUniform1i' for r in rs)}
    check('two worker threads', len(workers) == 2, list(by_tid))
    ctx_ids = set()
    for tid, rs in workers.items():
        names = [r['fn'] for r in rs]
        check(f'thread {tid}: its calls in program order',
              names == ['eglCreateContext', 'eglMakeCurrent'] + ['glUniform1i'] * 1000 +
              ['glFinish', 'eglMakeCurrent', 'eglDestroyContext'], names[:5])
        ids = {r['ctx'] for r in rs if r['fn'].startswith('gl')}
        check(f'thread {tid}: one context for its GL calls', len(ids) == 1 and min(ids) >= 0, ids)
        ctx_ids |= ids
        check(f'thread {tid}: eglCreateContext returns the context made current',
              rs[0]['ret'] == rs[1]['args']['ctx'])
    check('two distinct contexts', len(ctx_ids) == 2, ctx_ids)


def run_sample():
    d = tempfile.mkdtemp()
    try:
        out = os.path.join(d, name + '.gltrace')
        argv = [program] + (['2', '1000'] if name == 'two_threads' else [])
        r = record(out, argv)
        check('the app exits 0 under record', r.returncode == 0, r.stderr)
        dump, recs, info = read(out)
        check('dump reads the trace cleanly', dump.returncode == 0, dump.stderr)
        common(recs, info, os.path.basename(program)[:15])
        globals()['check_' + name](recs)
    finally:
        shutil.rmtree(d)


def run_es2gears():
    xvfb = shutil.which('xvfb-run')
    gears = shutil.which('es2gears_x11')
    if not xvfb or not gears:
        check('xvfb-run and es2gears_x11 are installed (ci/setup.sh installs xvfb and mesa-utils)', False,
              f'xvfb-run: {xvfb}, es2gears_x11: {gears}')
        return
    d = tempfile.mkdtemp()
    try:
        out = os.path.join(d, 'gears.gltrace')
        r = record(out, [gears], wrap=(xvfb, '-a', '-s', '-screen 0 300x300x24', 'timeout', '-s', 'TERM', '3'))
        check('es2gears_x11 ran under Xvfb until stopped', r.returncode in (124, 143), (r.returncode, r.stderr))
        dump, recs, info = read(out)
        check('the trace of a killed app reads cleanly (flushed on SIGTERM)', dump.returncode == 0, dump.stderr)
        c = calls(recs)
        names = [x['fn'] for x in c]
        for fn in ('eglGetDisplay', 'eglInitialize', 'eglChooseConfig', 'eglCreateContext', 'eglCreateWindowSurface',
                   'eglMakeCurrent', 'glCreateShader', 'glLinkProgram'):
            check(f'{fn} recorded', fn in names)
        draws = all_of(c, 'glDrawArrays')
        check('many glDrawArrays', len(draws) > 20 and all(x['ctx'] == 0 for x in draws), len(draws))
        check('several frames', names.count('eglSwapBuffers') >= 3 and info.get('frames') == names.count('eglSwapBuffers'),
              names.count('eglSwapBuffers'))
    finally:
        shutil.rmtree(d)


if name == 'es2gears_x11':
    run_es2gears()
else:
    run_sample()
print(f'{len(checked) - len(failures)} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
