#!/usr/bin/env python3
"""Values the library does not know: one clear line naming the variable,
the value and what it accepts; the app runs untraced to its normal end and
no file is written. Also: gltrace record refuses unknown --mode/--timing."""
import os

import gltest as gt
import modescheck as m


a = m.parse_args()
ck = gt.Checker('unknown values')
tri = os.path.join(a.apps, 'es2_triangle')
plain = gt.run([tri]).stdout
d = m.fresh_dir(a, 'unknown')
cases = [({'GLTRACE': 'errors'}, 'GLTRACE=errors', '(0, 1, full, error, timing)'),
         ({'GLTRACE': 'timing', 'GLTRACE_TIMING': 'frames'}, 'GLTRACE_TIMING=frames', 'calls or draws'),
         ({'GLTRACE': '1', 'GLTRACE_OUT': d + '/%q.gltrace'}, "'%q'", '%p, %n or %%')]
for env, named, accepts in cases:
    env = dict(env)
    env.setdefault('GLTRACE_OUT', d + '/')
    r = gt.run([tri], env=gt.gl_env(a.lib, **env), cwd=d)
    lines = gt.lib_lines(r.stderr)
    ck.check(f'{named}: the app ran to its end untraced', r.returncode == 0 and r.stdout == plain, r.stderr)
    ck.check(f'{named}: one line, naming it and what is accepted, saying tracing is off',
             len(lines) == 1 and named in lines[0] and accepts in lines[0] and 'is off' in lines[0], lines)
    ck.check(f'{named}: no file', os.listdir(d) == [], os.listdir(d))

for opt, bad in (('--mode', 'fast'), ('--timing', 'frames')):
    r = gt.run([a.gltrace, 'record', f'{opt}={bad}', '--mode=timing' if opt == '--timing' else '--fb=swap', '--', tri],
               env=gt.gl_env(a.lib), cwd=d)
    ck.check(f'record {opt}={bad}: exit 2 naming the value, the program not run',
             r.returncode == 2 and bad in r.stderr and r.stdout == '', r.stderr)
ck.exit()
