#!/usr/bin/env python3
"""GLTRACE=error on error_app, which makes GL errors on purpose: each error
is one line naming the call, its arguments (enums by name), the error and
the app's backtrace down to the app's function; the app's own glGetError
still sees its error; the app runs to its end; an error repeated 12 times
is logged 10 times and counted 12 in the summary at exit; no trace file."""
import os
import re

import gltest as gt
import modescheck as m


a = m.parse_args('--app')
ck = gt.Checker('error mode')
d = m.fresh_dir(a, 'error_mode')
plain = gt.run([a.app])
ck.check('untraced, the app runs and sees its own error', plain.returncode == 0 and
         'app saw 0x0501 then 0x0000' in plain.stdout, plain.stdout + plain.stderr)

for how, argv, env in (('env', [a.app], gt.gl_env(a.lib, GLTRACE='error')),
                       ('record', [a.gltrace, 'record', '--mode=error', '--', a.app], gt.gl_env(a.lib))):
    r = gt.run(argv, env=env, cwd=d)
    lines = gt.lib_lines(r.stderr)
    errs = [l for l in lines if l.startswith('gltrace: error GL_')]
    ck.check(f'{how}: the app ran to its end (exit 0, same output)', r.returncode == 0 and r.stdout == plain.stdout,
             r.stdout + r.stderr)
    tex = [l for l in errs if ' in glTexImage2D(' in l]
    ck.check(f'{how}: one line for glTexImage2D: GL_INVALID_ENUM, every argument by name',
             len(tex) == 1 and tex[0].startswith('gltrace: error GL_INVALID_ENUM in glTexImage2D(target=0x1234, level=0, '
                                                  'internalformat=') and
             'width=4, height=4, border=0, format=GL_RGBA, type=GL_UNSIGNED_BYTE, pixels=0x0)' in tex[0], errs)
    # The first frame in the app is the function that made the call (under
    # ASan, a frame of its runtime may come before it).
    ck.check(f'{how}: its backtrace reaches the app in make_enum_error, then main',
             len(tex) == 1 and re.search(r'backtrace: (\S+ <- )?make_enum_error\+0x[0-9a-f]+ \(error_app\) <- '
                                         r'main\+0x[0-9a-f]+ \(error_app\)', tex[0]), tex)
    draw = [l for l in errs if ' in glDrawArrays(' in l]
    ck.check(f'{how}: glDrawArrays(count=-1): GL_INVALID_VALUE with mode=GL_TRIANGLES, first=0, count=-1, '
             'in make_value_error',
             len(draw) == 1 and 'error GL_INVALID_VALUE in glDrawArrays(mode=GL_TRIANGLES, first=0, count=-1)' in draw[0]
             and re.search(r'backtrace: (\S+ <- )?make_value_error\+', draw[0]), errs)
    ck.check(f'{how}: the app\'s glGetError saw both errors the error mode took, once each',
             'pending 0x0500' in r.stdout and 'app saw 0x0501 then 0x0000' in r.stdout, r.stdout)
    en = [l for l in errs if ' in glEnable(' in l]
    ck.check(f'{how}: 12 glEnable errors: 10 lines, then one saying the rest are counted',
             len(en) == 10 and all('glEnable(cap=0x1234)' in l and 'make_many_errors+' in l for l in en) and
             'gltrace: further GL_INVALID_ENUM in glEnable are counted, not logged' in lines, lines)
    ck.check(f'{how}: no error for the calls that made none (glClear, glGetError, EGL)',
             not any(re.search(r' in (glClear|glGetError|egl\w+)\(', l) for l in errs), errs)
    summ = lines[lines.index('gltrace: error mode: 14 GL errors in 3 functions'):] \
        if 'gltrace: error mode: 14 GL errors in 3 functions' in lines else []
    ck.check(f'{how}: the exit summary: 14 errors in 3 functions, per function and error',
             'gltrace:   glEnable: GL_INVALID_ENUM 12' in summ and 'gltrace:   glTexImage2D: GL_INVALID_ENUM 1' in summ
             and 'gltrace:   glDrawArrays: GL_INVALID_VALUE 1' in summ, lines)
    ck.check(f'{how}: no file written', os.listdir(d) == [], os.listdir(d))

# A correct app: no error line, a summary that says so.
r = gt.run([os.path.join(a.apps, 'es2_triangle')], env=gt.gl_env(a.lib, GLTRACE='error'), cwd=d)
ck.check('es2_triangle (no errors): exit 0, only "no GL errors" from us',
         r.returncode == 0 and gt.lib_lines(r.stderr) == ['gltrace: error mode: no GL errors'], r.stderr)
ck.exit()
