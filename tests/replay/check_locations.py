#!/usr/bin/env python3
"""Locations another driver would have given: attribute and uniform
locations are mapped by name, through the answers the app got.

tests/apps/locations asks the driver for every location it uses
(glGetAttribLocation, glGetUniformLocation, glGetProgramResourceLocation
for GL_PROGRAM_INPUT and GL_UNIFORM) in two programs. Its trace is
rewritten as if the recording driver had answered otherwise: per program,
a different attribute location for each name and uniform locations moved,
and every call the app then made with those answers (glVertexAttribPointer,
glEnableVertexAttribArray, glDisableVertexAttribArray, glVertexAttrib2f,
the client array record, glUniform*) changed to match. The app's own
intent decides which program's answers a call used: the program in use,
or, before any is, the program whose locations it had just asked.

* The recording replays bit-exact as it is (a baseline).
* The rewritten trace replays bit-exact too, and replay says once that it
  maps attribute locations.
* The control: the same calls rewritten but the answers left as recorded
  (no mapping can undo that): replay reports differing snapshots, exit 1.
  So the first check passes only because the answers were used.

usage: check_locations.py GLTRACE APP FUNCTIONS_TSV WORK_DIR"""
import functools
import os
import subprocess
import sys

import gltest as gt
from legacy_pb import encode, fields, frame, records


gltrace, app, functions_tsv, work = sys.argv[1:5]
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=gt.gl_env(headless=True), timeout=600)
ck = gt.Checker('replay.locations_mapped')
os.makedirs(work, exist_ok=True)
num = {}
for line in open(functions_tsv):
    if line.strip() and not line.startswith('#'):
        name, n = line.split('\t')[:2]
        num[name] = int(n)
N = {v: k for k, v in num.items()}
GL_UNIFORM, GL_PROGRAM_INPUT = 0x92E1, 0x92E3
CLIENT_ARRAY = 3001  # glVertexAttribPointerData (proto/FORMAT.md)
ATTRIB_CALLS = {'glVertexAttribPointer', 'glEnableVertexAttribArray', 'glDisableVertexAttribArray',
                'glVertexAttrib2f'}
# The other driver's answers, per program (by the order the app made them):
# program 1 gets attribute locations rotated, program 2 shifted by 4.
OTHER_ATTRIB = [lambda loc: (loc + 1) % 3, lambda loc: loc + 4]
OTHER_UNIFORM = lambda loc: loc + 7  # noqa: E731


def ints(dt):
    return [v for n, _, v in fields(dt) if n == 3]


def with_int(dt, value):
    """A DataType with its (one) int value replaced."""
    return encode([(n, wt, value & 0xffffffffffffffff if n == 3 else v) for n, wt, v in fields(dt)])


def rewrite(stream, answers):
    """The trace as the other driver's: calls always, answers if `answers`."""
    out, programs, in_use, asked = [], [], 0, 0
    edits = {'answers': 0, 'calls': 0, 'uniforms': 0}
    for m in records(stream):
        fs = fields(m)
        fn = next((v for n, _, v in fs if n == 4), None)
        args = [i for i, (n, _, _) in enumerate(fs) if n == 5]
        ret = next((i for i, (n, _, _) in enumerate(fs) if n == 6), None)
        name = N.get(fn, '')

        def arg(k):
            return ints(fs[args[k]][2])[0]

        def set_arg(k, value):
            fs[args[k]] = (5, 2, with_int(fs[args[k]][2], value))

        if name == 'glUseProgram':
            in_use = arg(0)
        elif name in ('glGetAttribLocation', 'glGetProgramResourceLocation', 'glGetUniformLocation'):
            prog = arg(0)
            if prog not in programs:
                programs.append(prog)
            asked = prog
            iface = arg(1) if name == 'glGetProgramResourceLocation' else None
            loc = ints(fs[ret][2])[0]
            if name == 'glGetUniformLocation' or iface == GL_UNIFORM:
                new = OTHER_UNIFORM(loc)
            else:
                new = OTHER_ATTRIB[programs.index(prog)](loc)
            if answers:
                fs[ret] = (6, 2, with_int(fs[ret][2], new))
                edits['answers'] += 1
        elif name in ATTRIB_CALLS or (fn == CLIENT_ARRAY and arg(8) == num['glVertexAttribPointer']):
            prog = in_use or asked
            set_arg(0, OTHER_ATTRIB[programs.index(prog)](arg(0)))
            edits['calls'] += 1
        elif name.startswith('glUniform'):
            set_arg(0, OTHER_UNIFORM(arg(0)))
            edits['uniforms'] += 1
        out.append(encode(fs))
    return frame(out), edits


trace = os.path.join(work, 'locations.gltrace')
r = run([gltrace, 'record', '-o', trace, '--', app])
p = run([gltrace, 'replay', trace])
s = gt.replay_summary(p.stderr)
ck.check('the recording replays bit-exact as it is', r.returncode == 0 and p.returncode == 0 and s and s[0] == 2 and
         s[1] == 2, (r.stderr, p.stderr))

legacy = subprocess.run(['zstd', '-dcq', trace], capture_output=True, check=True).stdout
moved, edits = rewrite(legacy, answers=True)
ck.check('the rewrite changed the answers (6 attribute, 4 uniform), the attribute calls and the uniform calls',
         edits['answers'] == 10 and edits['calls'] >= 16 and edits['uniforms'] == 8, edits)
path = os.path.join(work, 'locations-other-driver.legacy')
open(path, 'wb').write(moved)
p = run([gltrace, 'replay', path, '--out', os.path.join(work, 'moved')])
s = gt.replay_summary(p.stderr)
ck.check('another driver\'s locations: every snapshot bit-exact (exit 0)', p.returncode == 0 and s and s[0] == 2 and
         s[1] == 2, p.stderr)
ck.check('replay says, once, that the driver put an attribute elsewhere and it maps them',
         p.stderr.count('attribute indices are mapped') == 1 and 'the recording\'s driver at' in p.stderr, p.stderr)

control, _ = rewrite(legacy, answers=False)
path = os.path.join(work, 'locations-calls-only.legacy')
open(path, 'wb').write(control)
p = run([gltrace, 'replay', path, '--out', os.path.join(work, 'control')])
s = gt.replay_summary(p.stderr)
ck.check('control: the calls moved but not the answers: snapshots differ, exit 1',
         p.returncode == 1 and s and s[2] >= 1, p.stderr)
ck.exit()
