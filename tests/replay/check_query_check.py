#!/usr/bin/env python3
"""`gltrace replay --check`: the queries the app made are issued again and
their results compared with the recorded ones.

* Sample apps recorded and replayed on the same llvmpipe check clean: exit
  0, a positive count of queries issued, none differing (JSON too).
* error_app makes GL errors on purpose and reads them with glGetError;
  recorded with --fb=draw, a snapshot is read back between its failing draw
  and its glGetError: replay must hand the app its error after its own
  read, so the check is still clean.
* The same trace with one recorded glGetError result changed (as another
  driver might have answered): exit 1, the call, function and both values
  named on stderr, in the JSON report and as a JUnit failure.
* --check with --benchmark: exit 2.

usage: check_query_check.py GLTRACE APPS_DIR MODES_DIR WORK_DIR"""
import functools
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import gltest as gt
from legacy_pb import encode, fields, frame, records


gltrace, apps, modes, work = sys.argv[1:5]
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=gt.gl_env(headless=True), timeout=600)
ck = gt.Checker('replay.query_check')
os.makedirs(work, exist_ok=True)
GL_GET_ERROR = 159  # api/functions.tsv (Android's number)
GL_INVALID_VALUE = 0x501


def checked(err):
    m = re.search(r'--check: (\d+) queries issued, (\d+) gave another result', err)
    return (int(m.group(1)), int(m.group(2))) if m else None


for app, flags in (('es3_scene', []), ('uploads', []), ('fbo_snapshots', [])):
    trace = os.path.join(work, f'{app}.gltrace')
    r = run([gltrace, 'record', *flags, '-o', trace, '--', os.path.join(apps, app)])
    rep = os.path.join(work, f'{app}.json')
    p = run([gltrace, 'replay', trace, '--check', '--json', rep])
    c = checked(p.stderr)
    j = json.load(open(rep)) if os.path.exists(rep) else {}
    ck.check(f'{app}: --check clean on the same driver (exit 0, queries issued, none differ, JSON agrees)',
             r.returncode == 0 and p.returncode == 0 and c and c[0] > 0 and c[1] == 0 and
             j.get('check', {}).get('queries') == c[0] and j['check'].get('mismatches') == 0, (p.stderr, c))

trace = os.path.join(work, 'error_app.gltrace')
r = run([gltrace, 'record', '--fb=draw', '-o', trace, '--', os.path.join(modes, 'error_app')])
p = run([gltrace, 'replay', trace, '--check'])
c = checked(p.stderr)
ck.check("error_app (GL errors on purpose, a snapshot read between its error and its glGetError): clean",
         r.returncode == 0 and p.returncode == 0 and c and c[0] >= 4 and c[1] == 0, p.stderr)

# One recorded glGetError answer changed: GL_INVALID_VALUE becomes "no error".
legacy = subprocess.run(['zstd', '-dcq', trace], capture_output=True, check=True).stdout
msgs, edited_seq = [], None
for index, m in enumerate(records(legacy)):
    fs = fields(m)
    if edited_seq is None and any(n == 4 and v == GL_GET_ERROR for n, _, v in fs):
        k = next(i for i, (n, _, _) in enumerate(fs) if n == 6)  # the return value
        ret = fields(fs[k][2])
        if any(n == 3 and v == GL_INVALID_VALUE for n, _, v in ret):
            fs[k] = (6, 2, encode([(n, wt, 0 if n == 3 else v) for n, wt, v in ret]))
            edited_seq = next((v for n, _, v in fs if n == 9), index)
            m = encode(fs)
    msgs.append(m)
edited = os.path.join(work, 'error_app-edited.legacy')
open(edited, 'wb').write(frame(msgs))
rep, junit = os.path.join(work, 'edited.json'), os.path.join(work, 'edited.xml')
p = run([gltrace, 'replay', edited, '--check', '--json', rep, '--junit', junit])
c = checked(p.stderr)
j = json.load(open(rep)) if os.path.exists(rep) else {}
first = (j.get('check', {}).get('first') or [{}])[0]
ck.check('a changed glGetError answer: exit 1, one query differs, named with its call and both values',
         edited_seq is not None and p.returncode == 1 and c and c[1] == 1 and
         f'call {edited_seq} (frame 0) glGetError return value: recorded [0], replayed [1281]' in p.stderr,
         (edited_seq, p.returncode, p.stderr))
ck.check('the JSON report has it: status differs, check.mismatches 1, the first with call, function, values',
         j.get('status') == 'differs' and j.get('check', {}).get('mismatches') == 1 and
         first.get('call') == edited_seq and first.get('function') == 'glGetError' and
         first.get('recorded') == '[0]' and first.get('replayed') == '[1281]', j.get('check'))
try:
    suite = ET.parse(junit).getroot().find('testsuite')
    case = next((t for t in suite.iter('testcase') if t.get('name') == 'queries (--check)'), None)
    ok = case is not None and case.find('failure') is not None and 'glGetError' in case.find('failure').get('message')
except (OSError, ET.ParseError) as e:
    ok, case = False, e
ck.check('the JUnit report has a failing "queries (--check)" test case naming glGetError', ok, case)

p = run([gltrace, 'replay', trace, '--check', '--benchmark'])
ck.check('--check with --benchmark: exit 2 naming both', p.returncode == 2 and '--check' in p.stderr, p.stderr[:200])
ck.exit()
