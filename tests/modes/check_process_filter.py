#!/usr/bin/env python3
"""GLTRACE_PROC: a parent script runs two GL programs, es2_triangle and
two_threads; only the one named is traced. The other runs untouched: no
file, not a word of ours, its output as without the library."""
import os

import gltest as gt
import modescheck as m


a = m.parse_args()
ck = gt.Checker('process filter')
tri = os.path.join(a.apps, 'es2_triangle')
two = os.path.join(a.apps, 'two_threads')
plain_tri = gt.run([tri]).stdout
plain_two = gt.run([two]).stdout
script = f'"{tri}" && "{two}"'

# 1. The library's own variables, as a user sets them without gltrace record.
d = m.fresh_dir(a, 'filter_env')
r = gt.run(['sh', '-c', script], env=gt.gl_env(a.lib, GLTRACE='1', GLTRACE_OUT=d + '/', GLTRACE_PROC='two_threads'))
files = sorted(os.listdir(d))
ck.check('env: the script ran both programs and exited 0', r.returncode == 0, r.stderr)
ck.check('env: both programs printed what they print untraced', r.stdout == plain_tri + plain_two,
         r.stdout + '\nexpected:\n' + plain_tri + plain_two)
ck.check('env: exactly one file, two_threads.<pid>.gltrace', len(files) == 1 and files[0].startswith('two_threads.')
         and files[0].endswith('.gltrace'), files)
ck.check('env: not a word of ours from either program', gt.lib_lines(r.stderr) == [], r.stderr)
if files:
    info = gt.run([a.gltrace, 'info', os.path.join(d, files[0])])
    ck.check('env: the trace is complete and is two_threads\'s (info)', info.returncode == 0 and
             '"complete":true' in info.stdout and '"process_name":"two_threads"' in info.stdout, info.stdout[:500])

# 2. The other way round, through gltrace record --proc.
d = m.fresh_dir(a, 'filter_record')
r = gt.run([a.gltrace, 'record', '--proc', 'es2_triangle', '-o', d + '/', '--', 'sh', '-c', script],
           env=gt.gl_env(a.lib))
files = sorted(os.listdir(d))
ck.check('record --proc: exit 0', r.returncode == 0, r.stderr)
ck.check('record --proc: exactly one file, es2_triangle.<pid>.gltrace',
         len(files) == 1 and files[0].startswith('es2_triangle.') and files[0].endswith('.gltrace'), files)
wrote = [l for l in gt.lib_lines(r.stderr) if l.startswith('gltrace: wrote ')]
ck.check('record --proc: "wrote" names that file and nothing else',
         len(wrote) == 1 and files and os.path.join(d, files[0]) in wrote[0], r.stderr)

# 3. A name that matches no program: nothing traced, nothing said by them.
d = m.fresh_dir(a, 'filter_none')
r = gt.run(['sh', '-c', script], env=gt.gl_env(a.lib, GLTRACE='1', GLTRACE_OUT=d + '/', GLTRACE_PROC='no_such_program'))
ck.check('no match: both ran, no file, no word of ours',
         r.returncode == 0 and os.listdir(d) == [] and gt.lib_lines(r.stderr) == [], r.stderr + str(os.listdir(d)))

# 4. The name is argv[0]'s last part, not the comm the kernel cuts to 15
# bytes: a long name given with exec -a still matches in full.
d = m.fresh_dir(a, 'filter_long')
long_name = 'a_rather_long_program_name'
r = gt.run(['bash', '-c', f'exec -a /x/{long_name} "{tri}"'],
           env=gt.gl_env(a.lib, GLTRACE='1', GLTRACE_OUT=d + '/', GLTRACE_PROC=long_name))
files = os.listdir(d)
ck.check('a 26-character name (argv[0]) matches and names the file',
         len(files) == 1 and files[0].startswith(long_name + '.'), str(files) + r.stderr)
ck.exit()
