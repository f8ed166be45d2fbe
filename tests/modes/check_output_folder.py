#!/usr/bin/env python3
"""GLTRACE_OUT / record -o as a folder or a pattern: a test runner starts
three programs, two of which use GL (es2_triangle, two_threads) and one
that never calls GL or EGL (gl_or_not); the run leaves exactly two traces,
NAME.PID.gltrace with the pids the runner started, each readable by
`gltrace info`; the program without GL leaves none. gltrace record
compacts each and lists each in its "wrote" lines."""
import os
import re
import sys

import gltest as gt
import modescheck as m


a = m.parse_args('--gl-or-not')
ck = gt.Checker('output folder')
tri = os.path.join(a.apps, 'es2_triangle')
two = os.path.join(a.apps, 'two_threads')

# The runner: like ctest, it starts each program and reports its pid.
runner = os.path.join(a.dir, 'runner.py')
with open(runner, 'w') as f:
    # One write(2) per line: the started program shares the pipe, and a
    # line print() hands over in pieces can have the program's own output
    # in the middle (seen once in CI: "started gl_or_not <its line> PID").
    f.write('import os, subprocess, sys\n'
            'for argv in [[sys.argv[1]], [sys.argv[2]], [sys.argv[3]]]:\n'
            '    p = subprocess.Popen(argv)\n'
            '    os.write(1, f"started {argv[0].rsplit(\'/\', 1)[-1]} {p.pid}\\n".encode())\n'
            '    if p.wait() != 0: sys.exit(1)\n')


def started(stdout):
    return {name: int(pid) for name, pid in re.findall(r'^started (\S+) (\d+)$', stdout, re.M)}


for how, out in (('folder', 'traces/'), ('pattern', 'traces_pattern/%n.%p.gltrace')):
    d = m.fresh_dir(a, 'folder_' + how)
    r = gt.run([a.gltrace, 'record', '-o', out, '--', sys.executable, runner, tri, two, a.gl_or_not],
               env=gt.gl_env(a.lib), cwd=d)
    pids = started(r.stdout)
    tdir = os.path.join(d, out.split('/')[0])
    files = sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []
    want = sorted(f'{n}.{pids.get(n)}.gltrace' for n in ('es2_triangle', 'two_threads'))
    ck.check(f'{how}: the runner ran all three programs and exited 0', r.returncode == 0 and len(pids) == 3,
             r.stdout + r.stderr)
    ck.check(f'{how}: exactly the two GL programs\' traces, named NAME.PID.gltrace', files == want,
             f'{files} != {want}')
    ck.check(f'{how}: gl_or_not (no GL call) left no file', not any(f.startswith('gl_or_not') for f in files), files)
    wrote = sorted(re.findall(r'^gltrace: wrote (\S+) \(\d+ bytes\)$', r.stderr, re.M))
    ck.check(f'{how}: record says "wrote" for each of the two, and only them',
             wrote == sorted(os.path.join(tdir, f) for f in want), r.stderr)
    for f in files:
        info, j = gt.info(a.gltrace, os.path.join(tdir, f))
        j = j or {}
        name = f.split('.')[0]
        frames = {'es2_triangle': 3, 'two_threads': 8}[name]
        ck.check(f'{how}: {f}: info reads it: complete, {frames} frames, process {name}, pid {pids.get(name)}',
                 j.get('complete') is True and j.get('frames') == frames and
                 j.get('metadata', {}).get('process_name') == name and j.get('metadata', {}).get('pid') == pids.get(name),
                 info.stdout[:400] + info.stderr)
        # Compaction per file: a trace this small ends as one chunk per
        # thread (as capture wrote it: a chunk per swap and thread or more).
        ck.check(f'{how}: {f}: compacted by record (one chunk per thread)',
                 j.get('chunks') == j.get('threads'), (j.get('chunks'), j.get('threads')))

# The same through the library alone, with a folder that does not exist yet.
d = m.fresh_dir(a, 'folder_env')
r = gt.run([sys.executable, runner, tri, two, a.gl_or_not], env=gt.gl_env(a.lib, GLTRACE='1', GLTRACE_OUT=d + '/new/'))
pids = started(r.stdout)
files = sorted(os.listdir(os.path.join(d, 'new'))) if os.path.isdir(os.path.join(d, 'new')) else []
ck.check('env: GLTRACE_OUT ending in / creates the folder; two traces, named by pid',
         files == sorted(f'{n}.{pids.get(n)}.gltrace' for n in ('es2_triangle', 'two_threads')), files)

# A process that never calls GL, alone: no file, and record says so.
d = m.fresh_dir(a, 'folder_nogl')
r = gt.run([a.gltrace, 'record', '-o', 'traces/', '--', a.gl_or_not], env=gt.gl_env(a.lib), cwd=d)
ck.check('no GL at all: exit 0, an empty folder, record says no process used GL',
         r.returncode == 0 and os.listdir(os.path.join(d, 'traces')) == [] and 'no process of the run used GL' in r.stderr,
         r.stderr)

# The same with one file named: no file left behind (an empty file would
# look like a trace), and record says so.
d = m.fresh_dir(a, 'file_nogl')
r = gt.run([a.gltrace, 'record', '-o', 'app.gltrace', '--', a.gl_or_not], env=gt.gl_env(a.lib), cwd=d)
ck.check('no GL, -o FILE: exit 0, no file, record says no process used GL',
         r.returncode == 0 and os.listdir(d) == [] and 'no process of the run used GL' in r.stderr,
         (os.listdir(d), r.stderr))

# A program that cannot start: one line naming it, exit 127, no file.
d = m.fresh_dir(a, 'no_program')
missing = os.path.join(d, 'no-such-program')
r = gt.run([a.gltrace, 'record', '-o', 'app.gltrace', '--', missing], env=gt.gl_env(a.lib), cwd=d)
ck.check('a program that does not exist: exit 127, one line naming it, no file',
         r.returncode == 127 and r.stderr.strip() == f'gltrace record: cannot run {missing}: No such file or directory'
         and os.listdir(d) == [], (r.returncode, r.stderr, os.listdir(d)))
ck.exit()
